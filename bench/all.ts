/**
 * `bun run bench`: the aggregated benchmark report, in one bounded run (default budget 540 s).
 *
 * Measured here, through one real rtool-server on 127.0.0.1 over the embedded rt-tiny model:
 * - cold and hot latency per scenario on the v2 route (bench/report/latency.ts);
 * - per-head quality in v1 and v2 on the scenario files' examples and on a per-cell sample of the
 *   held-out requests (`tools/train/out/heldout-requests.jsonl`, written by `bun run data:tiny`,
 *   when it exists), judged by `eval:tiny`'s rules (bench/report/quality.ts);
 * - the integration episodes (packages/integration) in v1 and v2, including the ones the model
 *   does not complete, with the step where each fails.
 * Read from their files: core, decode, quant, roofline, server, scaling, calls, soak and peers results in
 * bench/results/; of these only `bench:decode --quick` (the sequential-JSON comparison) is run here,
 * and only when decode.json is missing. The others take minutes to an hour, so the report names
 * the command for any that is absent.
 * Writes bench/results/report.json, report.md and latency.svg. A benchmark, not a test.
 *
 * Flags: --model DIR (default the embedded rt-tiny; random weights if it is absent), --per-cell N
 * (held-out requests per scenario/lang/format cell, default 3), --cold N (default 3), --hot N
 * (default 5), --budget-s S (default 540), --no-run (never run another benchmark).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import {
  embeddedModelPresent,
  type ModelServer,
  runEpisode,
  SCENARIO_EPISODES,
  startModelServer,
  writeRandomModel,
} from "../packages/integration/src/index";
import { RT_TINY_DIR } from "../packages/model-rt-tiny/src/index";
import { type Scenario, scenarios as simScenarios } from "../packages/sim/src/index";
import { scenarioExamples } from "../tools/train/eval-tiny";
import { decodeScenarioTimes, readExistingResults } from "./report/existing-results";
import { measureLatency } from "./report/latency";
import { latencyChart } from "./report/latency-chart";
import { type BenchReport, type EpisodeSummary, renderMarkdown } from "./report/markdown";
import { heldoutCases, measureQuality } from "./report/quality";

const root = join(import.meta.dir, "..");
const resultsDir = join(root, "bench", "results");

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const budgetS = Number(flag("budget-s") ?? 540);
const perCell = Number(flag("per-cell") ?? 3);
const coldSamples = Number(flag("cold") ?? 3);
const hotSamples = Number(flag("hot") ?? 5);
const mayRun = !process.argv.includes("--no-run");
const started = performance.now();
const elapsedS = () => (performance.now() - started) / 1000;
const round2 = (x: number) => Math.round(x * 100) / 100;

// The run is bounded whatever happens below: a hung call cannot hold it past the budget.
const hardStop = setTimeout(
  () => {
    console.error(`bench: over the ${budgetS} s budget by 120 s; stopping`);
    process.exit(2);
  },
  (budgetS + 120) * 1000,
);
hardStop.unref();

/** Parameter count from a safetensors header (shapes only; no tensor data is read). */
function safetensorsParameters(file: string): number | null {
  if (!existsSync(file)) return null;
  const fd = openSync(file, "r");
  try {
    const size = Buffer.alloc(8);
    readSync(fd, size, 0, 8, 0);
    const header = Buffer.alloc(Number(size.readBigUInt64LE()));
    readSync(fd, header, 0, header.length, 8);
    const entries = Object.entries(JSON.parse(header.toString("utf8"))).filter(([k]) => k !== "__metadata__");
    return entries.reduce(
      (sum, [, t]) => sum + (t as { shape: number[] }).shape.reduce((a, b) => a * b, 1),
      0,
    );
  } finally {
    closeSync(fd);
  }
}

/** The scenario files: the repository's `scenarios/` (it has the assistant), else the sim's copies. */
function scenarioSource(): { dir: string; scenarios: Record<string, Scenario> } {
  const shared = join(root, "scenarios");
  const dir = existsSync(shared) ? shared : join(root, "packages", "sim", "src", "scenarios");
  const scenarios: Record<string, Scenario> = {};
  for (const name of Object.keys(simScenarios))
    scenarios[name] = simScenarios[name as keyof typeof simScenarios];
  if (dir === shared) {
    for (const file of ["assistant.json"]) {
      const path = join(shared, file);
      if (existsSync(path)) scenarios[file.replace(/\.json$/, "")] = JSON.parse(readFileSync(path, "utf8"));
    }
  }
  return {
    dir,
    scenarios: Object.fromEntries(Object.entries(scenarios).sort(([a], [b]) => a.localeCompare(b))),
  };
}

async function runDecodeQuick(skipped: string[], ranItself: string[]): Promise<void> {
  if (existsSync(join(resultsDir, "decode.json"))) return;
  if (!mayRun) {
    skipped.push("bench:decode (decode.json missing; --no-run)");
    return;
  }
  const limitS = Math.min(240, budgetS / 3);
  console.log(`bench: decode.json missing; running bench/decode.ts --quick (at most ${limitS} s)`);
  const proc = Bun.spawn(["bun", join(root, "bench", "decode.ts"), "--quick"], {
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  });
  const timer = setTimeout(() => proc.kill(), limitS * 1000);
  const code = await proc.exited;
  clearTimeout(timer);
  if (code === 0 && existsSync(join(resultsDir, "decode.json"))) ranItself.push("decode");
  else
    skipped.push(
      `bench:decode --quick (exit ${code}${code === null || code > 128 ? ", stopped at its time limit" : ""})`,
    );
}

