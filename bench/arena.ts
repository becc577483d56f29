/**
 * `bun run bench:arena`: Neon Arena's agents, headless, against rtool-server for `--seconds N`
 * (default 60) after a 2 s warm-up, and what each achieved: replies per second against its
 * target, round trip p50/p99, and the per-stage split of the round trip from the server's
 * `timings` (call queue, caller lane, batcher, forward passes, HTTP). Prints a table and writes
 * bench/results/arena.json. A benchmark, not a test: no thresholds.
 *
 *   bun run bench:arena [--seconds 60] [--warmup 2] [--enemies 2] [--hz 16] [--squad-every 1]
 *                       [--model rt-tiny|DIR] [--server URL] [--direct] [--no-stream] [--session-worker]
 *                       [--compare-session-worker] [--lockstep TICKS] [--no-answer-cache]
 *                       [--merge-window MS] [--out FILE]
 *
 * rtool-server runs as a child process (as `bun run arena` starts it) unless `--server URL`.
 * Requests go through the arena app's `/rtool` forward, as the page's do, unless `--direct`.
 * `--enemies 3 --hz 30` is issue 32's target load (three model-driven ships plus the squad).
 * `--session-worker` starts the server with its forward passes in a worker thread;
 * `--compare-session-worker` measures without and with it, one after the other, and prints the
 * ratios (bench/results/arena-session-worker.json).
 *
 * `--lockstep TICKS` plays TICKS ship periods in lockstep instead (every reply of a tick awaited
 * before the field moves on, so each ship acts at exactly `--hz`) and reports what does not
 * depend on the machine's load: per call, prompt tokens, those reused from the prefix cache, those
 * prefilled, rows fed to forward passes, passes; and the server's passes per tick
 * (bench/results/arena-lockstep.json).
 *
 * `--no-answer-cache` starts the server with `--answer-cache 0` (every call decodes), the
 * baseline of the answer cache's effect. `--merge-window MS` starts it with `--merge-window MS`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { SHIP_RATE_HZ } from "../apps/neon-arena/src/arena-agents";
import {
  type ArenaReport,
  formatArenaTable,
  STAGE_NOTES,
} from "../apps/neon-arena/src/headless/arena-report";
import { runHeadlessArena } from "../apps/neon-arena/src/headless/headless-arena";
import { type LockstepArenaRun, runLockstepArena } from "../apps/neon-arena/src/headless/lockstep-arena";
import { startHealthProbe } from "../apps/neon-arena/src/headless/server-probes";
import { type ArenaApp, startArenaApp } from "../apps/neon-arena/src/index";
import { type RtoolProcess, startRtoolServer } from "../apps/neon-arena/src/server/rtool-process";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    seconds: { type: "string", default: "60" },
    warmup: { type: "string", default: "2" },
    enemies: { type: "string", default: "2" },
    hz: { type: "string", default: String(SHIP_RATE_HZ) },
    "squad-every": { type: "string", default: "1" },
    model: { type: "string", default: "rt-tiny" },
    server: { type: "string" },
    direct: { type: "boolean", default: false },
    "session-worker": { type: "boolean", default: false },
    "compare-session-worker": { type: "boolean", default: false },
    "no-stream": { type: "boolean", default: false },
    lockstep: { type: "string" },
    "no-answer-cache": { type: "boolean", default: false },
    "merge-window": { type: "string" },
    out: { type: "string" },
  },
});

const seconds = Number(values.seconds);
const warmupSeconds = Number(values.warmup);
const compare = values["compare-session-worker"];
const lockstepTicks = values.lockstep === undefined ? null : Number(values.lockstep);
const out =
  values.out ??
  join(
    import.meta.dir,
    "results",
    compare ? "arena-session-worker.json" : lockstepTicks !== null ? "arena-lockstep.json" : "arena.json",
  );

/** The server (unless `--server`) and the app's forward (unless `--direct`) for one run. */
interface Servers {
  /** rtool-server's own URL (probes). */
  serverUrl: string;
  /** Where the agents send: the app's `/rtool` forward or the server. */
  target: string;
  stop(): Promise<void>;
}

