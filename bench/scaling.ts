/**
 * `bun run bench:scaling`: how rtool-server scales with concurrent agents, in one run. One
 * in-process server on loopback (the real createServer + loadCallers path, 16 lanes sharing
 * forward passes; the embedded rt-tiny unless `--model`) and 1, 2, 4, 8, 16 agents in turn, each
 * agent a closed loop (one call at a time, the next as soon as the answer arrives, its own
 * queries) for a fixed time per level. Reports calls/s, each agent's achieved rate (Hz), p50 and
 * p99 latency, forward passes and steps merged per pass, and every figure's ratio to 1 agent;
 * writes bench/results/scaling.json and prints a table.
 * A benchmark, not a test: no thresholds.
 *
 * Flags: --quick (1 s per level)  --seconds N (default 10)  --agents 1,2,4,8,16  --model DIR
 *   --threads N  --session-worker (forward passes in a worker thread)  --out FILE  --help
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { quantile, startLoadServer } from "./lib/server-load";

const HELP = `bun run bench:scaling [-- flags]
  --quick            1 s per level (a smoke run)
  --seconds N        time per level (default 10)
  --agents a,b       concurrent agents per level (default 1,2,4,8,16; at most 16, the lanes)
  --model DIR        a model directory or name (default the embedded rt-tiny)
  --threads N        ONNX Runtime threads (default: the physical cores)
  --session-worker   run forward passes in a worker thread
  --out FILE         default bench/results/scaling.json`;

if (process.argv.includes("--help")) {
  console.log(HELP);
  process.exit(0);
}

const root = join(import.meta.dir, "..");
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const quick = process.argv.includes("--quick");
const SECONDS = Number(arg("--seconds") ?? (quick ? 1 : 10));
const AGENTS = (arg("--agents") ?? "1,2,4,8,16").split(",").map(Number);
const THREADS = arg("--threads") === undefined ? undefined : Number(arg("--threads"));
const sessionWorker = process.argv.includes("--session-worker");
const outFile = resolve(arg("--out") ?? join(root, "bench/results/scaling.json"));
if (AGENTS.some((n) => !(n >= 1 && n <= 16)))
  throw new Error(`--agents: 1 to 16 each (the server's lanes), got ${AGENTS.join(",")}`);

interface Level {
  agents: number;
  calls: number;
  failed: number;
  seconds: number;
  calls_per_s: number;
  /** Calls per second each agent achieved (calls/s ÷ agents). */
  hz_per_agent: number;
  p50_ms: number;
  p99_ms: number;
  forward_passes: number;
  steps_per_pass: number;
}

const bench = await startLoadServer({ model: arg("--model"), threads: THREADS, sessionWorker });
const { work, post } = bench;
const loadBefore = loadavg()[0]!;
const levels: Level[] = [];
for (const agents of AGENTS) {
  const latencies: number[] = [];
  let failed = 0;
  const before = bench.counters();
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: agents }, async (_, a) => {
      // each agent its own sequence of queries (its own part and place each frame)
      for (let k = 0; performance.now() < deadline; k++) {
        const { ms, status } = await post(work.queries[(a * 5 + k) % work.queries.length]!);
        if (status === 200) latencies.push(ms);
        else failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = bench.counters();
  latencies.sort((x, y) => x - y);
  const passes = after.passes - before.passes;
  const level: Level = {
    agents,
    calls: latencies.length,
    failed,
    seconds,
    calls_per_s: latencies.length / seconds,
    hz_per_agent: latencies.length / seconds / agents,
    p50_ms: quantile(latencies, 0.5),
    p99_ms: quantile(latencies, 0.99),
    forward_passes: passes,
    steps_per_pass: (after.mergedSteps - before.mergedSteps) / Math.max(1, passes),
  };
  levels.push(level);
  console.log(
    `${agents} agents: ${level.calls} calls in ${seconds.toFixed(1)} s, ${level.calls_per_s.toFixed(1)} calls/s, p50 ${level.p50_ms.toFixed(1)} ms, p99 ${level.p99_ms.toFixed(1)} ms`,
  );
}
await bench.close();

const base = levels.find((l) => l.agents === 1) ?? levels[0]!;
const ratios = levels.map((l) => ({
  agents: l.agents,
  calls_per_s: l.calls_per_s / base.calls_per_s,
  p50: l.p50_ms / base.p50_ms,
  p99: l.p99_ms / base.p99_ms,
}));
const result = {
  date: new Date().toISOString(),
  model: bench.name,
  workload: work.label,
  provider: bench.loaded.provider,
  threads: THREADS ?? "physical cores",
  session_worker: sessionWorker,
  seconds_per_level: SECONDS,
  levels,
  ratios_vs: `${base.agents} agent${base.agents === 1 ? "" : "s"}`,
  ratios,
  load_average: { before: loadBefore, after: loadavg()[0] },
  note: "loopback only; one process; each agent a closed loop; the machine is shared, so figures vary with its load",
};
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
console.log(`bench:scaling — ${bench.name}, ${work.label}, ${SECONDS} s per level`);
console.table(
  levels.map((l, i) => ({
    agents: l.agents,
    "calls/s": l.calls_per_s.toFixed(1),
    "Hz/agent": l.hz_per_agent.toFixed(1),
    "p50 ms": l.p50_ms.toFixed(1),
    "p99 ms": l.p99_ms.toFixed(1),
    "steps/pass": l.steps_per_pass.toFixed(2),
    failed: l.failed,
    "calls/s ÷ 1": ratios[i]!.calls_per_s.toFixed(2),
    "p50 ÷ 1": ratios[i]!.p50.toFixed(2),
    "p99 ÷ 1": ratios[i]!.p99.toFixed(2),
  })),
);
console.log(`wrote ${outFile}`);
