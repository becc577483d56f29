import { expect, test } from "bun:test";
import { serverTimingsSchema } from "./function-call";
import { replyTimings } from "./timings";

test("replyTimings maps an engine's stages to the reply's, 0 for stages it does not measure", () => {
  const full = replyTimings(
    {
      prefillMs: 1.23456,
      decodeMs: 2,
      steps: 3,
      cachedPrefixTokens: 200,
      totalMs: 3.5,
      promptTokens: 260,
      prefilledTokens: 60,
      fedTokens: 66,
      prepareMs: 0.4,
      queuedMs: 0.1,
      batchWaitMs: 0.2,
      forwardMs: 3,
      sharedSteps: 1,
      answerCached: false,
    },
    0.5,
  );
  expect(serverTimingsSchema.parse(full)).toEqual(full);
  expect(full).toMatchObject({ prefill_ms: 1.235, queue_ms: 0.5, lane_wait_ms: 0.1, prefilled_tokens: 60 });
  // an older engine: the first five only; prefilled tokens from what it does say
  const old = replyTimings({ prefillMs: 1, decodeMs: 1, steps: 2, cachedPrefixTokens: 10, totalMs: 2 }, 0);
  expect(old).toMatchObject({
    forward_ms: 0,
    shared_steps: 0,
    prompt_tokens: 0,
    prefilled_tokens: 0,
    answer_cached: false,
  });
});
