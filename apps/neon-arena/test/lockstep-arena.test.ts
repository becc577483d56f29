/**
 * The lockstep arena behind `bun run bench:arena -- --lockstep`: a few ticks of the real agents
 * against rtool-server with rt-tiny (skipped without the model). Token counts do not depend on
 * the machine's speed, so they can be checked; timings are not.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runLockstepArena } from "../src/headless/lockstep-arena";
import { type RtoolProcess, startRtoolServer } from "../src/server/rtool-process";

const MODEL_DIR = join(import.meta.dir, "..", "..", "..", "packages", "model-rt-tiny", "model");
const hasModel = existsSync(join(MODEL_DIR, "config.json"));

let rtool: RtoolProcess;

describe.skipIf(!hasModel)("lockstep arena against rtool-server with rt-tiny", () => {
  beforeAll(async () => {
    rtool = await startRtoolServer({ model: "rt-tiny", port: 0 });
    await rtool.ready(300_000);
  }, 320_000);
  afterAll(() => rtool?.stop(), 60_000);

  test("every ship calls once per tick; each prompt token is reused or prefilled", async () => {
    const ticks = 6;
    const run = await runLockstepArena({
      serverUrl: rtool.url,
      ticks,
      enemies: 3,
      shipRateHz: 30,
      probeUrl: rtool.url,
    });
    expect(run.agents.map((a) => a.agent)).toEqual(["squad", "enemy-1", "enemy-2", "enemy-3"]);
    for (const ship of run.agents.slice(1)) {
      expect(ship.calls).toBe(ticks);
      const { prompt, reused, prefilled, fed } = ship.tokens;
      expect(reused.mean + prefilled.mean).toBeCloseTo(prompt.mean, 1);
      // After the warm-up, every call continues at least the cached system turn.
      expect(reused.p50).toBeGreaterThan(prefilled.p50);
      expect(fed.mean).toBeGreaterThan(prefilled.mean);
      // Every decoded call runs at least one pass; one answered from the answer cache runs none.
      expect(ship.passes.mean).toBeGreaterThanOrEqual(1 - ship.answerCachedShare - 0.01);
    }
    expect(run.server!.passes).toBeGreaterThan(0);
    expect(run.server!.stepsPerPass).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
