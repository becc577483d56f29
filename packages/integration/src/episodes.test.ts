/**
 * The scenario episodes with the committed rt-tiny model, through a real server on loopback (v2).
 *
 * What any model must satisfy is asserted for rt-tiny too. An episode rt-tiny does not complete is
 * a "known miss" test pinning the step it fails and what it does there (measured with the
 * committed model; `bun run bench` reruns every episode in v1 and v2 and reports the result), so
 * a model that completes it fails that test and the fix is to assert `completes` instead.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RT_TINY_DIR } from "@rtool/model-rt-tiny";
import { type Episode, runEpisode } from "./episode";
import { embeddedModelPresent, type ModelServer, startModelServer } from "./model-server";
import { SCHEMA_REJECTION_CODES } from "./reply-check";
import {
  arenaFiresWhenAligned,
  armPickAndPlace,
  avatarGreeting,
  SCENARIO_EPISODES,
  towerDefenseOrders,
} from "./scenario-episodes";

/** Generous limits for a busy shared machine; nothing here asserts a time. */
const LOADED_MACHINE_MS = 300_000;
let served: ModelServer;

async function completes<S>(episode: Episode<S>): Promise<void> {
  const result = await runEpisode(episode, served.client);
  expect(result.failure).toBeNull();
  expect(result.completed).toBe(true);
}

if (!embeddedModelPresent())
  console.warn(`SKIP ${import.meta.file}: no rt-tiny weights in packages/model-rt-tiny/model`);

describe.if(embeddedModelPresent())("with the embedded rt-tiny model", () => {
  beforeAll(async () => {
    served = await startModelServer(RT_TINY_DIR, { modelName: "rt-tiny" });
  }, LOADED_MACHINE_MS);

  afterAll(async () => {
    await served?.close();
  });

  test(
    "each episode runs to its first failure or its end with at most one request per step; worlds get only valid calls",
    async () => {
      for (const episode of SCENARIO_EPISODES) {
        const result = await runEpisode<unknown>(episode, served.client);
        expect(result.requests).toBeLessThanOrEqual(episode.steps.length);
        expect(result.steps.length).toBe(result.requests);
        for (const step of result.steps) {
          expect(["applied", "rejected", "invalid"]).toContain(step.outcome);
          if (step.outcome === "rejected")
            expect(SCHEMA_REJECTION_CODES.has(step.rejection!.code)).toBe(false);
        }
        expect(result.history.length).toBe(result.steps.filter((s) => s.outcome === "applied").length);
        if (!result.completed) expect(result.failure).toContain(`step ${result.failedStep}`);
      }
    },
    LOADED_MACHINE_MS,
  );

  test(
    "arm pick-and-place: approach, grip, carry to the tray, release, home",
    () => completes(armPickAndPlace),
    LOADED_MACHINE_MS,
  );

  test(
    "avatar greeting: greet, wave, look at the camera, idle",
    () => completes(avatarGreeting),
    LOADED_MACHINE_MS,
  );

  test(
    "tower defense orders: skill, move, stance, retreat",
    () => completes(towerDefenseOrders),
    LOADED_MACHINE_MS,
  );

  test(
    "arena fires when aligned: the model ship fires at the player and hits it",
    () => completes(arenaFiresWhenAligned),
    LOADED_MACHINE_MS,
  );
});
