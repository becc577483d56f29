/**
 * `bun run bench:peers`: rtool against transformers.js and llama.cpp (node-llama-cpp) on the same
 * weights, the same /v2 prompt and the same expected call per reference scenario, in one run.
 *
 * Models: the embedded rt-tiny (when its package holds a model) and random weights at the
 * Qwen2.5-0.5B shape (with rt-tiny's tokenizer). Each model is exported with rtool's own
 * exporters (transformers.js directory, GGUF) and run at matching precisions: rtool fp32 / int8 /
 * int4 against transformers.js fp32 / q8 / q4 (the same MatMulNBits blocks) and llama.cpp F32 /
 * Q8_0 / Q4_0. Every engine starts from its warm system prefix and is teacher-forced to the
 * expected call (see lib/peer-engines.ts): rtool through its multi-head caller, the peers
 * generating the call as JSON text greedily (llama.cpp under its JSON-schema grammar).
 *
 * The peer engines are not in the default install: `bun run peers:install` adds them under
 * bench/node_modules; without them their rows say why they were skipped.
 *
 * Writes bench/results/peers.json and bench/results/peers.svg. Not a test: no thresholds.
 * `--quick`: rt-tiny only. `--reps N`: timed calls per scenario and engine (default 3).
 * `--model DIR`: another checkpoint in rt-tiny's place. `--scenario NAME`: one scenario only.
 * `--threads N`: threads of every engine (default the physical cores). `--big int8,int4`: the
 * precisions run at the 0.5B shape (default both). Results are rewritten after each precision,
 * so an interrupted run keeps what it measured.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createModelFromWeights } from "../packages/core/src/create-model";
import { exportGguf, type GgufFileType } from "../packages/core/src/export/gguf";
import type { ExportSource, TokenizerJson } from "../packages/core/src/export/source";
import { exportTransformersJs, type TransformersJsDtype } from "../packages/core/src/export/transformers-js";
import { randomQwenWeights } from "../packages/core/src/graph/random-weights";
import { loadModel } from "../packages/core/src/load-model";
import { readQwenConfig } from "../packages/core/src/model/config";
import type { QwenConfig } from "../packages/core/src/model/types";
import type { QuantMode } from "../packages/core/src/quant/select";
import { physicalCoreCount } from "../packages/core/src/runtime/cpu-cores";
import { loadTokenizer, type RtoolTokenizer } from "../packages/core/src/tokenizer";
import { RT_TINY_DIR } from "../packages/model-rt-tiny/src/index";
import { peerChart } from "./lib/peer-chart";
import {
  llamaCppEngine,
  loadLlama,
  type PeerEngine,
  type PeerMeasure,
  rtoolEngine,
  transformersJsEngine,
} from "./lib/peer-engines";
import { loadPeerCases, type PeerCase } from "./lib/peer-scenarios";
import { BENCH_SHAPES } from "./lib/shapes";
import { loadAverage } from "./lib/timing";

const quick = process.argv.includes("--quick");
const repsArg = process.argv.indexOf("--reps");
const reps = repsArg > 0 ? Number(process.argv[repsArg + 1]) : 3;
const threadsFlag = process.argv.indexOf("--threads");
const threads = threadsFlag > 0 ? Number(process.argv[threadsFlag + 1]) : physicalCoreCount();
const flag = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const modelDir = flag("--model") ?? RT_TINY_DIR;
const modelName = flag("--model") ? "custom" : "rt-tiny";
const onlyScenario = flag("--scenario");
const resultsDir = join(import.meta.dir, "results");

/** A precision as each engine spells it. */
interface Pair {
  rtool: QuantMode;
  label: string;
  tjs: TransformersJsDtype;
  gguf: GgufFileType;
}
const PAIRS: Record<string, Pair> = {
  fp32: { rtool: "none", label: "fp32", tjs: "fp32", gguf: "F32" },
  int8: { rtool: "int8", label: "int8", tjs: "q8", gguf: "Q8_0" },
  int4: { rtool: "int4", label: "int4", tjs: "q4", gguf: "Q4_0" },
};

/** One row of peers.json; times are medians over the timed calls, null when the engine could not run. */
interface Row {
  model: string;
  scenario: string;
  engine: string;
  quant: string;
  /** The precision the row is compared at (rtool's name). */
  pair: string;
  call_ms: number | null;
  prefill_ms: number | null;
  decode_ms: number | null;
  tokens: number | null;
  valid?: boolean;
  calls?: number;
  threads?: number;
  reason?: string;
}

