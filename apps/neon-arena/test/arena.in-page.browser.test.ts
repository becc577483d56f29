/**
 * The arena with `?engine=in-page` in chromium: no rtool-server process at all (the app serves
 * only the page, the worker, rt-tiny's files and onnxruntime-web's WASM). rt-tiny loads in a Web
 * Worker; a typed order reaches the squad and the enemy ships fly on the model's calls. Checks
 * behaviour only; the load time and per-agent rates it prints are measured by
 * `bun run bench:in-page`, which writes them to a report. Skips where chromium is absent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { formatCall } from "../src/client/call-log";
import { startArenaApp } from "../src/index";
import {
  type ArenaBrowser,
  hasChromium,
  type InPageArena,
  inPageLoad,
  openArena,
  openInPageArena,
  total,
  wasmThreadWorkers,
} from "./browser-harness";

if (!hasChromium) console.warn("SKIP in-page arena test: no chromium at /usr/bin/chromium");

let arena: InPageArena;
let browser: ArenaBrowser;

describe.skipIf(!hasChromium)("Neon Arena in chromium with rt-tiny in the page (no server)", () => {
  beforeAll(async () => {
    arena = await openInPageArena();
    browser = arena.browser;
    await inPageLoad(browser.page);
  }, 400_000);

  afterAll(async () => {
    await arena?.close();
  }, 60_000);

  test("the model loads in the page", async () => {
    const inPage = await browser.page.evaluate(() => window.rtoolArena.inPage);
    expect(inPage?.error).toBeNull();
    console.log(`in-page rt-tiny load: ${JSON.stringify(inPage?.timings)}`);
    expect(inPage?.timings?.totalMs).toBeGreaterThan(0);
    // a fresh profile has no cached graph: this load built it
    expect(inPage?.timings?.graphFromCache).toBe(false);
  });

  test("the page is cross-origin isolated and the worker runs the WASM threads it asked for", async () => {
    const { page } = browser;
    const inPage = await page.evaluate(() => window.rtoolArena.inPage);
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const pool = wasmThreadWorkers(page);
    console.log(
      `in-page WASM threads: ${JSON.stringify(inPage?.threads)} (${cores} cores, ${pool} thread workers)`,
    );
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(inPage?.crossOriginIsolated).toBe(true);
    expect(inPage?.threads).toEqual({
      requested: Math.min(4, cores),
      numThreads: Math.min(4, cores),
      crossOriginIsolated: true,
      note: null,
    });
    // the threads exist: onnxruntime-web started its thread pool's workers
    if (Math.min(4, cores) > 1) expect(pool).toBeGreaterThan(0);
  });

  test('"Amiya, use your skill now" comes back as use_skill(Amiya) and fires it', async () => {
    const { page } = browser;
    await page.fill('[data-testid="command"]', "Amiya, use your skill now");
    await page.press('[data-testid="command"]', "Enter");
    await browser.waitForState("s.lastCommand !== null", 120_000);
    const { lastCommand, game } = await browser.state();
    console.log(
      `in-page: "Amiya, use your skill now" -> ${formatCall(lastCommand!.function, lastCommand!.args)} ` +
        `(${lastCommand!.accepted ? "applied" : `refused: ${lastCommand!.reason}`})`,
    );
    expect(lastCommand!.function).toBe("use_skill");
    expect(lastCommand!.args.unit_id).toBe("Amiya");
    expect(lastCommand!.accepted).toBe(true);
    expect((game!.skillsFired as Array<{ unit: string }>).map((s) => s.unit)).toContain("Amiya");
  }, 200_000);

  test("the enemy ships fly on the model's calls", async () => {
    const start = await browser.state();
    await browser.page.waitForTimeout(6000);
    const end = await browser.state();
    const moves = total(end.game!.modelMoves) - total(start.game!.modelMoves);
    const shots = total(end.game!.modelShots) - total(start.game!.modelShots);
    const hz = Object.fromEntries(
      Object.entries(end.agents).map(([n, a]) => [n, Number(a.achievedHz.toFixed(1))]),
    );
    console.log(`in-page ships over 6 s: ${moves} moves, ${shots} shots; achieved Hz ${JSON.stringify(hz)}`);
    expect(moves).toBeGreaterThan(0);
    for (const call of end.calls.filter((c) => c.agent.startsWith("enemy-")))
      expect(["move", "fire"]).toContain(call.function!);
    expect(end.status).toBe("online");
    expect(arena.rtoolRequests).toEqual([]);
    expect(browser.errors).toEqual([]);
  }, 60_000);
});

describe.skipIf(!hasChromium)("rt-tiny in a page that is not cross-origin isolated", () => {
  test("loads on one WASM thread and says why", async () => {
    const plain = await startArenaApp({ port: 0, isolate: false });
    const page = await openArena(`${plain.url}?engine=in-page`);
    try {
      const inPage = await inPageLoad(page.page);
      console.log(`in-page without COOP/COEP: ${JSON.stringify(inPage.threads)}`);
      expect(inPage.error).toBeNull();
      expect(await page.page.evaluate(() => crossOriginIsolated)).toBe(false);
      expect(inPage.threads).toMatchObject({ numThreads: 1, crossOriginIsolated: false });
      const cores = await page.page.evaluate(() => navigator.hardwareConcurrency);
      if (Math.min(4, cores) > 1) expect(inPage.threads?.note).toContain("not cross-origin isolated");
      expect(wasmThreadWorkers(page.page)).toBe(0);
    } finally {
      await page.close();
      await plain.stop();
    }
  }, 400_000);
});

describe.skipIf(!hasChromium)("two copies of rt-tiny in the page (?workers=2)", () => {
  test("each copy loads in a worker of its own, on its share of the cores, and the ships fly", async () => {
    const app = await startArenaApp({ port: 0 });
    const page = await openArena(`${app.url}?engine=in-page&workers=2`);
    try {
      const inPage = await inPageLoad(page.page);
      const cores = await page.page.evaluate(() => navigator.hardwareConcurrency);
      console.log(
        `in-page, two copies: ${JSON.stringify(inPage.threads)} each, load ${inPage.timings?.totalMs} ms`,
      );
      expect(inPage.error).toBeNull();
      expect(inPage.workers).toBe(2);
      expect(inPage.threads?.numThreads).toBe(Math.max(1, Math.floor(cores / 2)));
      expect(page.page.workers().filter((w) => w.url().endsWith("/in-page-worker.js"))).toHaveLength(2);
      await page.waitForState("s.calls.some((c) => c.agent.startsWith('enemy-'))", 120_000);
      const start = await page.state();
      await page.page.waitForTimeout(4000);
      const end = await page.state();
      expect(total(end.game!.modelMoves) + total(end.game!.modelShots)).toBeGreaterThan(
        total(start.game!.modelMoves) + total(start.game!.modelShots),
      );
      expect(page.errors).toEqual([]);
    } finally {
      await page.close();
      await app.stop();
    }
  }, 400_000);
});
