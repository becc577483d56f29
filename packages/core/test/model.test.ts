import { afterAll, beforeAll, expect, test } from "bun:test";
import { createModelFromWeights } from "../src/create-model";
import { randomQwenWeights } from "../src/graph/random-weights";
import type { Model } from "../src/model";
import { RuntimeDisposedError } from "../src/runtime/errors";
import { tinyQwen3 } from "./tiny-configs";

let model: Model<undefined>;
beforeAll(async () => {
  model = await createModelFromWeights(tinyQwen3, randomQwenWeights(tinyQwen3, 11), undefined, {
    threads: 1,
  });
});
afterAll(() => model.dispose());

test("generate stops after a stop token (included) and honours maxTokens", async () => {
  const prompt = [4, 8, 15, 16, 23, 42];
  const free = await model.generate(prompt, { maxTokens: 6 });
  expect(free).toHaveLength(6);
  const stopped = await model.generate(prompt, { maxTokens: 6, stopTokens: [free[2]] });
  expect(stopped).toEqual(free.slice(0, free.indexOf(free[2]) + 1));
  expect(await model.generate(prompt, { maxTokens: 0 })).toEqual([]);
});

test("forward and generate refuse an empty prompt", async () => {
  await expect(model.forward([])).rejects.toBeInstanceOf(RangeError);
  await expect(model.generate([])).rejects.toBeInstanceOf(RangeError);
});

test("config is the runtime's config", () => {
  expect(model.config).toBe(model.runtime.config);
  expect(model.tokenizer).toBeUndefined();
});

test("a disposed model's runtime refuses steps with a typed error", async () => {
  const short = await createModelFromWeights(tinyQwen3, randomQwenWeights(tinyQwen3, 1), undefined, {
    threads: 1,
  });
  await short.dispose();
  await short.dispose(); // twice is fine
  await expect(short.forward([1, 2])).rejects.toBeInstanceOf(RuntimeDisposedError);
});
