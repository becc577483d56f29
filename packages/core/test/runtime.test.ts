import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createModelFromWeights, runtimeForGraph } from "../src/create-model";
import { buildQwenGraph } from "../src/graph/qwen";
import { randomQwenWeights } from "../src/graph/random-weights";
import type { Model } from "../src/model";
import { StepInputError } from "../src/runtime/errors";
import type { KvState } from "../src/runtime/types";
import { argmax, maxAbsDiff, tinyQwen2, tinyQwen3 } from "./tiny-configs";

const prompt = [3, 17, 42, 5, 88, 23, 9, 61];
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

for (const config of [tinyQwen2, tinyQwen3]) {
  describe(`${config.architecture} runtime on random weights`, () => {
    let model: Model<undefined>;
    beforeAll(async () => {
      model = await createModelFromWeights(config, randomQwenWeights(config, 7), undefined, { threads: 1 });
    });
    afterAll(() => model.dispose());

    test("KV-cached generation equals full recompute (tokens identical, logits within 1e-5)", async () => {
      const generated = await model.generate(prompt, { maxTokens: 8 });
      expect(generated).toHaveLength(8);
      // recompute every step from scratch and compare logits with the cached step
      let past = model.runtime.emptyKv();
      let feed = prompt;
      const seq = [...prompt];
      for (let i = 0; i < 8; i++) {
        const cached = await model.runtime.step({
          tokenIds: feed,
          positions: range(past.length, feed.length),
          past,
        });
        const full = await model.forward(seq);
        expect(maxAbsDiff(cached.logits, full.logits)).toBeLessThanOrEqual(1e-5);
        expect(argmax(full.logits)).toBe(generated[i]);
        seq.push(generated[i]);
        past = cached.present;
        feed = [generated[i]];
      }
      expect(past.length).toBe(prompt.length + 7);
    });

    test("logitRows selects rows; each equals the causal prefix's last-position logits", async () => {
      const { logits } = await model.runtime.step({
        tokenIds: prompt,
        positions: range(0, prompt.length),
        past: model.runtime.emptyKv(),
        logitRows: [2, 7, 4],
      });
      expect(logits.length).toBe(3 * config.vocabSize);
      for (const [row, pos] of [2, 7, 4].entries()) {
        const alone = await model.forward(prompt.slice(0, pos + 1));
        expect(
          maxAbsDiff(logits.subarray(row * config.vocabSize, (row + 1) * config.vocabSize), alone.logits),
        ).toBeLessThanOrEqual(1e-5);
      }
    });

    test("tree-mask steps over two branches equal running each branch alone", async () => {
      const rt = model.runtime;
      const n = prompt.length;
      const prefix = (await rt.step({ tokenIds: prompt, positions: range(0, n), past: rt.emptyKv() }))
        .present;
      const branchA = [11, 12];
      const branchB = [21, 22, 23];
      // step 1: both branches at once, same start position n, each sees the prefix and itself
      const tokens = [...branchA, ...branchB];
      const owner = [0, 0, 1, 1, 1];
      const positions = [n, n + 1, n, n + 1, n + 2];
      const total = n + tokens.length;
      const mask = new Float32Array(tokens.length * total).fill(Number.NEGATIVE_INFINITY);
      for (let i = 0; i < tokens.length; i++) {
        mask.fill(0, i * total, i * total + n);
        for (let j = 0; j <= i; j++) if (owner[j] === owner[i]) mask[i * total + n + j] = 0;
      }
      const tree = await rt.step({
        tokenIds: tokens,
        positions,
        attentionMask: mask,
        past: prefix,
        logitRows: [1, 4],
      });
      const aloneA = await rt.step({ tokenIds: branchA, positions: range(n, 2), past: prefix });
      const aloneB = await rt.step({ tokenIds: branchB, positions: range(n, 3), past: prefix });
      const V = config.vocabSize;
      expect(maxAbsDiff(tree.logits.subarray(0, V), aloneA.logits)).toBeLessThanOrEqual(1e-5);
      expect(maxAbsDiff(tree.logits.subarray(V, 2 * V), aloneB.logits)).toBeLessThanOrEqual(1e-5);

      // step 2 on top of the shared tree cache: one more token per branch, other branch masked out
      const next = [31, 32];
      const total2 = total + 2;
      const mask2 = new Float32Array(2 * total2).fill(Number.NEGATIVE_INFINITY);
      const ownerAll = [...owner, 0, 1];
      for (let i = 0; i < 2; i++) {
        const row = i * total2;
        mask2.fill(0, row, row + n);
        for (let j = 0; j < tokens.length + 2; j++) {
          if (ownerAll[j] === i && (j < tokens.length || j === tokens.length + i)) mask2[row + n + j] = 0;
        }
      }
      const tree2 = await rt.step({
        tokenIds: next,
        positions: [n + 2, n + 3],
        attentionMask: mask2,
        past: tree.present,
        logitRows: [0, 1],
      });
      const aloneA2 = await rt.step({ tokenIds: [next[0]], positions: [n + 2], past: aloneA.present });
      const aloneB2 = await rt.step({ tokenIds: [next[1]], positions: [n + 3], past: aloneB.present });
      expect(maxAbsDiff(tree2.logits.subarray(0, V), aloneA2.logits)).toBeLessThanOrEqual(1e-5);
      expect(maxAbsDiff(tree2.logits.subarray(V, 2 * V), aloneB2.logits)).toBeLessThanOrEqual(1e-5);
    });

    test("sliceKv gives the cache of the shorter prefix; kvBytes counts its floats", async () => {
      const rt = model.runtime;
      const full = (await rt.step({ tokenIds: prompt, positions: range(0, 8), past: rt.emptyKv() })).present;
      const short = (
        await rt.step({ tokenIds: prompt.slice(0, 5), positions: range(0, 5), past: rt.emptyKv() })
      ).present;
      const sliced: KvState = rt.sliceKv(full, 5);
      expect(sliced.length).toBe(5);
      for (let l = 0; l < config.numLayers; l++) {
        expect(maxAbsDiff(sliced.keys[l], short.keys[l])).toBeLessThanOrEqual(1e-6);
        expect(maxAbsDiff(sliced.values[l], short.values[l])).toBeLessThanOrEqual(1e-6);
      }
      expect(rt.kvBytes(sliced)).toBe(
        2 * config.numLayers * config.numKeyValueHeads * 5 * config.headDim * 4,
      );
      expect(() => rt.sliceKv(full, 9)).toThrow(RangeError);
    });

    test("bad step inputs are typed errors naming the field", async () => {
      const rt = model.runtime;
      const past = rt.emptyKv();
      const cases: [Parameters<typeof rt.step>[0], string][] = [
        [{ tokenIds: [], positions: [], past }, "tokenIds"],
        [{ tokenIds: [1, 2], positions: [0], past }, "positions"],
        [{ tokenIds: [1, 2], positions: [0, 1], past, attentionMask: new Float32Array(3) }, "attentionMask"],
        [{ tokenIds: [1, config.vocabSize], positions: [0, 1], past }, "tokenIds"],
        [{ tokenIds: [1], positions: [-1], past }, "positions"],
        [{ tokenIds: [1], positions: [config.maxPositionEmbeddings], past }, "positions"],
        [{ tokenIds: [1], positions: [0], past, logitRows: [1] }, "logitRows"],
        [{ tokenIds: [1], positions: [0], past: { length: 0, keys: [], values: [] } }, "past"],
        [{ tokenIds: [1], positions: [0], past: { ...past, length: 2 } }, "past"],
      ];
      for (const [input, field] of cases) {
        const error = await rt.step(input).catch((e) => e);
        expect(error).toBeInstanceOf(StepInputError);
        expect((error as StepInputError).field).toBe(field);
      }
    });
  });
}

test("a graph above the in-memory limit goes through an external-data file and gives the same logits", async () => {
  const config = tinyQwen2;
  const weights = randomQwenWeights(config, 5);
  const inMemory = await runtimeForGraph(config, buildQwenGraph(config, weights), { threads: 1 });
  const viaFile = await runtimeForGraph(config, buildQwenGraph(config, weights), { threads: 1 }, 0);
  const input = { tokenIds: prompt, positions: range(0, prompt.length), past: inMemory.emptyKv() };
  const a = await inMemory.step(input);
  const b = await viaFile.step(input);
  expect(maxAbsDiff(a.logits, b.logits)).toBe(0);
  await inMemory.dispose();
  await viaFile.dispose();
});
