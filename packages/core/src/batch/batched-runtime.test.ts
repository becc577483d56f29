import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { tinyQwen2 } from "../../test/tiny-configs";
import { createModelFromWeights } from "../create-model";
import { randomQwenWeights } from "../graph/random-weights";
import type { Model } from "../model";
import type { QwenConfig } from "../model/types";
import { PassBuffers } from "../runtime/pass-buffers";
import { SplitKv } from "../runtime/split-kv";
import type { KvState, StepInput, StepOutput } from "../runtime/types";
import { BatchedRuntime } from "./batched-runtime";
import { mergeSteps } from "./merge-steps";

// Loading a model (or spawning the CLI) takes seconds on a busy machine.
setDefaultTimeout(60_000);

// Qwen3-style (q/k norms, tied embeddings) on the small Qwen2 shape.
const config: QwenConfig = {
  ...tinyQwen2,
  architecture: "qwen3",
  vocabSize: 96,
  intermediateSize: 64,
  tieWordEmbeddings: true,
  attentionBias: false,
  qkNorm: true,
};

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

let model: Model<undefined>;
const pasts: KvState[] = [];

beforeAll(async () => {
  model = await createModelFromWeights(config, randomQwenWeights(config, 3), undefined, { threads: 1 });
  for (const prompt of [
    [5, 9, 11, 2, 40],
    [7, 7, 8, 30, 31, 32, 33, 1, 2],
  ]) {
    pasts.push(
      (
        await model.runtime.step({
          tokenIds: prompt,
          positions: range(0, prompt.length),
          past: model.runtime.emptyKv(),
        })
      ).present,
    );
  }
});
afterAll(() => model.dispose());

/** Two branches after a past of `p`: branch A is rows 0,1 and branch B rows 2,3, both from position p. */
function treeStep(past: KvState, ids: number[]): StepInput {
  const p = past.length;
  const q = 4;
  const mask = new Float32Array(q * (p + q)).fill(Number.NEGATIVE_INFINITY);
  const sees = [[0], [0, 1], [2], [2, 3]];
  sees.forEach((cols, row) => {
    mask.fill(0, row * (p + q), row * (p + q) + p);
    for (const c of cols) mask[row * (p + q) + p + c] = 0;
  });
  return { tokenIds: ids, positions: [p, p + 1, p, p + 1], attentionMask: mask, past, logitRows: [1, 3] };
}

describe("mergeSteps", () => {
  test("a merged step gives every request its own logits and present KV", async () => {
    const inputs: StepInput[] = [
      treeStep(pasts[0]!, [12, 13, 50, 51]),
      { tokenIds: [3, 4, 5], positions: [0, 1, 2], past: model.runtime.emptyKv(), logitRows: [0, 2] },
      { tokenIds: [60], positions: [pasts[1]!.length], past: pasts[1]! },
      treeStep(pasts[1]!, [20, 21, 22, 23]),
    ];
    const alone: StepOutput[] = [];
    for (const input of inputs) alone.push(await model.runtime.step(input));
    const merged = mergeSteps(inputs, config);
    const outputs = merged.split(await model.runtime.step(merged.input));
    outputs.forEach((out, r) => {
      expect(maxDiff(out.logits, alone[r]!.logits)).toBeLessThan(1e-4);
      expect(out.present.length).toBe(alone[r]!.present.length);
      for (let l = 0; l < config.numLayers; l++) {
        expect(maxDiff(out.present.keys[l]!, alone[r]!.present.keys[l]!)).toBeLessThan(1e-5);
        expect(maxDiff(out.present.values[l]!, alone[r]!.present.values[l]!)).toBeLessThan(1e-5);
      }
    });
  });
});

