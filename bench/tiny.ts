/**
 * `bun run bench:tiny`: the embedded model's speed as a game or robot sees it. For every scenario
 * of `scenarios/`, one client sends `--calls N` (default 200) warm calls to
 * `/v2/function_call` on a loopback rtool-server, one at a time, cycling over the scenario's
 * examples, and the round trip of each (request sent -> JSON reply parsed) is timed.
 * Reports median and p99 round trip and calls/s per scenario; writes bench/results/tiny.json
 * (`--out FILE` elsewhere). `--model DIR` benchmarks another model. A benchmark, not a test: no
 * thresholds.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { refuseUnknownOptions } from "../tools/train/cli-options";
import { argValue, exampleInput, loadScenarios, pickBenchModel, quantile, startBenchServer } from "./calls";

refuseUnknownOptions(["calls", "model", "out"]);
const CALLS = Number(argValue("--calls") ?? 200);
const root = join(import.meta.dir, "..");
const OUT = argValue("--out") ?? join(root, "bench/results/tiny.json");
const { dir, name, cleanup } = await pickBenchModel();
const { server, client } = await startBenchServer(dir, name, 1);
const loadBefore = loadavg()[0]!;

const rows: Record<string, unknown>[] = [];
for (const scenario of loadScenarios()) {
  const request = (i: number) => exampleInput(scenario, i);
  // Warm: the system turn cached, the session's buffers sized.
  for (let i = 0; i < Math.min(3, scenario.examples.length); i++) await client.functionCall(request(i));
  const ms: number[] = [];
  let valid = 0;
  let passes = 0;
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    const reply = await client.functionCall(request(i));
    ms.push(performance.now() - t0);
    if (reply.valid) valid++;
    passes += reply.timings?.steps ?? 0;
  }
  const seconds = (performance.now() - started) / 1000;
  rows.push({
    scenario: scenario.name,
    calls: CALLS,
    median_ms: quantile(ms, 0.5),
    p99_ms: quantile(ms, 0.99),
    calls_per_s: CALLS / seconds,
    valid_replies: valid,
    passes_per_call: passes / CALLS,
  });
}
await server.close();
cleanup();

const medians = rows.map((r) => r.median_ms as number).sort((a, b) => a - b);
const result = {
  date: new Date().toISOString(),
  model: name,
  route: "/v2/function_call (JSON, one client, loopback)",
  machine: { cpus: cpus().length, loadAverageBefore: loadBefore, loadAverageAfter: loadavg()[0] },
  rows,
  median_of_medians_ms: medians[Math.floor(medians.length / 2)],
};
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
console.log(`bench:tiny  ${name}, ${CALLS} warm calls per scenario, one client`);
console.log("scenario            median ms   p99 ms   calls/s   valid   passes");
for (const r of rows) {
  console.log(
    `${String(r.scenario).padEnd(18)}  ${(r.median_ms as number).toFixed(1).padStart(9)}  ${(r.p99_ms as number).toFixed(1).padStart(7)}  ${(r.calls_per_s as number).toFixed(1).padStart(8)}  ${String(r.valid_replies).padStart(6)}  ${(r.passes_per_call as number).toFixed(2).padStart(7)}`,
  );
}
