/**
 * The app in a real browser: Debian's chromium, headless, driven by playwright-core. Loads Neon
 * Arena, gives the squad a typed order and checks the skill fired (state and HUD), lets the
 * model-driven enemy ships run and checks their moves and shots, then switches to Pong and checks
 * the model paddle tracks the ball, and to Flappy Bird for a typed flap. Screenshots go to
 * bench/results/screens/. Skips (with a message) where /usr/bin/chromium is absent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import type { ArenaSnapshot } from "../src/client/arena-hub";
import { type ArenaApp, startArenaApp } from "../src/index";
import { RtoolProcessError, startRtoolServer } from "../src/server/rtool-process";
import { startScriptedRtoolServer } from "./scripted-rtool-server";

/** A loopback URL where nothing listens (a port that was just free), so connections are refused at once. */
function closedPortUrl(): string {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const url = `http://127.0.0.1:${probe.port}`;
  probe.stop(true);
  return url;
}
const deadUrl = closedPortUrl();

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
/** The model to serve: the embedded rt-tiny unless RTOOL_ARENA_MODEL names another directory. */
const MODEL = process.env.RTOOL_ARENA_MODEL ?? "rt-tiny";
const SCREENS = join(import.meta.dir, "..", "..", "..", "bench", "results", "screens");

if (!hasChromium) {
  console.warn(
    `SKIP arena browser test: ${CHROMIUM} not found (install it with: apt-get install -y chromium)`,
  );
}

let rtool: { url: string; stop: () => void | Promise<void>; label: string };
let app: ArenaApp;
let context: BrowserContext;
let page: Page;
let userDataDir: string;
const consoleErrors: string[] = [];

async function state(): Promise<ArenaSnapshot> {
  return page.evaluate(() => window.rtoolArena.state());
}

async function waitForState(predicate: string, timeoutMs: number): Promise<void> {
  // The predicate is evaluated in the page against `s`, the current snapshot.
  await page.waitForFunction(
    `(() => { const s = window.rtoolArena.state(); return ${predicate}; })()`,
    null,
    {
      timeout: timeoutMs,
      polling: 100,
    },
  );
}

/**
 * rtool-server with the embedded model, rt-tiny. Until the model package is in the tree the
 * server cannot load it; the test then says so and runs against the scripted transport double.
 */
async function startModelServer(): Promise<{ url: string; stop: () => void | Promise<void>; label: string }> {
  let server: Awaited<ReturnType<typeof startRtoolServer>> | null = null;
  try {
    server = await startRtoolServer({ model: MODEL, port: 0 });
    await server.ready(240_000);
    const started = server;
    return { url: started.url, stop: () => started.stop(), label: `rtool-server with ${MODEL}` };
  } catch (error) {
    await server?.stop();
    if (!(error instanceof RtoolProcessError)) throw error;
    console.warn(
      `arena test: rt-tiny is not available (${error.message.split("\n")[0]}); using the scripted double`,
    );
    const scripted = startScriptedRtoolServer();
    return { url: scripted.url, stop: scripted.stop, label: "scripted transport double" };
  }
}

