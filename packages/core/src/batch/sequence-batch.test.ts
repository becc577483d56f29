/**
 * The sequence batch on a real ONNX Runtime session (random Qwen3-shaped weights): forks of one
 * parent get in one step what each gets alone, forks of gone parents fail clearly, the prefix
 * cache serves a second open, and two requests' steps share passes over a `BatchedRuntime`.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { maxAbsDiff, tinyQwen3 } from "../../test/tiny-configs";
import { createModelFromWeights } from "../create-model";
import { randomQwenWeights } from "../graph/random-weights";
import type { Model } from "../model";
import { BatchedRuntime } from "./batched-runtime";
import { RequestAbortedError, SequenceGoneError } from "./errors";
import { PrefixCache } from "./prefix-cache";
import { SequenceBatch } from "./sequence-batch";

// Building a session takes seconds on a busy machine.
setDefaultTimeout(60_000);

const PROMPT = [5, 9, 11, 2, 40, 7, 7, 8, 30];
/** Two forks' turns: each step's tokens per fork. */
const FORK_A = [[60, 61], [62], [63, 64, 65]];
const FORK_B = [[70], [71, 72], [73]];

let model: Model<undefined>;

beforeAll(async () => {
  model = await createModelFromWeights(tinyQwen3, randomQwenWeights(tinyQwen3, 5), undefined, { threads: 1 });
});
afterAll(() => model.dispose());

/** The logits of `turns` fed to one fork of PROMPT, alone in its own batch, all rows. */
async function forkAlone(turns: number[][]): Promise<Float32Array[]> {
  const engine = new SequenceBatch(model.runtime);
  const prompt = engine.open(PROMPT);
  const fork = engine.open([], { parent: prompt });
  const out: Float32Array[] = [];
  for (const tokens of turns) {
    out.push((await engine.step([{ seq: fork, tokens, logits: tokens.length }])).logits[0]!);
  }
  return out;
}

/**
 * Two requests at once (a fork of PROMPT each, stepping FORK_A and FORK_B), each in the batch
 * `batchOf` gives it: each gets the logits its fork gets alone.
 */
async function expectTwoRequestsAlone(batchOf: () => SequenceBatch): Promise<void> {
  const alone = [await forkAlone(FORK_A), await forkAlone(FORK_B)];
  const together = await Promise.all(
    [FORK_A, FORK_B].map(async (turns) => {
      const engine = batchOf();
      const fork = engine.open([], { parent: engine.open(PROMPT) });
      const out: Float32Array[] = [];
      for (const tokens of turns) {
        out.push((await engine.step([{ seq: fork, tokens, logits: tokens.length }])).logits[0]!);
      }
      return out;
    }),
  );
  together.forEach((turns, r) => {
    turns.forEach((rows, t) => {
      expect(maxAbsDiff(rows, alone[r]![t]!)).toBeLessThan(1e-4);
    });
  });
}