describe("BatchedRuntime", () => {
  test("concurrent steps share forward passes and get their own results", async () => {
    const batched = new BatchedRuntime(model.runtime, { policy: "always" });
    const inputs: StepInput[] = Array.from({ length: 6 }, (_, i) => ({
      tokenIds: [10 + i, 20 + i],
      positions: [pasts[i % 2]!.length, pasts[i % 2]!.length + 1],
      past: pasts[i % 2]!,
    }));
    const alone: StepOutput[] = [];
    for (const input of inputs) alone.push(await model.runtime.step(input));
    const together = await Promise.all(inputs.map((input) => batched.step(input)));
    together.forEach((out, i) => {
      expect(maxDiff(out.logits, alone[i]!.logits)).toBeLessThan(1e-4);
    });
    expect(batched.counters.steps).toBe(6);
    expect(batched.counters.passes).toBe(1);
  });

  test("a bad step fails alone; its batch-mates still get their results", async () => {
    const batched = new BatchedRuntime(model.runtime, { policy: "always" });
    const good: StepInput = { tokenIds: [1, 2], positions: [0, 1], past: model.runtime.emptyKv() };
    const bad: StepInput = { tokenIds: [1, 2], positions: [0], past: model.runtime.emptyKv() };
    const [a, b] = await Promise.allSettled([batched.step(good), batched.step(bad)]);
    expect(a.status).toBe("fulfilled");
    expect(b.status).toBe("rejected");
  });

  test("steps that arrive while a pass runs join the next one", async () => {
    let passes = 0;
    const batched = new BatchedRuntime(model.runtime, { policy: "always", onPass: () => passes++ });
    const first = batched.step({ tokenIds: [1], positions: [0], past: model.runtime.emptyKv() });
    await new Promise((resolve) => setImmediate(resolve)); // the first pass is running now
    const later = Array.from({ length: 4 }, (_, i) =>
      batched.step({ tokenIds: [2 + i], positions: [0], past: model.runtime.emptyKv() }),
    );
    const outputs = await Promise.all([first, ...later]);
    expect(passes).toBe(2);
    // Each step says how long it waited and which pass served it: the later ones waited for the first pass.
    const [alone, ...merged] = outputs.map((out) => out.timing!);
    expect(alone!.requests).toBe(1);
    for (const timing of merged) {
      expect(timing.requests).toBe(4);
      expect(timing.waitMs).toBeGreaterThan(0);
      expect(timing.passMs).toBeGreaterThan(0);
    }
  });

  test("a merge window lets steps that arrive just after an idle session's first one join its pass", async () => {
    const sizes: number[] = [];
    const step = (batched: BatchedRuntime, token: number) =>
      batched.step({ tokenIds: [token], positions: [0], past: model.runtime.emptyKv() });
    // Three requests a macrotask apart (as separate HTTP requests reach the batcher).
    const arrive = async (batched: BatchedRuntime) => {
      const steps = [step(batched, 1)];
      for (const token of [2, 3]) {
        await new Promise((resolve) => setImmediate(resolve));
        steps.push(step(batched, token));
      }
      return Promise.all(steps);
    };
    const without = new BatchedRuntime(model.runtime, { policy: "always", onPass: (n) => sizes.push(n) });
    const alone = await arrive(without);
    expect(sizes[0]).toBe(1); // the first pass started before the others came
    sizes.length = 0;
    const windowed = new BatchedRuntime(model.runtime, {
      policy: "always",
      mergeWindowMs: 50,
      onPass: (n) => sizes.push(n),
    });
    const merged = await arrive(windowed);
    expect(sizes).toEqual([3]);
    merged.forEach((out, i) => {
      expect(maxDiff(out.logits, alone[i]!.logits)).toBeLessThan(1e-4);
    });
  });

  test("the cost policy merges cheap steps and keeps long-past steps apart", async () => {
    const sizes: number[] = [];
    // No fixed pass cost: only weights, attention and copies decide.
    const batched = new BatchedRuntime(model.runtime, {
      passOverheadBytes: 0,
      onPass: (requests) => sizes.push(requests),
    });
    // Single tokens on an empty past: merging adds almost no attention, so all four share a pass.
    await Promise.all(
      [1, 2, 3, 4].map((t) => batched.step({ tokenIds: [t], positions: [0], past: model.runtime.emptyKv() })),
    );
    expect(sizes).toEqual([4]);
    // Many rows over long, unrelated pasts in a model this small: attention and copies would cost
    // more than the weights saved.
    const long = (past: KvState): StepInput => ({
      tokenIds: range(1, 12),
      positions: range(past.length, 12),
      past,
    });
    const distinct = await Promise.all(
      [0, 1, 2].map((seed) => prefill(range(0, 100).map((i) => (i * 7 + seed) % 90))),
    );
    sizes.length = 0;
    await Promise.all(distinct.map((past) => batched.step(long(past))));
    expect(sizes).toEqual([1, 1, 1]);
    // One token each after the same long past, held once: the merged pass attends over one past.
    sizes.length = 0;
    const [shared] = distinct;
    await Promise.all(
      [1, 2, 3].map((t) => batched.step({ tokenIds: [t], positions: [shared!.length], past: shared! })),
    );
    expect(sizes).toEqual([3]);
  });

  test("calls that continue from one cached prefix share it in merged passes, with their own results", async () => {
    const batched = new BatchedRuntime(model.runtime, { policy: "always" });
    const prompt = range(0, 40).map((i) => (i * 5) % 90);
    const { present: promptKv } = await batched.step({
      tokenIds: prompt,
      positions: range(0, 40),
      past: batched.emptyKv(),
    });
    // As the prefix cache hands it out: a slice of a longer state.
    const cached = batched.sliceKv(promptKv, 32);
    const own = (i: number): StepInput => ({
      tokenIds: [60 + i, 61 + i, 62 + i],
      positions: [32, 33, 34],
      past: cached,
    });
    // Each call's first step runs alone, then their second steps (pasts of 35) are merged.
    const firsts = await Promise.all([0, 1, 2].map(async (i) => (await model.runtime.step(own(i))).present));
    const seconds: StepInput[] = [];
    for (let i = 0; i < 3; i++) {
      const { present } = await batched.step(own(i));
      expect(maxDiff(present.keys[0]!, firsts[i]!.keys[0]!)).toBeLessThan(1e-5);
      seconds.push(treeStep(present, [70 + i, 71, 72, 73]));
    }
    const alone: StepOutput[] = [];
    for (const input of seconds) alone.push(await model.runtime.step(input));
    const passesBefore = batched.counters.passes;
    const together = await Promise.all(seconds.map((input) => batched.step(input)));
    expect(batched.counters.passes - passesBefore).toBe(1);
    // Their presents are views of the merged present; a third merged step reads them as pasts.
    const thirds = together.map((out, r) => ({
      tokenIds: [80 + r],
      positions: [37],
      past: out.present,
    }));
    const thirdAlone: StepOutput[] = [];
    for (let r = 0; r < 3; r++) {
      thirdAlone.push(await model.runtime.step({ ...thirds[r]!, past: alone[r]!.present }));
    }
    const thirdTogether = await Promise.all(thirds.map((input) => batched.step(input)));
    thirdTogether.forEach((out, r) => {
      expect(maxDiff(out.logits, thirdAlone[r]!.logits)).toBeLessThan(1e-4);
      expect(maxDiff(out.present.values[1]!, thirdAlone[r]!.present.values[1]!)).toBeLessThan(1e-5);
    });
    together.forEach((out, r) => {
      expect(maxDiff(out.logits, alone[r]!.logits)).toBeLessThan(1e-4);
      for (let l = 0; l < config.numLayers; l++) {
        expect(maxDiff(out.present.keys[l]!, alone[r]!.present.keys[l]!)).toBeLessThan(1e-5);
        expect(maxDiff(out.present.values[l]!, alone[r]!.present.values[l]!)).toBeLessThan(1e-5);
      }
    });
  });
});

