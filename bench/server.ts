/**
 * `bun run bench:server`: rtool-server under load, on loopback only. One server (the real
 * createServer + loadCallers path, 16 lanes sharing forward passes) answers a fixed number of
 * calls from 1, 4 and 16 concurrent clients; reports p50/p99 latency and calls/s per level and
 * throughput(16) / throughput(1), checks that every call got exactly one reply and that the
 * reply equals the one-client reply for the same query, and writes bench/results/server.json.
 *
 * Model: `--model DIR`, else the embedded rt-tiny when installed, else a random checkpoint of a
 * small real-time shape (hidden 256, 4 layers, the qwen3-tied fixture's tokenizer) written to a
 * temporary directory: answers are random but well-formed under constrained decoding. With
 * rt-tiny, the robot-arm scenario's tools and system prompt are used when `scenarios/`
 * is there; otherwise two small tools.
 * A benchmark, not a test: no thresholds. `--calls N` sets calls per level (default 96);
 * `--threads N` the ONNX Runtime threads (default: the physical cores).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { quantile, startLoadServer } from "./lib/server-load";

const root = join(import.meta.dir, "..");
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const CALLS = Number(arg("--calls") ?? 96);
const THREADS = arg("--threads") === undefined ? undefined : Number(arg("--threads"));
const LEVELS = [1, 4, 16];

const bench = await startLoadServer({ model: arg("--model"), threads: THREADS });
const { name, work, loaded, post } = bench;

const reference = new Map<string, string>();
const levels: Record<string, unknown> = {};
const throughput: Record<number, number> = {};
let lost = 0;
let duplicated = 0;
let mismatched = 0;
const loadBefore = loadavg()[0]!;
for (const clients of LEVELS) {
  const latencies: number[] = [];
  const answered = new Map<number, number>();
  let failed = 0;
  let next = 0;
  const before = bench.counters();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (;;) {
        const index = next++;
        if (index >= CALLS) return;
        const query = work.queries[index % work.queries.length]!;
        const { ms, status, reply } = await post(query);
        answered.set(index, (answered.get(index) ?? 0) + 1);
        if (status !== 200 || !reply) {
          failed++;
          continue;
        }
        latencies.push(ms);
        const key = JSON.stringify(reply.heads);
        const seen = reference.get(query);
        if (seen === undefined) reference.set(query, key);
        else if (seen !== key) mismatched++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (let i = 0; i < CALLS; i++) {
    const n = answered.get(i) ?? 0;
    if (n === 0) lost++;
    if (n > 1) duplicated += n - 1;
  }
  latencies.sort((a, b) => a - b);
  throughput[clients] = latencies.length / seconds;
  levels[String(clients)] = {
    calls: CALLS,
    ok: latencies.length,
    failed,
    p50_ms: quantile(latencies, 0.5),
    p99_ms: quantile(latencies, 0.99),
    calls_per_s: throughput[clients],
    forward_passes: bench.counters().passes - before.passes,
    steps_per_pass:
      (bench.counters().mergedSteps - before.mergedSteps) /
      Math.max(1, bench.counters().passes - before.passes),
  };
}
await bench.close();

const result = {
  date: new Date().toISOString(),
  model: name,
  workload: work.label,
  provider: loaded.provider,
  threads: THREADS ?? "physical cores",
  calls_per_level: CALLS,
  levels,
  throughput_ratio_16_over_1: throughput[16]! / throughput[1]!,
  lost,
  duplicated,
  mismatched_vs_one_client: mismatched,
  load_average: { before: loadBefore, after: loadavg()[0] },
  note: "loopback only; one process; the machine is shared, so figures vary with its load",
};
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/server.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(`rtool-server bench: ${name}, ${work.label}, ${CALLS} calls per level`);
console.log("clients  p50 ms   p99 ms   calls/s  steps/pass  failed");
for (const clients of LEVELS) {
  const l = levels[String(clients)] as {
    p50_ms: number;
    p99_ms: number;
    calls_per_s: number;
    steps_per_pass: number;
    failed: number;
  };
  console.log(
    `${String(clients).padStart(7)}  ${l.p50_ms.toFixed(1).padStart(6)}   ${l.p99_ms.toFixed(1).padStart(6)}   ${l.calls_per_s.toFixed(1).padStart(7)}  ${l.steps_per_pass.toFixed(2).padStart(10)}  ${String(l.failed).padStart(6)}`,
  );
}
console.log(
  `throughput(16)/throughput(1) = ${result.throughput_ratio_16_over_1.toFixed(2)}; lost ${lost}, duplicated ${duplicated}, mismatched ${mismatched}`,
);
