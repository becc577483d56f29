/**
 * `bun run bench:in-page`: Neon Arena with rt-tiny in the page (onnxruntime-web WASM in a Web
 * Worker, no rtool-server) in headless chromium, on a cross-origin isolated page (WASM threads).
 * Measures the model's load cold (fresh profile: files fetched, graph built) and after a reload
 * (files and the built graph from the Cache API), then plays `--seconds N` (default 10) of the
 * arena and reads each agent's achieved rate and the ships' call latency. `--threads N` sets the
 * worker's WASM threads (default the engine's: min(4, cores)), `--lanes N` how many calls it
 * decodes at once in merged passes (default the engine's: 4), `--answers N` how many answers of
 * repeated prompts it keeps (default the engine's: 256; 0: every call decodes, the baseline),
 * `--workers N` how many copies of the model run, each in its own worker (default 1; each gets
 * its share of the cores as WASM threads unless `--threads` says).
 * Writes bench/results/in-page.json
 * (`--out FILE` elsewhere). A benchmark, not a test: no thresholds.
 *
 * A ship's rate is counted over the time it is flying: a destroyed ship's agent rests until the
 * next round (the arena stops it), so its rate at the end of play, or calls over the whole play,
 * measure the player pilot's aim rather than the engine. The page is sampled every 250 ms; an
 * interval counts for a ship when it was alive at both ends.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
// for the `window.rtoolArena` the page declares
import type {} from "../apps/neon-arena/src/client/main";
import { startArenaApp } from "../apps/neon-arena/src/index";
import {
  hasChromium,
  inPageLoad,
  openArena,
  wasmThreadWorkers,
} from "../apps/neon-arena/test/browser-harness";
import { refuseUnknownOptions } from "../tools/train/cli-options";
import { argValue, quantile } from "./calls";

if (!hasChromium) throw new Error("bench:in-page needs chromium at /usr/bin/chromium");
refuseUnknownOptions(["seconds", "threads", "lanes", "answers", "workers", "out"]);
const SECONDS = Number(argValue("--seconds") ?? 10);
const THREADS = argValue("--threads");
const LANES = argValue("--lanes");
const ANSWERS = argValue("--answers");
const WORKERS = argValue("--workers");
const OUT = argValue("--out") ?? join(import.meta.dir, "results", "in-page.json");
const loadBefore = loadavg()[0]!;
const app = await startArenaApp({ port: 0 });
const query = `engine=in-page${THREADS ? `&threads=${THREADS}` : ""}${LANES ? `&lanes=${LANES}` : ""}${ANSWERS !== undefined ? `&answers=${ANSWERS}` : ""}${WORKERS ? `&workers=${WORKERS}` : ""}`;
const browser = await openArena(`${app.url}?${query}`);
const { page } = browser;

async function loadTimings() {
  const inPage = await inPageLoad(page);
  if (inPage.error) throw new Error(inPage.error);
  return inPage;
}

try {
  const cold = await loadTimings();
  await page.reload();
  const cached = await loadTimings();
  // the first calls size the session's buffers and cache the system turns
  await page.waitForFunction(() => window.rtoolArena.state().calls.length >= 4, null, { timeout: 120_000 });
  const flying = new Map<string, { seconds: number; calls: number }>();
  let previous = await browser.state();
  let previousAt = performance.now();
  const aliveIn = (state: typeof previous) =>
    new Set(
      ((state.game?.ships as { ships?: { id: string; alive: boolean }[] } | undefined)?.ships ?? [])
        .filter((ship) => ship.alive)
        .map((ship) => ship.id),
    );
  const playEnds = previousAt + SECONDS * 1000;
  while (performance.now() < playEnds) {
    await page.waitForTimeout(250);
    const now = await browser.state();
    const at = performance.now();
    const before = aliveIn(previous);
    const after = aliveIn(now);
    for (const [name, agent] of Object.entries(now.agents)) {
      if (!name.startsWith("enemy-") || !before.has(name) || !after.has(name)) continue;
      const row = flying.get(name) ?? { seconds: 0, calls: 0 };
      row.seconds += (at - previousAt) / 1000;
      // every reply the game ran counts, accepted or refused by the tool's schema
      const was = previous.agents[name];
      row.calls += agent.calls + agent.rejected - ((was?.calls ?? 0) + (was?.rejected ?? 0));
      flying.set(name, row);
    }
    previous = now;
    previousAt = at;
  }
  const end = previous;
  // the HUD's recent calls: the last seconds of play
  const shipCalls = end.calls.filter((call) => call.agent.startsWith("enemy-"));
  const shipMs = shipCalls.map((call) => call.latencyMs).filter((ms): ms is number => ms !== null);
  // where the worker spent the ships' calls (their replies' timings; answer-cache hits aside)
  const decoded = shipCalls.flatMap((call) =>
    call.timings && !call.timings.answer_cached ? [call.timings] : [],
  );
  const stage = (pick: (t: (typeof decoded)[number]) => number) => ({
    median: quantile(decoded.map(pick), 0.5),
    p90: quantile(decoded.map(pick), 0.9),
  });
  const report = {
    date: new Date().toISOString(),
    browser: `chromium headless (--disable-gpu), onnxruntime-web 1.30.0 WASM, ${cached.threads?.numThreads ?? "?"} thread(s) per worker, ${WORKERS ?? 1} Web Worker(s)`,
    // copies of the model, each in its own worker; a call goes to the copy that decoded the same
    // request last, else to the least busy
    workers: WORKERS ? Number(WORKERS) : 1,
    page_query: query,
    // calls the worker decodes at once, their forward passes merged
    lanes: LANES ? Number(LANES) : "default (4)",
    // answers of repeated prompts the worker keeps (a ship whose view did not change)
    answer_cache: ANSWERS !== undefined ? Number(ANSWERS) : "default (256)",
    cross_origin_isolated: cached.crossOriginIsolated,
    wasm_threads: cached.threads,
    // onnxruntime-web's thread pool workers seen in the page (numThreads - 1 when threads run)
    wasm_thread_workers: wasmThreadWorkers(page),
    machine: { cpus: cpus().length, load_avg_1m_before: loadBefore, load_avg_1m_after: loadavg()[0] },
    model: "rt-tiny",
    // cold: files fetched and the graph built; cached: files and the built graph from the Cache API
    load_ms: { cold: cold.timings, cached: cached.timings },
    played_s: SECONDS,
    target_hz: 16,
    agents: Object.fromEntries(
      Object.entries(end.agents).map(([name, agent]) => [
        name,
        {
          // calls a second while the ship flew (null: the squad, or a ship never seen alive)
          hz_while_flying: flying.has(name)
            ? Number((flying.get(name)!.calls / Math.max(1e-9, flying.get(name)!.seconds)).toFixed(2))
            : null,
          flying_s: flying.has(name) ? Number(flying.get(name)!.seconds.toFixed(1)) : null,
          achieved_hz_at_end: Number(agent.achievedHz.toFixed(2)),
          calls: agent.calls,
          rejected: agent.rejected,
        },
      ]),
    ),
    ship_latency_ms: {
      median: quantile(shipMs, 0.5),
      p90: quantile(shipMs, 0.9),
      samples: shipMs.length,
    },
    // the worker's side of the same calls: a call is its wait for a lane and for the pass in
    // progress, then its forward passes
    ship_worker_stages: {
      decoded_calls: decoded.length,
      answer_cached_calls: shipCalls.filter((call) => call.timings?.answer_cached).length,
      total_ms: stage((t) => t.total_ms),
      forward_ms: stage((t) => t.forward_ms),
      batch_wait_ms: stage((t) => t.batch_wait_ms),
      queue_ms: stage((t) => t.queue_ms),
      prefilled_tokens: stage((t) => t.prefilled_tokens),
      shared_steps: stage((t) => t.shared_steps),
    },
  };
  const out = OUT;
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await app.stop();
}
