/**
 * `bun bench/soak.ts`: a bounded soak of one rtool-server. `--calls N` calls (default 20 000)
 * over the scenarios in turn (JSON and, every fourth call, streamed), from `--clients C`
 * concurrent clients (default 4) on C lanes, stopping early at `--max-minutes M` (default 60);
 * `--cache-mb B` bounds the prefix cache (default 192; one cache for both prompt formats, shared by the
 * lanes), `--max-tokens T` per head (default 16). Scenarios come in a seeded random order, not round robin: a cyclic order
 * longer than what a lane's cache holds would make every lookup an LRU miss.
 * Samples the process's RSS (after a full GC) and the prefix cache's bytes every `--every K`
 * calls (default 100), then reports, after a warm-up of the first 10% of the calls:
 * - RSS growth: median of the last tenth of the samples against the median of the first tenth,
 *   (criterion: under 5%), and the least-squares slope in MB per 1000 calls;
 * - prefix cache: the most bytes seen against its bound, and its slope over the second half;
 * - failures (non-200 replies, transport errors) and invalid calls.
 * Writes bench/results/soak.json (also while running, so a stopped soak leaves its samples).
 * Model as in bench/calls.ts. A benchmark, not a test.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { refuseUnknownOptions } from "../tools/train/cli-options";
import { argValue, loadScenarios, peakRssBytes, pickBenchModel, quantile, startBenchServer } from "./calls";

refuseUnknownOptions(["calls", "clients", "max-minutes", "every", "cache-mb", "max-tokens", "model"]);
const root = join(import.meta.dir, "..");
const CALLS = Number(argValue("--calls") ?? 20_000);
const CLIENTS = Number(argValue("--clients") ?? 4);
const MAX_MINUTES = Number(argValue("--max-minutes") ?? 60);
const EVERY = Number(argValue("--every") ?? 100);
const CACHE_BOUND_BYTES = Number(argValue("--cache-mb") ?? 192) * 2 ** 20;
const MAX_TOKENS = Number(argValue("--max-tokens") ?? 16);

interface Sample {
  calls: number;
  seconds: number;
  rssMb: number;
  heapMb: number;
  cacheMb: number;
  cacheHits: number;
  cacheMisses: number;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** A fixed pseudo-random number for call `index` (a 32-bit integer hash), so runs are repeatable. */
