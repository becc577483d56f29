/**
 * `bun run bench:in-page`: Neon Arena with rt-tiny in the page (onnxruntime-web WASM in a Web
 * Worker, no rtool-server) in headless chromium, on a cross-origin isolated page (WASM threads).
 * Measures the model's load cold (fresh profile: files fetched, graph built) and after a reload
 * (files and the built graph from the Cache API), then plays `--seconds N` (default 10) of the
 * arena and reads each agent's achieved rate and the ships' call latency. `--threads N` sets the
 * worker's WASM threads (default the engine's: min(4, cores)), `--lanes N` how many calls it
 * decodes at once in merged passes (default the engine's: 4). Writes bench/results/in-page.json
 * (`--out FILE` elsewhere). A benchmark, not a test: no thresholds.
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
import { argValue, quantile } from "./calls";

if (!hasChromium) throw new Error("bench:in-page needs chromium at /usr/bin/chromium");
const SECONDS = Number(argValue("--seconds") ?? 10);
const THREADS = argValue("--threads");
const LANES = argValue("--lanes");
const OUT = argValue("--out") ?? join(import.meta.dir, "results", "in-page.json");
const loadBefore = loadavg()[0]!;
const app = await startArenaApp({ port: 0 });
const query = `engine=in-page${THREADS ? `&threads=${THREADS}` : ""}${LANES ? `&lanes=${LANES}` : ""}`;
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
  await page.waitForTimeout(SECONDS * 1000);
  const end = await browser.state();
  // the HUD's recent calls: the last seconds of play
  const shipMs = end.calls
    .filter((call) => call.agent.startsWith("enemy-"))
    .map((call) => call.latencyMs)
    .filter((ms): ms is number => ms !== null);
  const report = {
    date: new Date().toISOString(),
    browser: `chromium headless (--disable-gpu), onnxruntime-web 1.30.0 WASM, ${cached.threads?.numThreads ?? "?"} thread(s), in a Web Worker`,
    page_query: query,
    // calls the worker decodes at once, their forward passes merged
    lanes: LANES ? Number(LANES) : "default (4)",
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
        { achieved_hz: Number(agent.achievedHz.toFixed(2)), calls: agent.calls, rejected: agent.rejected },
      ]),
    ),
    ship_latency_ms: {
      median: quantile(shipMs, 0.5),
      p90: quantile(shipMs, 0.9),
      samples: shipMs.length,
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
