/**
 * The remote-engine adapter end to end: server A (`createOpenAiEngine`, as `rtool-server
 * --engine openai` builds it) calls server B's `/v1/completions`; both on 127.0.0.1, B serving a
 * fixture model with the head tags as special tokens. A must answer every reference scenario
 * exactly as B answers it locally.
 *
 * Both sides decode unconstrained: a remote engine cannot run rtool's token-level constraints,
 * so the honest comparison is free decoding on both sides, with validation after the fact
 * (the same `mapHeadsToCall` on both). B's local caller is created with `constrained: false`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FunctionCallReply } from "@rtool/contract";
import { createRealtimeCaller, loadModel, type Model, type RtoolTokenizer } from "@rtool/core";
import { LocalCompletions } from "../src/engine/local-completions";
import { createOpenAiEngine } from "../src/engine/openai-engine";
import type { Engine } from "../src/engine/types";
import { createServer, type RtoolServer } from "../src/server";
import { postJson } from "../src/testing/http";
import { longContextFixture, scenarioExamples } from "./engine-fixtures";

const fixture = longContextFixture("qwen3-tied");
let model: Model<RtoolTokenizer>;
let local: RtoolServer;
let remote: RtoolServer;
let localUrl: string;
let remoteUrl: string;
let engineRequests = 0;

beforeAll(async () => {
  model = await loadModel(fixture.dir, { threads: 1, cache: false });
  const completions = new LocalCompletions(model);
  const engine: Engine = {
    // one caller for both formats, as the remote engine's
    caller: await createRealtimeCaller(model, { constrained: false }),
    provider: model.runtime.provider,
    completions: {
      complete: (request) => {
        engineRequests++;
        return completions.complete(request);
      },
    },
  };
  local = createServer({ model: engine, modelName: "qwen3-tied", port: 0, format: "v1", backendName: "B" });
  localUrl = (await local.listen()).url;
  remote = createServer({
    // generous: on a loaded 2-core machine one batched head request can take seconds
    model: createOpenAiEngine({ url: localUrl, model: "qwen3-tied", timeoutMs: 120_000 }),
    modelName: "qwen3-tied",
    port: 0,
    format: "v1",
    backendName: "A",
  });
  remoteUrl = (await remote.listen()).url;
});

afterAll(async () => {
  await remote.close();
  await local.close();
  await model.dispose();
  fixture.dispose();
});

/** What a reply says about the call (timings and latency differ by nature). */
function answer(reply: FunctionCallReply) {
  const { success, function: fn, args, heads, content, error, valid, errors } = reply;
  return { success, function: fn, args, heads, content, error, valid, errors };
}

describe("remote engine adapter", () => {
  const examples = scenarioExamples();

  test("the reference scenarios are all there", () => {
    const scenarios = new Set(examples.map((e) => e.scenario));
    expect(scenarios.size).toBe(7);
  });

  for (const route of ["/v1/function_call", "/v2/function_call"]) {
    test(`${route}: A through B's /v1/completions answers every scenario exactly as B locally`, async () => {
      let decided = 0;
      let redone = 0;
      for (const example of examples) {
        const body = {
          messages: [{ role: "user", content: example.query }],
          tools: example.tools,
          system: example.system,
          environment: example.environment,
          history: example.history,
          max_tokens: 6,
        };
        const before = engineRequests;
        const viaEngine = await postJson(`${remoteUrl}${route}`, body);
        const alone = await postJson(`${localUrl}${route}`, body);
        expect(viaEngine.status).toBe(200);
        expect(alone.status).toBe(200);
        expect(viaEngine.headers.get("x-rtool-backend")).toBe("A");
        expect(alone.headers.get("x-rtool-backend")).toBe("B");
        // One batched request per call, whatever the number of heads; a second one only for
        // heads that wrote another head's closing tag (this random fixture does, a trained model not).
        const requests = engineRequests - before;
        expect(requests === 1 || requests === 2).toBe(true);
        if (requests === 2) redone++;
        const a = answer((await viaEngine.json()) as FunctionCallReply);
        const b = answer((await alone.json()) as FunctionCallReply);
        expect({ scenario: example.scenario, query: example.query, ...a }).toEqual({
          scenario: example.scenario,
          query: example.query,
          ...b,
        });
        if (Object.values(b.heads).some((text) => text !== "")) decided++;
      }
      // The random fixture writes text into its heads: the comparison is not of empty answers.
      expect(decided).toBeGreaterThan(0);
      console.log(`${route}: ${examples.length} examples equal, ${redone} needed the second request`);
    }, 120_000);
  }
});