async function main(): Promise<void> {
  mkdirSync(resultsDir, { recursive: true });
  const loadBefore = round2(loadavg()[0]!);
  const skipped: string[] = [];
  const ranItself: string[] = [];
  await runDecodeQuick(skipped, ranItself);

  const given = flag("model");
  const embedded = !given && embeddedModelPresent();
  const random = !given && !embedded ? writeRandomModel(11) : null;
  const modelDir = given ?? (embedded ? RT_TINY_DIR : random!.dir);
  const modelName = given ?? (embedded ? "rt-tiny" : "random weights (rt-tiny absent)");
  const note = embedded
    ? "The embedded model (packages/model-rt-tiny/model), served by createServer + loadCallers on CPU, one lane."
    : given
      ? `The model in ${given}.`
      : "packages/model-rt-tiny/model is absent: a random-weight model stands in, so quality figures mean nothing; latencies are of that shape.";
  console.log(`bench: model ${modelName}`);
  const served: ModelServer = await startModelServer(modelDir, {
    modelName,
    cache: embedded || Boolean(given),
    onClose: random?.remove,
  });

  const { dir: scenarioDir, scenarios } = scenarioSource();
  const report: BenchReport = {
    date: new Date().toISOString(),
    seconds: 0,
    machine: { cores: cpus().length, loadAverageBefore: loadBefore, loadAverageAfter: 0 },
    model: {
      name: modelName,
      embedded,
      parameters: safetensorsParameters(join(modelDir, "model.safetensors")),
      note,
    },
    latency: [],
    sequential: { source: "bench/results/decode.json (tiny shape)", perScenario: {} },
    quality: [],
    episodes: [],
    aggregated: [],
    ranItself,
    skipped,
  };
  const section = async (name: string, run: () => Promise<void>) => {
    if (elapsedS() > budgetS) {
      skipped.push(`${name} (time budget of ${budgetS} s spent)`);
      return;
    }
    const t0 = performance.now();
    await run();
    console.log(`bench: ${name} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  try {
    // First, on the fresh server: the first call per scenario must find nothing cached.
    await section("latency", async () => {
      report.latency = await measureLatency(served.client, scenarios, { coldSamples, hotSamples });
    });
    await section("quality: scenario examples", async () => {
      report.quality.push(
        ...(await measureQuality(served.client, "scenario examples", scenarioExamples(scenarioDir))),
      );
    });
    const heldoutFile = join(root, "tools", "train", "out", "heldout-requests.jsonl");
    if (existsSync(heldoutFile)) {
      await section("quality: held-out requests", async () => {
        const cases = heldoutCases(heldoutFile, perCell);
        report.quality.push(
          ...(await measureQuality(served.client, `held-out (${perCell} per cell)`, cases)),
        );
      });
    } else
      skipped.push(
        "held-out quality (no tools/train/out/heldout-requests.jsonl; `bun run data:tiny` writes it)",
      );
    await section("episodes", async () => {
      for (const version of ["v1", "v2"] as const) {
        for (const episode of SCENARIO_EPISODES) {
          const result = await runEpisode<unknown>(episode, served.client, { version });
          const summary: EpisodeSummary = {
            episode: result.episode,
            scenario: result.scenario,
            version,
            completed: result.completed,
            failedStep: result.failedStep,
            failure: result.failure,
            steps: result.steps.map((s) => ({
              name: s.name,
              call: s.call,
              outcome: s.outcome,
              met: s.expectationMet,
              serverMs: s.latencyMs,
            })),
          };
          report.episodes.push(summary);
        }
      }
    });
  } finally {
    await served.close();
  }

  report.sequential.perScenario = decodeScenarioTimes(resultsDir);
  report.aggregated = readExistingResults(resultsDir);
  report.machine.loadAverageAfter = round2(loadavg()[0]!);
  report.seconds = Math.round(elapsedS());
  const bars = report.latency.map((r) => ({
    scenario: r.scenario,
    coldMs: r.cold.serverMs.median,
    hotMs: r.hot.serverMs.median,
    sequentialMs: report.sequential.perScenario[r.scenario]?.sequentialMs ?? null,
  }));
  writeFileSync(
    join(resultsDir, "latency.svg"),
    latencyChart(
      bars,
      `Latency per scenario: ${modelName} (server latency_ms, median)`,
      `${report.date.slice(0, 16)}Z, ${report.machine.cores} cores, load ${loadBefore}; sequential JSON from bench:decode (tiny shape, random weights)`,
    ),
  );
  writeFileSync(join(resultsDir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(resultsDir, "report.md"), renderMarkdown(report));
  console.log(renderMarkdown(report));
  console.log(`bench: wrote bench/results/report.json, report.md, latency.svg in ${report.seconds} s`);
}

await main();
clearTimeout(hardStop);