async function prefill(prompt: number[]): Promise<KvState> {
  const { present } = await model.runtime.step({
    tokenIds: prompt,
    positions: range(0, prompt.length),
    past: model.runtime.emptyKv(),
  });
  return present;
}

describe("KV views and reused pass buffers", () => {
  test("merging into reused buffers gives what fresh arrays give, pass after pass", async () => {
    const buffers = new PassBuffers();
    const big = [
      treeStep(pasts[1]!, [20, 21, 22, 23]),
      { tokenIds: [60], positions: [pasts[0]!.length], past: pasts[0]! },
    ];
    const small = [
      { tokenIds: [61], positions: [pasts[0]!.length], past: pasts[0]! },
      treeStep(pasts[0]!, [12, 13, 50, 51]),
    ];
    // the small merge writes over what the big one left in the same arrays
    for (const inputs of [big, small, big]) {
      const fresh = mergeSteps(inputs, config);
      const reused = mergeSteps(inputs, config, undefined, buffers);
      expect([...reused.input.attentionMask!]).toEqual([...fresh.input.attentionMask!]);
      const a = fresh.split(await model.runtime.step(fresh.input));
      const b = reused.split(await model.runtime.step(reused.input));
      a.forEach((out, r) => {
        expect(maxDiff(out.logits, b[r]!.logits)).toBe(0);
        expect(maxDiff(out.present.keys[1]!, b[r]!.present.keys[1]!)).toBe(0);
      });
    }
  });

  test("sliceKv hands out views, not copies; a lone step over a view gets what the plain past gets", async () => {
    const batched = new BatchedRuntime(model.runtime);
    const p = pasts[1]!.length;
    // rtool's graph returns the new rows alone: a present is its past and them, as a view
    const full = (await batched.step({ tokenIds: [1, 2, 3], positions: [p, p + 1, p + 2], past: pasts[1]! }))
      .present as SplitKv;
    expect(full).toBeInstanceOf(SplitKv);
    expect(full.runs.at(-1)!.length).toBe(3);
    const prefix = batched.sliceKv(full, p + 1);
    expect(prefix).toBeInstanceOf(SplitKv);
    expect((prefix as SplitKv).runs[0]!.source).toBe(full.runs[0]!.source);
    // under half of what it would pin: a copy of its own
    expect(batched.sliceKv(full, 5)).not.toBeInstanceOf(SplitKv);
    expect(batched.kvBytes(prefix)).toBe(
      2 * config.numLayers * config.numKeyValueHeads * prefix.length * config.headDim * 4,
    );
    const step = (past: KvState) => ({ tokenIds: [44], positions: [past.length], past });
    const overView = await batched.step(step(prefix));
    // the view was copied into the pass's buffers, never made contiguous; the present is the
    // view and the new row, not the pass's reused buffers
    expect((prefix as SplitKv).materialized).toBe(false);
    expect((overView.present as SplitKv).runs.slice(0, -1)).toEqual([...(prefix as SplitKv).runs]);
    expect(batched.sliceKv(full, full.length)).toBe(full);
    const plain = await model.runtime.step(step(model.runtime.sliceKv(full, prefix.length)));
    expect(maxDiff(overView.logits, plain.logits)).toBeLessThan(1e-6);
    expect(maxDiff(overView.present.values[0]!, plain.present.values[0]!)).toBeLessThan(1e-6);
  });
});