describe("SequenceBatch", () => {
  test("two forks of one parent get the same logits in one step as each alone", async () => {
    const alone = [await forkAlone(FORK_A), await forkAlone(FORK_B)];
    const engine = new SequenceBatch(model.runtime);
    const prompt = engine.open(PROMPT);
    const forks = [engine.open([], { parent: prompt }), engine.open([], { parent: prompt })];
    const turns = [FORK_A, FORK_B];
    for (let t = 0; t < FORK_A.length; t++) {
      // The first step also prefills the prompt, once, for both forks.
      const { logits } = await engine.step(
        forks.map((seq, f) => ({ seq, tokens: turns[f]![t]!, logits: turns[f]![t]!.length })),
      );
      logits.forEach((rows, f) => {
        expect(rows.length).toBe(turns[f]![t]!.length * tinyQwen3.vocabSize);
        expect(maxAbsDiff(rows, alone[f]![t]!)).toBeLessThan(1e-4);
      });
    }
    expect(engine.info(forks[0]!)).toEqual({
      length: PROMPT.length + 6,
      pending: 0,
      cachedTokens: 0,
      parent: prompt,
    });
  });

  test("a fork of a fork whose tokens are not computed yet sees them once a step computes them", async () => {
    const engine = new SequenceBatch(model.runtime);
    const prompt = engine.open(PROMPT.slice(0, 5));
    const middle = engine.open(PROMPT.slice(5), { parent: prompt });
    const leaf = engine.open([], { parent: middle });
    expect(engine.info(leaf)).toMatchObject({ length: PROMPT.length, parent: middle });
    // One pass: the prompt's 5 tokens, the middle fork's 4, then the leaf's 2.
    const { logits } = await engine.step([{ seq: leaf, tokens: FORK_A[0]!, logits: 2 }]);
    const [alone] = await forkAlone([FORK_A[0]!]);
    expect(maxAbsDiff(logits[0]!, alone!)).toBeLessThan(1e-4);
    expect(engine.info(middle)).toMatchObject({ length: PROMPT.length, pending: 0 });
  });

  test("a step at an earlier position drops the fork's later tokens first", async () => {
    const [pair] = await forkAlone([[60, 66]]);
    const engine = new SequenceBatch(model.runtime);
    const prompt = engine.open(PROMPT);
    const fork = engine.open([], { parent: prompt });
    await engine.step([{ seq: fork, tokens: [60, 61, 62] }]);
    const { logits } = await engine.step([{ seq: fork, tokens: [66], position: PROMPT.length + 1 }]);
    // The last row of [60, 66] alone.
    const vocab = tinyQwen3.vocabSize;
    expect(maxAbsDiff(logits[0]!, pair!.subarray(vocab))).toBeLessThan(1e-4);
    expect(engine.info(fork).length).toBe(PROMPT.length + 2);
  });

  test("a fork of a released or evicted parent fails with a clear error", async () => {
    const engine = new SequenceBatch(model.runtime, { maxSequences: 2 });
    const prompt = engine.open(PROMPT);
    engine.release(prompt);
    expect(() => engine.open([], { parent: prompt })).toThrow(`parent sequence ${prompt} was released`);
    await expect(engine.step([{ seq: prompt, tokens: [1] }])).rejects.toBeInstanceOf(SequenceGoneError);

    const first = engine.open(PROMPT);
    engine.open([1, 2]);
    engine.open([3, 4]); // a third open sequence: the least recently used goes
    let error: unknown;
    try {
      engine.open([], { parent: first });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SequenceGoneError);
    expect(error).toMatchObject({ seq: first, reason: "evicted", role: "parent" });
    expect(String(error)).toContain(`parent sequence ${first} was evicted`);
  });

  test("a parent with open forks is not evicted; the least recently used other sequence is", () => {
    const engine = new SequenceBatch(model.runtime, { maxSequences: 2 });
    const prompt = engine.open(PROMPT);
    const fork = engine.open([], { parent: prompt });
    engine.open([1]); // over the limit: the prompt is older, but its fork needs it
    expect(engine.info(prompt).length).toBe(PROMPT.length);
    expect(() => engine.info(fork)).toThrow(`sequence ${fork} was evicted`);
  });

  test("a released parent's open forks keep stepping", async () => {
    const engine = new SequenceBatch(model.runtime);
    const prompt = engine.open(PROMPT);
    const fork = engine.open([], { parent: prompt });
    engine.release(prompt);
    const [expected] = await forkAlone([FORK_A[0]!]);
    const { logits } = await engine.step([{ seq: fork, tokens: FORK_A[0]!, logits: 2 }]);
    expect(maxAbsDiff(logits[0]!, expected!)).toBeLessThan(1e-4);
  });

  test("a prompt computed once is served from the prefix cache to the next open", async () => {
    const prefixCache = new PrefixCache(model.runtime, { maxBytes: 1 << 20 });
    const first = new SequenceBatch(model.runtime, { prefixCache });
    const cold = first.open(PROMPT, { keepKv: true });
    const coldFork = first.open([], { parent: cold });
    const coldLogits = (await first.step([{ seq: coldFork, tokens: [60] }])).logits[0]!;
    expect(first.kvOf(cold)?.length).toBe(PROMPT.length);
    expect(prefixCache.holds(PROMPT)).toBe(true);

    const second = new SequenceBatch(model.runtime, { prefixCache });
    const warm = second.open([...PROMPT, 41]);
    expect(second.info(warm)).toMatchObject({ cachedTokens: PROMPT.length, pending: 1 });
    const again = second.open(PROMPT);
    expect(second.info(again)).toMatchObject({ cachedTokens: PROMPT.length, pending: 0 });
    const warmFork = second.open([], { parent: again });
    const warmLogits = (await second.step([{ seq: warmFork, tokens: [60] }])).logits[0]!;
    expect(maxAbsDiff(warmLogits, coldLogits)).toBeLessThan(1e-4);
  });

  test("prefill puts a prefix in the cache as an entry of its own, computing only what is missing", async () => {
    const prefixCache = new PrefixCache(model.runtime, { maxBytes: 1 << 20 });
    const engine = new SequenceBatch(model.runtime, { prefixCache });
    expect(await engine.prefill(PROMPT.slice(0, 4))).toBe(4);
    expect(await engine.prefill(PROMPT)).toBe(PROMPT.length - 4); // continues from the first entry
    expect(await engine.prefill(PROMPT.slice(0, 6))).toBe(0); // a run inside an entry: its slice
    expect(prefixCache.stats().entries).toBe(3);
    expect(engine.size).toBe(0);
    const warm = engine.open([...PROMPT, 41]);
    expect(engine.info(warm).cachedTokens).toBe(PROMPT.length);
    expect(await new SequenceBatch(model.runtime).prefill(PROMPT)).toBe(0); // no cache: nothing to do
  });

  test("two requests' batches over one BatchedRuntime share passes and get what each gets alone", async () => {
    const batched = new BatchedRuntime(model.runtime, { policy: "always" });
    await expectTwoRequestsAlone(() => new SequenceBatch(batched));
    expect(batched.counters.passes).toBeLessThan(batched.counters.steps);
  });

  test("a batch built with merge, prefix cache bytes and a current signal: requests share passes, an aborted one's step is refused", async () => {
    let signal: AbortSignal | undefined;
    const passes: number[] = [];
    const engine = new SequenceBatch(model.runtime, {
      prefixCacheBytes: 1 << 20,
      merge: { policy: "always", currentSignal: () => signal, onPass: (requests) => passes.push(requests) },
    });
    expect(engine.runtime).toBeInstanceOf(BatchedRuntime);
    expect(engine.prefixCache).not.toBeNull();
    await expectTwoRequestsAlone(() => engine);
    const stats = engine.stats();
    expect(stats.passes).toBe(passes.length);
    expect(stats.passes).toBeLessThan(stats.steps);
    expect(stats.prefixCache?.entries).toBeGreaterThan(0);

    const aborted = new AbortController();
    aborted.abort();
    signal = aborted.signal;
    const prompt = engine.open([...PROMPT, 3]);
    await expect(engine.step([{ seq: prompt, tokens: [4] }])).rejects.toBeInstanceOf(RequestAbortedError);
    expect(engine.stats().abortedSteps).toBe(1);
    expect(() => new SequenceBatch(engine.runtime, { merge: true })).toThrow("merges already");
  });

  test("a plain batch counts its own passes and has no prefix cache by default", async () => {
    const engine = new SequenceBatch(model.runtime);
    const fork = engine.open([], { parent: engine.open(PROMPT) });
    await engine.step([{ seq: fork, tokens: [60] }]);
    expect(engine.stats()).toEqual({ passes: 1, steps: 1, abortedSteps: 0, sequences: 2, prefixCache: null });
  });

  test("bad steps are refused before anything runs", async () => {
    const engine = new SequenceBatch(model.runtime);
    const prompt = engine.open(PROMPT);
    const fork = engine.open([], { parent: prompt });
    await expect(engine.step([{ seq: fork, tokens: [] }])).rejects.toThrow("no tokens to feed");
    await expect(engine.step([{ seq: prompt, tokens: [1], position: 0 }])).rejects.toThrow(
      "uncomputed tokens",
    );
    await expect(engine.step([{ seq: fork, tokens: [1], logits: 2 }])).rejects.toThrow("logits 2");
    await expect(
      engine.step([
        { seq: fork, tokens: [1] },
        { seq: fork, tokens: [2] },
      ]),
    ).rejects.toThrow("appears twice");
    await expect(engine.step([{ seq: 999, tokens: [1] }])).rejects.toThrow(
      "sequence 999 was never opened here",
    );
    // Nothing moved: the fork still starts right after the prompt.
    expect(engine.info(fork)).toMatchObject({ length: PROMPT.length, pending: 0 });
  });
});
