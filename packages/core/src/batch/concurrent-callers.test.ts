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
import { createCallerLanes, WASM_MERGE_OPTIONS } from "./caller-lanes";
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

/** `model` on a runtime that counts its forward passes. */
function counting(model: Model<RtoolTokenizer>) {
  let passes = 0;
  const runtime = new Proxy(model.runtime, {
    get(target, key, receiver) {
      if (key === "step")
        return (input: Parameters<typeof target.step>[0]) => {
          passes++;
          return target.step(input);
        };
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { model: { runtime, tokenizer: model.tokenizer }, passes: () => passes };
}

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

  test("caller lanes decode concurrent calls in shared passes and get what each gets alone", async () => {
    const alone: CallResult[] = [];
    for (const request of REQUESTS)
      alone.push(await (await createRealtimeCaller(model, OPTIONS)).call(request));
    const merged = counting(model);
    const lanes = createCallerLanes(merged.model, 2, { ...OPTIONS, mergePolicy: "always" });
    expect(lanes).toHaveLength(2);
    const together = await Promise.all(lanes.map((lane, i) => lane.call(REQUESTS[i]!)));
    together.forEach((result, i) => {
      expect(result.heads).toEqual(alone[i]!.heads);
      expect(result.args).toEqual(alone[i]!.args);
    });
    // fewer passes on the model than the same calls one after the other
    const serial = counting(model);
    const [one] = createCallerLanes(serial.model, 1, OPTIONS);
    for (const request of REQUESTS) await one!.call(request);
    expect(merged.passes()).toBeLessThan(serial.passes());
    expect(() => createCallerLanes(model, 0)).toThrow(RangeError);
  });

  test("the lanes' merge options reach their batcher: no merged pass holds more rows than maxRows", async () => {
    const capped = counting(model);
    const lanes = createCallerLanes(capped.model, 2, {
      ...OPTIONS,
      mergePolicy: "always",
      merge: { maxRows: 1 },
    });
    const results = await Promise.all(lanes.map((lane, i) => lane.call(REQUESTS[i]!)));
    // every prompt is a step of several rows: none may join another's pass
    for (const result of results) expect(result.timings.sharedSteps).toBe(0);
    expect(WASM_MERGE_OPTIONS.maxRows).toBeGreaterThan(0);
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
