/**
 * The app and plugin in a real browser against the scripted transport double (fixed, sensible
 * answers), so every game path is checked exactly whatever a model would answer: a typed order
 * fires Amiya's skill (state and HUD), enemy ships move and fire, the paddle tracks the ball, a
 * typed "tap" flaps, and a dead server shows the offline status with back-off. The same app
 * against the real model is arena.rt-tiny.browser.test.ts. Skips where chromium is absent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type ArenaApp, startArenaApp } from "../src/index";
import {
  type ArenaBrowser,
  CHROMIUM,
  closedPortUrl,
  hasChromium,
  openArena,
  SCREENS,
  total,
} from "./browser-harness";
import { startScriptedRtoolServer } from "./scripted-rtool-server";

if (!hasChromium)
  console.warn(`SKIP arena browser test: ${CHROMIUM} not found (apt-get install -y chromium)`);

let rtool: ReturnType<typeof startScriptedRtoolServer>;
let app: ArenaApp;
let browser: ArenaBrowser;

describe.skipIf(!hasChromium)("Neon Arena in chromium, scripted server", () => {
  beforeAll(async () => {
    rtool = startScriptedRtoolServer();
    app = await startArenaApp({ rtoolUrl: rtool.url, port: 0 });
    browser = await openArena(app.url);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    rtool?.stop();
  }, 180_000);

  test("a typed order fires Amiya's skill, shown in state() and in the HUD", async () => {
    const { page } = browser;
    const before = await browser.state();
    const squad = before.game!.squad as { operators: Array<{ name: string; skillGauge: number }> };
    expect(squad.operators.find((op) => op.name === "Amiya")!.skillGauge).toBe(100);
    await page.fill('[data-testid="command"]', "Amiya use your skill");
    await page.press('[data-testid="command"]', "Enter");
    await browser.waitForState('s.game.skillsFired.some((f) => f.unit === "Amiya")', 180_000);
    const after = await browser.state();
    const operators = (after.game!.squad as { operators: Array<{ name: string; skillActive: unknown }> })
      .operators;
    expect(operators.find((op) => op.name === "Amiya")!.skillActive).not.toBeNull();
    expect(after.lastCommand).toMatchObject({
      function: "use_skill",
      args: { unit_id: "Amiya" },
      accepted: true,
    });
    const hud = await page.textContent('[data-testid="last-call"]');
    expect(hud).toContain("use_skill(Amiya");
    expect(hud).toContain("<function> use_skill");
    await browser.screenshot("scripted-arena-skill.png");
  }, 400_000);

  test("enemy ships driven through the plugin move and fire", async () => {
    const start = await browser.state();
    await browser.page.waitForTimeout(4000);
    await browser.waitForState(
      `Object.values(s.game.modelShots).reduce((a, b) => a + b, 0) > ${total(start.game!.modelShots)}`,
      180_000,
    );
    const end = await browser.state();
    expect(total(end.game!.modelMoves) - total(start.game!.modelMoves)).toBeGreaterThan(0);
    const shipCalls = end.calls.filter((c) => c.agent.startsWith("enemy-") && c.accepted);
    expect(new Set(shipCalls.map((c) => c.function))).toEqual(new Set(["move", "fire"]));
    console.log(`scripted arena: achieved Hz ${JSON.stringify(end.agents)}`);
  }, 400_000);

  test("in Pong the paddle tracks the ball", async () => {
    await browser.page.click('[data-testid="scene-pong"]');
    await browser.waitForState(
      's.scene === "pong" && Object.values(s.game.modelCalls).reduce((a, b) => a + b, 0) >= 5',
      180_000,
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
    const end = (await browser.state()).game as unknown as {
      modelCalls: Record<string, number>;
      towardBall: number;
    };
    expect(end.towardBall / total(end.modelCalls)).toBeGreaterThan(0.5);
    expect(tracked).toBeLessThan(still);
  }, 400_000);

  test("in Flappy Bird a typed 'tap' flaps", async () => {
    await browser.page.click('[data-testid="scene-flappy"]');
    await browser.waitForState('s.scene === "flappy"', 180_000);
    await browser.page.fill('[data-testid="command"]', "tap the screen");
    await browser.page.press('[data-testid="command"]', "Enter");
    await browser.waitForState('s.lastCommand !== null && s.lastCommand.function === "flap"', 180_000);
    expect(await browser.page.textContent('[data-testid="last-call"]')).toContain("flap()");
    expect(browser.errors).toEqual([]);
  }, 400_000);

  test("with its server down, a scene shows the offline status and backs off instead of polling at 16 Hz", async () => {
    const deadUrl = closedPortUrl();
    const down = await browser.context.newPage();
    let attempts = 0;
    down.on("request", (request) => {
      if (request.url().startsWith(deadUrl)) attempts += 1;
    });
    await down.goto(`${app.url}?scene=pong&server=${encodeURIComponent(deadUrl)}`);
    await down.waitForFunction(() => window.rtoolArena?.state().status === "offline", null, {
      timeout: 180_000,
    });
    attempts = 0;
    await down.waitForTimeout(3000);
    expect(await down.getAttribute('[data-testid="server-status"]', "class")).toContain("offline");
    expect(await down.textContent('[data-testid="server-status"]')).toContain("retry in");
    // Once offline, retries come 500, 1000, 2000 ms apart, one at a time: a few in 3 s where a
    // 16 Hz loop would make ~50.
    expect(attempts).toBeGreaterThan(0);
    expect(attempts).toBeLessThanOrEqual(4);
    await down.screenshot({ path: join(SCREENS, "server-down.png") });
    await down.close();
  }, 300_000);
});