function mix(index: number): number {
  let h = Math.imul(index ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Least-squares slope of y over x. */
function slope(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

const scenarios = loadScenarios();
const model = await pickBenchModel();
const { server, client } = await startBenchServer(model.dir, model.name, CLIENTS, CACHE_BOUND_BYTES);
const samples: Sample[] = [];
const perScenario: Record<string, { calls: number; invalid: number; failed: number }> = {};
for (const s of scenarios) perScenario[s.name] = { calls: 0, invalid: 0, failed: 0 };
let done = 0;
let next = 0;
let failed = 0;
let invalid = 0;
const failures: string[] = [];
const started = performance.now();
const deadline = started + MAX_MINUTES * 60_000;
let stoppedBy: "calls" | "time" = "calls";

function sample(): void {
  Bun.gc(true);
  const memory = process.memoryUsage();
  const cache = server.host.cacheStats();
  samples.push({
    calls: done,
    seconds: round((performance.now() - started) / 1000, 1),
    rssMb: round(memory.rss / 2 ** 20, 1),
    heapMb: round(memory.heapUsed / 2 ** 20, 1),
    cacheMb: round((cache?.bytes ?? 0) / 2 ** 20, 1),
    cacheHits: cache?.hits ?? 0,
    cacheMisses: cache?.misses ?? 0,
  });
}

function report(final: boolean) {
  const warm = samples.filter((s) => s.calls >= Math.ceil(done * 0.1));
  const tenth = Math.max(1, Math.floor(warm.length / 10));
  const first = quantile(
    warm.slice(0, tenth).map((s) => s.rssMb),
    0.5,
  );
  const last = quantile(
    warm.slice(-tenth).map((s) => s.rssMb),
    0.5,
  );
  const growthPct = ((last - first) / first) * 100;
  const half = warm.slice(Math.floor(warm.length / 2));
  const maxCacheMb = Math.max(0, ...samples.map((s) => s.cacheMb));
  const result = {
    date: new Date().toISOString(),
    final,
    model: model.name,
    scenarios: scenarios.map((s) => s.name),
    calls_requested: CALLS,
    calls_done: done,
    stopped_by: final ? stoppedBy : "running",
    clients: CLIENTS,
    minutes: round((performance.now() - started) / 60_000),
    calls_per_s: round(done / ((performance.now() - started) / 1000)),
    failed,
    invalid,
    failures: failures.slice(0, 20),
    per_scenario: perScenario,
    rss: {
      warm_up_calls: Math.ceil(done * 0.1),
      first_tenth_median_mb: first,
      last_tenth_median_mb: last,
      growth_pct: round(growthPct),
      under_5_pct: growthPct < 5,
      slope_mb_per_1000_calls: round(slope(warm.map((s) => [s.calls, s.rssMb])) * 1000, 3),
      peak_mb: (() => {
        const peak = peakRssBytes();
        return peak === null ? null : round(peak / 2 ** 20, 1);
      })(),
    },
    prefix_cache: {
      bound_mb: CACHE_BOUND_BYTES / 2 ** 20,
      max_mb: maxCacheMb,
      within_bound: maxCacheMb <= CACHE_BOUND_BYTES / 2 ** 20,
      slope_mb_per_1000_calls_second_half: round(slope(half.map((s) => [s.calls, s.cacheMb])) * 1000, 3),
    },
    samples,
    note: "RSS sampled after Bun.gc(true); server and client share one process; the machine is shared",
  };
  mkdirSync(join(root, "bench/results"), { recursive: true });
  writeFileSync(join(root, "bench/results/soak.json"), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

async function oneCall(index: number): Promise<void> {
  const pick = mix(index);
  const scenario = scenarios[pick % scenarios.length]!;
  const example = scenario.examples[Math.floor(pick / scenarios.length) % scenario.examples.length]!;
  const input = {
    query: example.query,
    tools: scenario.tools,
    ...(scenario.system ? { system: scenario.system } : {}),
    ...(example.environment ? { environment: example.environment } : {}),
    ...(example.history ? { history: example.history } : {}),
    max_tokens: MAX_TOKENS,
  };
  const stats = perScenario[scenario.name]!;
  stats.calls++;
  try {
    let valid = false;
    if (index % 4 === 3) {
      for await (const event of client.streamFunctionCall(input))
        if ("call" in event) valid = event.call.valid;
    } else {
      valid = (await client.functionCall(input)).valid;
    }
    if (!valid) {
      invalid++;
      stats.invalid++;
    }
  } catch (error) {
    failed++;
    stats.failed++;
    if (failures.length < 20) failures.push(`${scenario.name}: ${(error as Error).message}`);
  }
}

sample();
try {
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (;;) {
        if (performance.now() > deadline) {
          stoppedBy = "time";
          return;
        }
        const index = next++;
        if (index >= CALLS) return;
        await oneCall(index);
        done++;
        if (done % EVERY === 0) {
          sample();
          if (samples.length % 10 === 0) {
            const r = report(false);
            console.log(
              `${done} calls, ${r.calls_per_s} calls/s, RSS ${samples.at(-1)!.rssMb} MB (growth ${r.rss.growth_pct}%), cache ${samples.at(-1)!.cacheMb} MB, failed ${failed}`,
            );
          }
        }
      }
    }),
  );
  sample();
} finally {
  await server.close();
  model.cleanup();
}
const result = report(true);
console.log(
  `soak: ${result.calls_done}/${CALLS} calls in ${result.minutes} min (${result.stopped_by}); RSS growth ${result.rss.growth_pct}% (${result.rss.under_5_pct ? "under" : "OVER"} 5%), slope ${result.rss.slope_mb_per_1000_calls} MB/1000 calls; prefix cache max ${result.prefix_cache.max_mb} of ${result.prefix_cache.bound_mb} MB; failed ${failed}, invalid ${invalid}`,
);
