/**
 * The whole stack in a real browser: chromium → the app → rtool-server (started through its bin)
 * → rt-tiny, the embedded model (or RTOOL_ARENA_MODEL, a model directory). Checks what holds
 * whatever the model's accuracy (a typed order comes back as a validated squad call with its
 * heads in the HUD, the enemy ships' loops run and their calls are applied or refused by the
 * arena rules, the paddle and the bird are driven by model calls) and prints what the model
 * chose, its latency and achieved rates. For the committed rt-tiny it also checks what that model
 * does (measured): Amiya's skill fires, the ships both move and shoot, the paddle follows the
 * ball closer than a still paddle would. Screenshots: .cache/screens/rt-tiny-*.png (bench/results/screens with RTOOL_UPDATE_SCREENS=1).
 * Skips where chromium or the model is absent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { formatCall } from "../src/client/call-log";
import { type ArenaApp, startArenaApp } from "../src/index";
import { type RtoolProcess, startRtoolServer } from "../src/server/rtool-process";
import { type ArenaBrowser, hasChromium, openArena, total } from "./browser-harness";

const MODEL = process.env.RTOOL_ARENA_MODEL ?? "rt-tiny";
const MODEL_DIR =
  MODEL === "rt-tiny" ? join(import.meta.dir, "..", "..", "..", "packages", "model-rt-tiny", "model") : MODEL;
const hasModel = existsSync(join(MODEL_DIR, "config.json"));
/** The committed model, whose behaviour here is known; another model gets only the checks any model must pass. */
const COMMITTED_MODEL = MODEL === "rt-tiny";
if (hasChromium && !hasModel) console.warn(`SKIP arena model test: no model at ${MODEL_DIR}`);

const SQUAD_TOOLS = ["move", "use_skill", "retreat", "set_stance", "retreat_all", "pass"];

let rtool: RtoolProcess;
let app: ArenaApp;
let browser: ArenaBrowser;

