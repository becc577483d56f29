/**
 * What the pipeline guarantees whatever the model says, checked through a real server on loopback
 * with a model of random weights (answers arbitrary, decoding constrained as for any model):
 * every reply is a well-formed call or a reported validation error, the world never receives an
 * invalid call, refusals are typed world rules, HTTP errors are typed, and the loop is bounded.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RtoolHttpError } from "@rtool/client";
import { scenarios } from "@rtool/sim";
import { runEpisode, wireTools } from "./episode";
import { type ModelServer, startModelServer, writeRandomModel } from "./model-server";
import { checkReply, SCHEMA_REJECTION_CODES } from "./reply-check";
import { SCENARIO_EPISODES } from "./scenario-episodes";

/** Generous per-test limits: the shared 2-core machine may be busy (no timing is asserted). */
const LOADED_MACHINE_MS = 300_000;
let served: ModelServer;

beforeAll(async () => {
  const random = writeRandomModel(5);
  served = await startModelServer(random.dir, { modelName: "random", cache: false, onClose: random.remove });
}, LOADED_MACHINE_MS);

afterAll(async () => {
  await served?.close();
});

describe("with a model of random weights", () => {
  test(
    "every reply to the scenario examples is a well-formed call or a reported error (v1 and v2)",
    async () => {
      const kinds: Record<string, number> = {};
      for (const scenario of Object.values(scenarios)) {
        for (const example of scenario.examples) {
          for (const version of ["v1", "v2"] as const) {
            const reply = await served.client.functionCall(
              {
                query: example.query,
                tools: wireTools(scenario.tools),
                environment: example.environment,
                history: example.history,
                ...(version === "v2" ? { system: scenario.system } : {}),
                max_tokens: 8,
              },
              { version },
            );
            const verdict = checkReply(scenario.tools, reply);
            kinds[verdict.kind] = (kinds[verdict.kind] ?? 0) + 1;
            if (verdict.kind === "malformed") throw new Error(`${scenario.title}: ${verdict.reason}`);
            if (verdict.kind === "reported_error") expect(verdict.errors.length).toBeGreaterThan(0);
            if (reply.function !== null) {
              expect(scenario.tools.map((t) => t.function.name)).toContain(reply.function);
            }
          }
        }
      }
      expect(kinds.malformed).toBeUndefined();
    },
    LOADED_MACHINE_MS,
  );

  test(
    "episodes stay bounded and hand worlds only valid calls; refusals are typed world rules",
    async () => {
      for (const episode of SCENARIO_EPISODES) {
        const result = await runEpisode<unknown>(episode, served.client, {
          continueAfterFailure: true,
          maxTokens: 8,
        });
        expect(result.requests).toBe(episode.steps.length);
        for (const step of result.steps) {
          expect(["applied", "rejected", "invalid"]).toContain(step.outcome);
          if (step.outcome === "rejected") {
            expect(SCHEMA_REJECTION_CODES.has(step.rejection!.code)).toBe(false);
            expect(step.rejection!.reason.length).toBeGreaterThan(0);
          }
        }
        // The world's history holds exactly the calls it accepted.
        expect(result.history.length).toBe(result.steps.filter((s) => s.outcome === "applied").length);
      }
    },
    LOADED_MACHINE_MS,
  );

  test("a request the model cannot serve is a typed HTTP error naming the field", async () => {
    const tools = [
      {
        type: "function" as const,
        function: {
          name: "spawn",
          parameters: { type: "object" as const, properties: { units: { type: "array" } }, required: [] },
        },
      },
    ];
    const error = await served.client.functionCall({ query: "spawn", tools }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RtoolHttpError);
    expect((error as RtoolHttpError).status).toBe(422);
    expect((error as RtoolHttpError).field).toContain("tools[0]");
  });
});