describe.skipIf(!hasChromium)("Neon Arena in chromium", () => {
  beforeAll(async () => {
    rtool = await startModelServer();
    app = await startArenaApp({ rtoolUrl: rtool.url, port: 0 });
    userDataDir = mkdtempSync(join(tmpdir(), "neon-arena-chromium-"));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
      viewport: { width: 1600, height: 760 },
    });
    // A loaded machine (CI runs everything on two cores) can take a while to load a 3 MB bundle.
    context.setDefaultTimeout(120_000);
    page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    mkdirSync(SCREENS, { recursive: true });
    console.log(`arena test: app ${app.url}, rtool ${rtool.label} at ${rtool.url}`);
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await app?.stop();
    await rtool?.stop();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  }, 60_000);

  test("a typed order fires Amiya's skill, shown in state() and in the HUD", async () => {
    await page.goto(app.url);
    await page.waitForFunction(() => window.rtoolArena?.state().scene === "arena", null, { timeout: 90_000 });
    const before = await state();
    const amiya = (
      before.game!.squad as { operators: Array<{ name: string; skillGauge: number }> }
    ).operators.find((op) => op.name === "Amiya")!;
    expect(amiya.skillGauge).toBe(100);
    await page.fill('[data-testid="command"]', "Amiya use your skill");
    await page.press('[data-testid="command"]', "Enter");
    await waitForState('s.game.skillsFired.some((f) => f.unit === "Amiya")', 60_000);
    const after = await state();
    const squad = after.game!.squad as { operators: Array<{ name: string; skillActive: unknown }> };
    expect(squad.operators.find((op) => op.name === "Amiya")!.skillActive).not.toBeNull();
    expect(after.lastCommand).toMatchObject({
      function: "use_skill",
      args: { unit_id: "Amiya" },
      accepted: true,
    });
    const hud = await page.textContent('[data-testid="last-call"]');
    expect(hud).toContain("use_skill(Amiya");
    expect(hud).toContain("<function> use_skill");
    await page.screenshot({ path: join(SCREENS, "arena-skill.png") });
  }, 240_000);

  test("model-driven enemy ships move and fire for a few seconds", async () => {
    const start = await state();
    const count = (s: ArenaSnapshot, key: "modelMoves" | "modelShots") =>
      Object.values(s.game![key] as Record<string, number>).reduce((a, b) => a + b, 0);
    await page.waitForTimeout(5000);
    await waitForState(
      `Object.values(s.game.modelShots).reduce((a, b) => a + b, 0) > ${count(start, "modelShots")}`,
      60_000,
    );
    const end = await state();
    const moves = count(end, "modelMoves") - count(start, "modelMoves");
    const shots = count(end, "modelShots") - count(start, "modelShots");
    const shipCalls = end.calls.filter((c) => c.agent.startsWith("enemy-") && c.accepted);
    console.log(
      `arena: ${moves} model moves, ${shots} model shots; achieved Hz ${JSON.stringify(
        Object.fromEntries(
          Object.entries(end.agents).map(([name, a]) => [name, Number(a.achievedHz.toFixed(1))]),
        ),
      )}`,
    );
    expect(moves).toBeGreaterThan(0);
    expect(shots).toBeGreaterThan(0);
    expect(new Set(shipCalls.map((c) => c.function))).toEqual(new Set(["move", "fire"]));
    await page.screenshot({ path: join(SCREENS, "arena-ships.png") });
  }, 240_000);

  test("in Pong the model paddle tracks the ball", async () => {
    await page.click('[data-testid="scene-pong"]');
    await page.waitForFunction(() => window.rtoolArena.state().scene === "pong", null, { timeout: 90_000 });
    await waitForState("Object.values(s.game.modelCalls).reduce((a, b) => a + b, 0) >= 5", 60_000);
    let tracked = 0;
    let still = 0;
    for (let i = 0; i < 30; i++) {
      await page.waitForTimeout(150);
      const game = (await state()).game as unknown as {
        ball: { y: number };
        paddles: { right: { y: number } };
        height: number;
      };
      tracked += Math.abs(game.paddles.right.y - game.ball.y);
      still += Math.abs(game.height / 2 - game.ball.y);
    }
    const end = (await state()).game as unknown as { modelCalls: Record<string, number>; towardBall: number };
    const calls = Object.values(end.modelCalls).reduce((a, b) => a + b, 0);
    console.log(
      `pong: ${calls} paddle calls, ${end.towardBall} toward the ball; mean |paddle-ball| ${(tracked / 30).toFixed(0)} px vs ${(still / 30).toFixed(0)} px for a still paddle`,
    );
    expect(end.towardBall / calls).toBeGreaterThan(0.5);
    expect(tracked).toBeLessThan(still);
    await page.screenshot({ path: join(SCREENS, "pong.png") });
  }, 240_000);

  test("in Flappy Bird a typed 'tap' flaps", async () => {
    await page.click('[data-testid="scene-flappy"]');
    await page.waitForFunction(() => window.rtoolArena.state().scene === "flappy", null, { timeout: 90_000 });
    await page.fill('[data-testid="command"]', "tap the screen");
    await page.press('[data-testid="command"]', "Enter");
    await waitForState('s.lastCommand !== null && s.lastCommand.function === "flap"', 60_000);
    expect(await page.textContent('[data-testid="last-call"]')).toContain("flap()");
    await page.screenshot({ path: join(SCREENS, "flappy.png") });
    expect(consoleErrors).toEqual([]);
  }, 240_000);

  test("with its server down, a scene shows the offline status and backs off instead of polling at 16 Hz", async () => {
    const down = await context.newPage();
    let attempts = 0;
    down.on("request", (request) => {
      if (request.url().startsWith(deadUrl)) attempts += 1;
    });
    await down.goto(`${app.url}?scene=pong&server=${encodeURIComponent(deadUrl)}`);
    await down.waitForFunction(() => window.rtoolArena?.state().status === "offline", null, {
      timeout: 90_000,
    });
    attempts = 0;
    await down.waitForTimeout(3000);
    expect(await down.getAttribute('[data-testid="server-status"]', "class")).toContain("offline");
    expect(await down.textContent('[data-testid="server-status"]')).toContain("retry in");
    // Once offline, retries come 500, 1000, 2000 ms apart (and one at a time): at most a few in 3 s
    // where a 16 Hz loop would make ~50.
    expect(attempts).toBeGreaterThan(0);
    expect(attempts).toBeLessThanOrEqual(4);
    await down.screenshot({ path: join(SCREENS, "server-down.png") });
    await down.close();
  }, 180_000);
});