describe.skipIf(!hasChromium || !hasModel)(`Neon Arena in chromium with ${MODEL}`, () => {
  beforeAll(async () => {
    rtool = await startRtoolServer({ model: MODEL, port: 0 });
    await rtool.ready(300_000);
    app = await startArenaApp({ rtoolUrl: rtool.url, port: 0 });
    browser = await openArena(app.url);
  }, 700_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await rtool?.stop();
  }, 60_000);

  test("a typed order comes back as a validated squad call, shown with its heads in the HUD", async () => {
    const { page } = browser;
    await page.fill('[data-testid="command"]', "Amiya use your skill");
    await page.press('[data-testid="command"]', "Enter");
    await browser.waitForState("s.lastCommand !== null", 120_000);
    const { lastCommand, game } = await browser.state();
    console.log(
      `${MODEL}: "Amiya use your skill" -> ${formatCall(lastCommand!.function, lastCommand!.args)} ` +
        `(${lastCommand!.accepted ? "applied" : `refused: ${lastCommand!.reason}`}, ${lastCommand!.latencyMs?.toFixed(0) ?? "?"} ms)`,
    );
    expect(SQUAD_TOOLS).toContain(lastCommand!.function!);
    expect(lastCommand!.heads.function).toBe(lastCommand!.function!);
    const hud = await page.textContent('[data-testid="last-call"]');
    expect(hud).toContain(`<function> ${lastCommand!.function}`);
    const fired = (game!.skillsFired as Array<{ unit: string }>).map((s) => s.unit);
    const amiyaFired =
      lastCommand!.accepted && lastCommand!.function === "use_skill" && lastCommand!.args.unit_id === "Amiya";
    if (COMMITTED_MODEL) expect(amiyaFired).toBe(true);
    // When the model names Amiya's skill, the world must have fired it.
    if (amiyaFired) expect(fired).toContain("Amiya");
    await browser.screenshot("rt-tiny-arena-command.png");
  }, 300_000);

  test("the enemy ships' loops run on the model, and the arena applies or refuses each call", async () => {
    const start = await browser.state();
    await browser.page.waitForTimeout(6000);
    const end = await browser.state();
    const shipCalls = end.calls.filter((c) => c.agent.startsWith("enemy-"));
    const moves = total(end.game!.modelMoves) - total(start.game!.modelMoves);
    const shots = total(end.game!.modelShots) - total(start.game!.modelShots);
    const refused = shipCalls.filter((c) => !c.accepted);
    const latencies = shipCalls.map((c) => c.latencyMs).filter((ms): ms is number => ms !== null);
    console.log(
      `${MODEL} ships over 6 s: ${moves} moves, ${shots} shots applied, ${refused.length} refused ` +
        `(${[...new Set(refused.map((c) => c.reason?.split(":")[0]))].join(", ")}); achieved Hz ` +
        `${JSON.stringify(Object.fromEntries(Object.entries(end.agents).map(([n, a]) => [n, Number(a.achievedHz.toFixed(1))])))}; ` +
        `median latency ${latencies.sort((a, b) => a - b)[Math.floor(latencies.length / 2)]?.toFixed(0) ?? "?"} ms`,
    );
    expect(moves + shots).toBeGreaterThan(0);
    if (COMMITTED_MODEL) {
      expect(moves).toBeGreaterThan(0);
      expect(shots).toBeGreaterThan(0);
    }
    for (const call of shipCalls) {
      expect(["move", "fire"]).toContain(call.function!);
      expect(["up", "down", "left", "right"]).toContain(call.args.direction as string);
    }
    await browser.screenshot("rt-tiny-arena-ships.png");
  }, 300_000);

  test("the model drives the Pong paddle", async () => {
    await browser.page.click('[data-testid="scene-pong"]');
    await browser.waitForState(
      's.scene === "pong" && Object.values(s.game.modelCalls).reduce((a, b) => a + b, 0) >= 5',
      120_000,
    );
    let tracked = 0;
    let still = 0;
    for (let i = 0; i < 25; i++) {
      await browser.page.waitForTimeout(150);
      const game = (await browser.state()).game as unknown as {
        ball: { y: number };
        paddles: { right: { y: number } };
        height: number;
      };
      tracked += Math.abs(game.paddles.right.y - game.ball.y);
      still += Math.abs(game.height / 2 - game.ball.y);
    }
    const end = await browser.state();
    const pong = end.game as unknown as { modelCalls: Record<string, number>; towardBall: number };
    const calls = total(pong.modelCalls);
    console.log(
      `${MODEL} pong: ${calls} paddle calls ${JSON.stringify(pong.modelCalls)}, ${pong.towardBall} toward the ball; ` +
        `mean |paddle-ball| ${(tracked / 25).toFixed(0)} px vs ${(still / 25).toFixed(0)} px for a still paddle; ` +
        `achieved ${end.agents.paddle?.achievedHz.toFixed(1)} Hz`,
    );
    expect(calls).toBeGreaterThanOrEqual(5);
    if (COMMITTED_MODEL) expect(tracked).toBeLessThan(still);
    for (const call of end.calls.filter((c) => c.agent === "paddle"))
      expect(call.function).toBe("move_paddle");
    await browser.screenshot("rt-tiny-pong.png");
  }, 300_000);

  test("a typed order to the bird comes back as flap or wait", async () => {
    await browser.page.click('[data-testid="scene-flappy"]');
    await browser.waitForState('s.scene === "flappy"', 120_000);
    await browser.page.fill('[data-testid="command"]', "tap the screen");
    await browser.page.press('[data-testid="command"]', "Enter");
    await browser.waitForState("s.lastCommand !== null", 120_000);
    const { lastCommand } = await browser.state();
    console.log(`${MODEL}: "tap the screen" -> ${formatCall(lastCommand!.function, lastCommand!.args)}`);
    expect(["flap", "wait"]).toContain(lastCommand!.function!);
    await browser.screenshot("rt-tiny-flappy.png");
    expect(browser.errors).toEqual([]);
  }, 300_000);
});