interface BenchModel {
  name: string;
  source: ExportSource;
  tokenizer: RtoolTokenizer;
  pairs: Pair[];
  load(quant: QuantMode): ReturnType<typeof loadModel>;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function readJson(file: string): Record<string, unknown> | undefined {
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
}

function benchModels(): { models: BenchModel[]; skipped: { model: string; reason: string }[] } {
  const skipped: { model: string; reason: string }[] = [];
  if (!existsSync(join(modelDir, "config.json"))) {
    const reason =
      "@rtool/model-rt-tiny holds no model yet (packages/model-rt-tiny/model/config.json missing)";
    return {
      models: [],
      skipped: [
        { model: "rt-tiny", reason },
        { model: "qwen2.5-0.5b-random", reason },
      ],
    };
  }
  const tokenizer = loadTokenizer(modelDir);
  const tokenizerJson = readJson(join(modelDir, "tokenizer.json")) as unknown as TokenizerJson;
  const tokenizerConfig = readJson(join(modelDir, "tokenizer_config.json"));
  const tinyConfig = readQwenConfig(modelDir);
  const models: BenchModel[] = [
    {
      name: modelName,
      // the exporters read the checkpoint lazily; opened per export below
      source: undefined as unknown as ExportSource,
      tokenizer,
      pairs: [PAIRS.fp32, PAIRS.int8, PAIRS.int4],
      load: (quant) => loadModel(modelDir, { quant, threads, cache: false }),
    },
  ];
  if (!quick) {
    const shape: QwenConfig = {
      ...BENCH_SHAPES["qwen2.5-0.5b"],
      bosTokenId: tinyConfig.bosTokenId,
      eosTokenId: tinyConfig.eosTokenId,
    };
    if (tokenizer.size > shape.vocabSize) {
      skipped.push({
        model: "qwen2.5-0.5b-random",
        reason: `rt-tiny's tokenizer (${tokenizer.size}) exceeds the vocabulary`,
      });
    } else {
      const weights = randomQwenWeights(shape, 1);
      models.push({
        name: "qwen2.5-0.5b-random",
        source: { config: shape, weights, tokenizer: tokenizerJson, tokenizerConfig },
        tokenizer,
        pairs: (flag("--big") ?? "int8,int4").split(",").map((p) => PAIRS[p]),
        load: (quant) => createModelFromWeights(shape, weights, tokenizer, { quant, threads }),
      });
    }
  }
  return { models, skipped };
}

function skippedRows(
  model: string,
  cases: PeerCase[],
  engine: string,
  quant: string,
  pair: string,
  reason: string,
): Row[] {
  return cases.map((c) => ({
    model,
    scenario: c.scenario,
    engine,
    quant,
    pair,
    call_ms: null,
    prefill_ms: null,
    decode_ms: null,
    tokens: null,
    reason,
  }));
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0];

async function runPair(
  model: BenchModel,
  pair: Pair,
  cases: PeerCase[],
  work: string,
  llamaLib: Awaited<ReturnType<typeof loadLlama>>,
) {
  const rows: Row[] = [];
  const input = model.source ?? modelDir;
  const engines: PeerEngine[] = [];
  const log = (s: string) => console.log(`[${model.name} ${pair.label}] ${s}`);
  let t = performance.now();
  try {
    engines.push(
      rtoolEngine(await model.load(pair.rtool), pair.rtool === "none" ? "fp32" : pair.rtool, threads),
    );
    log(`rtool loaded in ${(performance.now() - t).toFixed(0)} ms`);
  } catch (error) {
    rows.push(...skippedRows(model.name, cases, "rtool", pair.label, pair.label, message(error)));
  }
  t = performance.now();
  try {
    const dir = join(work, `${model.name}-tjs-${pair.tjs}`);
    await exportTransformersJs(input, dir, { dtype: pair.tjs, logits: "last" });
    log(`transformers.js export in ${(performance.now() - t).toFixed(0)} ms`);
    engines.push(await transformersJsEngine(dir, pair.tjs, model.tokenizer, threads));
  } catch (error) {
    rows.push(...skippedRows(model.name, cases, "transformers_js", pair.tjs, pair.label, message(error)));
  }
  t = performance.now();
  if (typeof llamaLib === "string") {
    rows.push(
      ...skippedRows(
        model.name,
        cases,
        "llama_cpp",
        pair.gguf,
        pair.label,
        `node-llama-cpp cannot load: ${llamaLib}`,
      ),
    );
  } else {
    try {
      const path = join(work, `${model.name}-${pair.gguf}.gguf`);
      await exportGguf(input, path, { type: pair.gguf });
      log(`GGUF export in ${(performance.now() - t).toFixed(0)} ms`);
      engines.push(await llamaCppEngine(llamaLib, path, pair.gguf, model.tokenizer, threads));
    } catch (error) {
      rows.push(...skippedRows(model.name, cases, "llama_cpp", pair.gguf, pair.label, message(error)));
    }
  }
  for (const c of cases) {
    const samples = new Map<PeerEngine, PeerMeasure[]>();
    const failed = new Map<PeerEngine, string>();
    for (const e of engines) {
      try {
        await e.prepare(c);
        samples.set(e, []);
      } catch (error) {
        failed.set(e, message(error));
      }
    }
    // interleaved rounds: a burst of load from other processes falls on every engine alike
    for (let r = 0; r < reps; r++) {
      for (const e of engines) {
        if (failed.has(e)) continue;
        try {
          samples.get(e)!.push(await e.measure(c));
        } catch (error) {
          failed.set(e, message(error));
        }
      }
    }
    for (const e of engines) {
      const base = {
        model: model.name,
        scenario: c.scenario,
        engine: e.engine,
        quant: e.quant,
        pair: pair.label,
        threads: e.threads,
      };
      const xs = samples.get(e) ?? [];
      if (failed.has(e) || xs.length === 0) {
        rows.push({
          ...base,
          call_ms: null,
          prefill_ms: null,
          decode_ms: null,
          tokens: null,
          reason: failed.get(e),
        });
        continue;
      }
      rows.push({
        ...base,
        call_ms: median(xs.map((x) => x.call_ms)),
        prefill_ms: median(xs.map((x) => x.prefill_ms)),
        decode_ms: median(xs.map((x) => x.decode_ms)),
        tokens: median(xs.map((x) => x.tokens)),
        valid: xs.every((x) => x.valid),
        calls: xs.length,
      });
    }
    const line = rows
      .filter((r) => r.scenario === c.scenario && r.model === model.name && r.pair === pair.label)
      .map(
        (r) =>
          `${r.engine} ${r.call_ms === null ? "n/a" : `${r.call_ms.toFixed(0)} ms/${r.tokens} tok${r.valid ? "" : " INVALID"}`}`,
      )
      .join(", ");
    log(`${c.scenario}: ${line}`);
  }
  for (const e of engines) await e.dispose();
  return rows;
}

/** Median over (model, precision, scenario) of peer call time ÷ rtool call time, valid calls only. */
function ratios(rows: Row[], filter: (r: Row) => boolean = () => true) {
  const out: Record<string, number | null> = {};
  for (const peer of ["transformers_js", "llama_cpp"]) {
    const xs: number[] = [];
    for (const r of rows.filter((row) => row.engine === peer && filter(row))) {
      const ours = rows.find(
        (o) => o.engine === "rtool" && o.model === r.model && o.pair === r.pair && o.scenario === r.scenario,
      );
      if (r.call_ms && ours?.call_ms && r.valid && ours.valid) xs.push(r.call_ms / ours.call_ms);
    }
    out[peer] = xs.length ? median(xs) : null;
  }
  return out;
}

/** Writes peers.json and peers.svg from the rows so far; returns what it wrote. */
function write(rows: Row[], started: number, loadBefore: number) {
  const byModel = Object.fromEntries(
    [...new Set(rows.map((r) => r.model))].map((m) => [
      m,
      Object.fromEntries(
        [...new Set(rows.filter((r) => r.model === m).map((r) => r.pair))].map((p) => [
          p,
          ratios(rows, (r) => r.model === m && r.pair === p),
        ]),
      ),
    ]),
  );
  const result = {
    bench: "peers",
    date: new Date().toISOString(),
    machine: { threads, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() },
    method:
      "per scenario (first example of each scenarios/ file), median of --reps timed calls per engine after one untimed call, engines interleaved; every engine warm on the system prefix and teacher-forced to the expected call (rtool: multi-head /v2 heads via createRealtimeCaller; peers: the call as compact JSON with every parameter, null when unused, greedy, llama.cpp under the tools' JSON-schema grammar); call_ms = time to the complete call, prefill_ms = to the first output token's logits, decode_ms = the rest, tokens = forward passes after the prefill",
    reps,
    rows,
    ratios: ratios(rows),
    ratios_by_model: byModel,
    seconds: (performance.now() - started) / 1000,
  };
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, "peers.json"), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(
    join(resultsDir, "peers.svg"),
    peerChart(
      rows,
      `rtool vs transformers.js vs llama.cpp, ${threads} threads, load ${loadBefore.toFixed(1)}`,
    ),
  );
  return result;
}

async function main() {
  const started = performance.now();
  const cases = loadPeerCases().filter((c) => !onlyScenario || c.scenario === onlyScenario);
  const { models, skipped } = benchModels();
  const work = mkdtempSync(join(tmpdir(), "rtool-peers-"));
  const llamaLib = await loadLlama();
  const rows: Row[] = [];
  const loadBefore = loadAverage();
  try {
    for (const s of skipped)
      for (const engine of ["rtool", "transformers_js", "llama_cpp"])
        rows.push(...skippedRows(s.model, cases, engine, "-", "-", s.reason));
    for (const model of models) {
      for (const pair of model.pairs) {
        rows.push(...(await runPair(model, pair, cases, work, llamaLib)));
        write(rows, started, loadBefore);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const result = write(rows, started, loadBefore);
  console.log(
    JSON.stringify(
      { ratios: result.ratios, ratios_by_model: result.ratios_by_model, seconds: result.seconds },
      null,
      2,
    ),
  );
}

await main();
