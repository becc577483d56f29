/**
 * @rtool/core alone batches concurrent callers: two real-time callers over one `BatchedRuntime`
 * share forward passes, and each gets exactly the call it gets when it runs alone on the plain
 * runtime (real ONNX Runtime, random-weight fixture).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { type CallResult, createRealtimeCaller } from "../caller/realtime-caller";
import { loadModel } from "../load-model";
import type { Model } from "../model";
import type { RtoolTokenizer } from "../tokenizer";
import { BatchedRuntime } from "./batched-runtime";
import { RequestAbortedError } from "./errors";

// Loading a model takes seconds on a busy machine.
setDefaultTimeout(60_000);

const FIXTURES = join(import.meta.dir, "../../test/fixtures");

const tool = (name: string, properties: Record<string, unknown>) => ({
  type: "function",
  function: { name, parameters: { type: "object", properties, required: [] } },
});
const TOOLS = [
  tool("move", { d: { type: "string", enum: ["up", "down"] }, n: { type: "integer" } }),
  tool("stop", {}),
];
// Unconstrained and undrafted: free-running heads take several steps each, so the calls overlap.
const OPTIONS = { format: "v2", constrained: false, draftTokens: 0 } as const;
const REQUESTS = [
  { query: "go up twice", tools: TOOLS, system: "Game.", maxTokens: 8, includeContent: true },
  { query: "halt now", tools: TOOLS, system: "Other game.", maxTokens: 8, includeContent: true },
];

describe("core batches concurrent callers", () => {
  let model: Model<RtoolTokenizer>;
  beforeAll(async () => {
    model = await loadModel(join(FIXTURES, "qwen3-tied"), { cache: false });
  });
  afterAll(() => model.dispose());

  test("two callers on one BatchedRuntime share passes and get what each gets alone", async () => {
    const alone: CallResult[] = [];
    for (const request of REQUESTS) {
      const caller = await createRealtimeCaller(model, OPTIONS);
      alone.push(await caller.call(request));
    }
    const batched = new BatchedRuntime(model.runtime, { policy: "always" });
    const callers = await Promise.all(
      REQUESTS.map(() => createRealtimeCaller({ runtime: batched, tokenizer: model.tokenizer }, OPTIONS)),
    );
    const together = await Promise.all(callers.map((caller, i) => caller.call(REQUESTS[i]!)));
    together.forEach((result, i) => {
      expect(result.heads).toEqual(alone[i]!.heads);
      expect(result.function).toBe(alone[i]!.function);
      expect(result.args).toEqual(alone[i]!.args);
    });
    // The two calls' steps were merged: fewer forward passes than steps.
    expect(batched.counters.passes).toBeLessThan(batched.counters.steps);
  });

  test("a step of an aborted request is refused and counted", async () => {
    const controller = new AbortController();
    const batched = new BatchedRuntime(model.runtime, { currentSignal: () => controller.signal });
    controller.abort("gone");
    const step = batched.step({ tokenIds: [1], positions: [0], past: batched.emptyKv() });
    await expect(step).rejects.toBeInstanceOf(RequestAbortedError);
    expect(batched.counters.abortedSteps).toBe(1);
  });
});
