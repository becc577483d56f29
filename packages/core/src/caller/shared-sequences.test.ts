/**
 * Callers that share one `SequenceBatch` (and so one prefix cache) over a `BatchedRuntime`, as a
 * server's lanes do: concurrent calls share forward passes and each gets the call it gets alone.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { BatchedRuntime } from "../batch/batched-runtime";
import { PrefixCache } from "../batch/prefix-cache";
import { SequenceBatch } from "../batch/sequence-batch";
import { loadModel } from "../load-model";
import type { Model } from "../model";
import type { RtoolTokenizer } from "../tokenizer";
import { CallerInputError } from "./errors";
import { type CallResult, createRealtimeCaller } from "./realtime-caller";

setDefaultTimeout(60_000);

const aim = {
  type: "function",
  function: {
    name: "aim",
    parameters: { type: "object", properties: { at: { type: "string", enum: ["left", "right"] } } },
  },
};
const calls = ["aim left", "aim right now", "look around"].map((query) => ({
  query,
  tools: [aim],
  maxTokens: 6,
  includeContent: true,
}));
const options = { format: "v2", constrained: false, draftTokens: 0 } as const;

let model: Model<RtoolTokenizer>;
beforeAll(async () => {
  model = await loadModel(join(import.meta.dir, "../../test/fixtures/qwen3-tied"), { cache: false });
});
afterAll(() => model.dispose());

test("callers sharing one SequenceBatch share passes and its prefix cache, and get what each gets alone", async () => {
  const alone: CallResult[] = [];
  for (const call of calls) alone.push(await (await createRealtimeCaller(model, options)).call(call));

  const runtime = new BatchedRuntime(model.runtime, { policy: "always" });
  const prefixCache = new PrefixCache(runtime, { maxBytes: 16 << 20 });
  const sequences = new SequenceBatch(runtime, { prefixCache });
  const shared = { runtime, tokenizer: model.tokenizer };
  const callers = await Promise.all(calls.map(() => createRealtimeCaller(shared, { ...options, sequences })));
  const together = await Promise.all(callers.map((caller, i) => caller.call(calls[i]!)));
  together.forEach((result, i) => {
    expect(result.heads).toEqual(alone[i]!.heads);
    expect(result.args).toEqual(alone[i]!.args);
  });
  expect(runtime.counters.passes).toBeLessThan(runtime.counters.steps);
  // One cache: the calls' prompts are all in it, and every sequence was released.
  expect(prefixCache.stats().entries).toBe(calls.length);
  expect(callers[0]!.cacheStats()).toEqual(prefixCache.stats());
  expect(sequences.size).toBe(0);
});

test("a sequence batch over another runtime is refused", async () => {
  const sequences = new SequenceBatch(new BatchedRuntime(model.runtime));
  await expect(createRealtimeCaller(model, { ...options, sequences })).rejects.toBeInstanceOf(
    CallerInputError,
  );
});