async function startServers(sessionWorker: boolean): Promise<Servers> {
  let rtool: RtoolProcess | null = null;
  let app: ArenaApp | null = null;
  const stop = async () => {
    await app?.stop();
    await rtool?.stop();
  };
  try {
    let serverUrl = values.server;
    if (!serverUrl) {
      rtool = await startRtoolServer({
        model: values.model,
        port: 0,
        args: [
          ...(sessionWorker ? ["--session-worker"] : []),
          ...(values["no-answer-cache"] ? ["--answer-cache", "0"] : []),
          ...(values["merge-window"] ? ["--merge-window", values["merge-window"]] : []),
        ],
      });
      await rtool.ready(300_000);
      serverUrl = rtool.url;
    }
    let target = serverUrl;
    if (!values.direct) {
      app = await startArenaApp({ rtoolUrl: serverUrl, port: 0 });
      target = `${app.url}rtool`;
    }
    return { serverUrl, target, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** What a run measured against: server, model, agents and their rates (the report's `setup`). */
function setupOf(serverUrl: string) {
  return {
    server: values.server
      ? serverUrl
      : `rtool-server child process${values.direct ? "" : " behind the arena app's /rtool forward"}`,
    model: values.server ? "(running server)" : values.model,
    enemies: Number(values.enemies),
    shipRateHz: Number(values.hz),
    squadEverySeconds: Number(values["squad-every"]),
    stream: !values["no-stream"],
    answerCache: !values["no-answer-cache"],
    mergeWindowMs: Number(values["merge-window"] ?? 0),
  };
}

/** One measured run: a server (unless `--server`), the app's forward (unless `--direct`), the agents. */
async function measure(sessionWorker: boolean): Promise<ArenaReport> {
  const loadBefore = loadavg()[0]!;
  const { serverUrl, target, stop } = await startServers(sessionWorker);
  try {
    console.log(
      `bench:arena: ${values.enemies} ships at ${values.hz} Hz + squad, ${warmupSeconds} s warm-up + ${seconds} s ` +
        `against ${target}${sessionWorker ? " (session in a worker thread)" : ""}`,
    );
    // The idle server's /health first, so the figure under load has something to stand against.
    const idleProbe = startHealthProbe(serverUrl, 50);
    await Bun.sleep(1000);
    const healthIdleMs = await idleProbe.stop();
    const run = await runHeadlessArena({
      serverUrl: target,
      seconds,
      warmupSeconds,
      enemies: Number(values.enemies),
      shipRateHz: Number(values.hz),
      squadEverySeconds: Number(values["squad-every"]),
      stream: !values["no-stream"],
      probeUrl: serverUrl,
    });
    const cores = cpus().length;
    return {
      date: new Date().toISOString(),
      setup: {
        ...setupOf(serverUrl),
        sessionWorker,
        seconds,
        warmupSeconds,
      },
      machine: {
        cpus: cores,
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadavg()[0]!,
        // Other work on the cores slows every stage: say so in the figures themselves.
        ...(loadBefore > cores * 0.5
          ? {
              note: `the machine was loaded (1-min load ${loadBefore.toFixed(1)} on ${cores} cores before the run)`,
            }
          : {}),
      },
      frameHz: run.frameHz,
      agents: run.agents,
      ...(run.server ? { server: { ...run.server, healthIdleMs } } : {}),
      stageNotes: STAGE_NOTES,
    };
  } finally {
    await stop();
  }
}

/** `--lockstep`: token and pass counts per call, the same on a loaded machine as on an idle one. */
async function measureLockstep(
  ticks: number,
): Promise<LockstepArenaRun & { date: string; setup: object; machine: object }> {
  const loadBefore = loadavg()[0]!;
  const { serverUrl, target, stop } = await startServers(values["session-worker"]);
  try {
    const setup = { ...setupOf(serverUrl), ticks };
    console.log(
      `bench:arena --lockstep: ${setup.enemies} ships, ${ticks} ticks of 1/${setup.shipRateHz} s + squad`,
    );
    const run = await runLockstepArena({
      serverUrl: target,
      ticks,
      enemies: setup.enemies,
      shipRateHz: setup.shipRateHz,
      squadEveryTicks: Math.round(setup.squadEverySeconds * setup.shipRateHz),
      stream: setup.stream,
      probeUrl: serverUrl,
    });
    // Token counts do not move with the load; passes per tick (what merged) do a little.
    const machine = { cpus: cpus().length, loadAverageBefore: loadBefore, loadAverageAfter: loadavg()[0]! };
    return { date: new Date().toISOString(), setup, machine, ...run };
  } finally {
    await stop();
  }
}

function printLockstep(run: LockstepArenaRun): void {
  const header = ["agent", "calls", "prompt", "reused", "prefilled", "fed", "passes", "shared", "answered"];
  const rows = [
    header,
    ...run.agents.map((a) => [
      a.agent,
      String(a.calls),
      ...[a.tokens.prompt, a.tokens.reused, a.tokens.prefilled, a.tokens.fed].map((t) => `${t.mean}`),
      String(a.passes.mean),
      String(a.sharedPasses),
      `${Math.round(a.answerCachedShare * 100)}%`,
    ]),
  ];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log(`\n${rows.map((r) => r.map((c, i) => c.padStart(widths[i]!)).join("  ")).join("\n")}`);
  console.log("(tokens and passes are means per call; answered: calls answered from the answer cache)");
  if (run.server) {
    console.log(
      `server: ${run.server.passes} forward passes for ${run.ticks} ticks (${run.server.passesPerTick} per tick), ` +
        `${run.server.stepsPerPass} steps per pass`,
    );
  }
}

function print(report: ArenaReport): void {
  console.log(`\n${formatArenaTable(report)}\n\n(ms are p50 unless marked; stages: ${out})`);
  if (report.frameHz !== undefined)
    console.log(`game loop: ${report.frameHz} frames/s (agents send at frames)`);
  if (report.server) {
    const { healthMs, healthIdleMs, prefixCache: cache } = report.server;
    console.log(
      `server: GET /health p50 ${healthMs.p50} ms, p99 ${healthMs.p99} ms while the arena ran ` +
        `(idle: p50 ${healthIdleMs?.p50 ?? "?"} ms; the difference is event-loop wait)` +
        (cache
          ? `; prefix cache ${cache.hits} hits, ${cache.misses} misses, ${cache.evictions} evictions, ${(cache.bytes / 2 ** 20).toFixed(0)} MiB held`
          : ""),
    );
  }
  if (report.machine.note) console.log(`note: ${report.machine.note}`);
}

mkdirSync(dirname(out), { recursive: true });
if (lockstepTicks !== null) {
  const run = await measureLockstep(lockstepTicks);
  writeFileSync(out, `${JSON.stringify(run, null, 2)}\n`);
  printLockstep(run);
  console.log(`(${out})`);
} else if (!compare) {
  const report = await measure(values["session-worker"]);
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  print(report);
} else {
  // One after the other on the same machine, so the ratios compare like with like.
  const mainThread = await measure(false);
  print(mainThread);
  const worker = await measure(true);
  print(worker);
  const ratios = mainThread.agents.map((m, i) => {
    const w = worker.agents[i]!;
    return {
      agent: m.agent,
      hz: ratio(w.achievedHz, m.achievedHz),
      p50: ratio(m.latencyMs.p50, w.latencyMs.p50),
      p99: ratio(m.latencyMs.p99, w.latencyMs.p99),
    };
  });
  const health = ratio(mainThread.server?.healthMs.p50, worker.server?.healthMs.p50);
  writeFileSync(out, `${JSON.stringify({ mainThread, worker, ratios, healthP50Ratio: health }, null, 2)}\n`);
  console.log(
    "\nworker vs main thread (Hz: worker / main; latency: main / worker; > 1 means the worker helps):",
  );
  for (const r of ratios) console.log(`  ${r.agent.padEnd(8)} Hz ${r.hz}x  p50 ${r.p50}x  p99 ${r.p99}x`);
  console.log(`  GET /health p50 ${health}x`);
}

/** a / b to two decimals; null where either is missing. */
function ratio(a: number | undefined, b: number | undefined): number | null {
  return a === undefined || b === undefined ? null : Math.round((a / b) * 100) / 100;
}
