/**
 * Pong and Flappy Bird with `?engine=in-page&scene=…` in chromium: rt-tiny in a Web Worker of the
 * page and no rtool-server process. Pong: the model's `move_paddle` calls reach the game and point
 * the paddle toward the ball. Flappy: a typed "tap" comes back as `flap` and the bird flaps. The
 * second page load reads the built graph from the browser's cache. Behaviour only (no rates):
 * each wait is bounded and the tests end by themselves. Skips where chromium is absent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { formatCall } from "../src/client/call-log";
import {
  type ArenaBrowser,
  hasChromium,
  type InPageArena,
  inPageLoad,
  openInPageArena,
  total,
} from "./browser-harness";

if (!hasChromium) console.warn("SKIP in-page Pong/Flappy test: no chromium at /usr/bin/chromium");

let arena: InPageArena;
let browser: ArenaBrowser;

/** Waits for the in-page model's load and returns it; fails on a load error. */
async function inPageLoaded() {
  const inPage = await inPageLoad(browser.page);
  expect(inPage.error).toBeNull();
  return inPage;
}

describe.skipIf(!hasChromium)("Pong and Flappy in chromium with rt-tiny in the page (no server)", () => {
  beforeAll(async () => {
    arena = await openInPageArena("scene=pong");
    browser = arena.browser;
  }, 400_000);

  afterAll(async () => {
    await arena?.close();
  }, 60_000);

  test("Pong: the model's move_paddle calls reach the game and point the paddle toward the ball", async () => {
    await inPageLoaded();
    await browser.waitForState(
      's.scene === "pong" && Object.values(s.game.modelCalls).reduce((a, b) => a + b, 0) >= 5',
      120_000,
    );
    const ys = new Set<number>();
    for (let i = 0; i < 20; i++) {
      await browser.page.waitForTimeout(150);
      const game = (await browser.state()).game as unknown as { paddles: { right: { y: number } } };
      ys.add(Math.round(game.paddles.right.y));
    }
    const end = await browser.state();
    const pong = end.game as unknown as { modelCalls: Record<string, number>; towardBall: number };
    console.log(
      `in-page pong: ${total(pong.modelCalls)} paddle calls ${JSON.stringify(pong.modelCalls)}, ` +
        `${pong.towardBall} toward the ball; ${ys.size} paddle positions over 3 s`,
    );
    expect(total(pong.modelCalls)).toBeGreaterThanOrEqual(5);
    expect(pong.towardBall).toBeGreaterThan(0);
    expect(ys.size).toBeGreaterThan(1);
    for (const call of end.calls.filter((c) => c.agent === "paddle"))
      expect(call.function).toBe("move_paddle");
    expect(end.status).toBe("online");
  }, 300_000);

  test('Flappy: a typed "tap" comes back as flap() and the bird flaps', async () => {
    await browser.page.goto(`${arena.app.url}?engine=in-page&scene=flappy`);
    const inPage = await inPageLoaded();
    // the Pong page built the graph; this page reads it from the browser's cache
    expect(inPage.timings?.graphFromCache).toBe(true);
    await browser.waitForState('s.scene === "flappy"', 120_000);
    const heard: string[] = [];
    // a flap is refused while the bird lies crashed (the round restarts 1.5 s later): wait for a
    // live round before each order, and ask again if the bird crashed before the call arrived
    for (const order of ["tap", "flap!", "jump", "tap the screen", "tap", "flap", "tap"]) {
      await browser.waitForState("s.game && s.game.over === false", 30_000);
      const before = (await browser.state()).lastCommand?.at ?? -1;
      await browser.page.fill('[data-testid="command"]', order);
      await browser.page.press('[data-testid="command"]', "Enter");
      await browser.waitForState(`s.lastCommand !== null && s.lastCommand.at > ${before}`, 120_000);
      const { lastCommand } = await browser.state();
      heard.push(
        `"${order}" -> ${formatCall(lastCommand!.function, lastCommand!.args)}` +
          `${lastCommand!.accepted ? "" : ` (refused: ${lastCommand!.reason})`}`,
      );
      expect(["flap", "wait"]).toContain(lastCommand!.function!);
      if (lastCommand!.function === "flap" && lastCommand!.accepted) break;
    }
    console.log(`in-page flappy: ${heard.join("; ")}`);
    const game = (await browser.state()).game as unknown as { history: string[] };
    expect(game.history).toContain("flap()");
    expect(arena.rtoolRequests).toEqual([]);
    expect(browser.errors).toEqual([]);
  }, 300_000);
});
