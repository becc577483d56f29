/**
 * LocalCompletions on a fixture model: prompts split over several trees (small branch budget)
 * still get the continuations they get alone; the grouping rule itself.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { loadModel, type Model, type RtoolTokenizer } from "@rtool/core";
import { branchGroups, LocalCompletions, sharedPrefixLength } from "./local-completions";

const FIXTURE = join(import.meta.dir, "../../../core/test/fixtures/qwen3-tied");
let model: Model<RtoolTokenizer>;

beforeAll(async () => {
  model = await loadModel(FIXTURE, { threads: 1, cache: false });
});
afterAll(() => model.dispose());

test("prompts over several trees get what they get alone", async () => {
  const split = new LocalCompletions(model, { branchTokens: 4, prefixCacheBytes: 0 });
  const whole = new LocalCompletions(model, { prefixCacheBytes: 0 });
  const prompts = [
    "user: go up<arg1>",
    "user: go up<arg2>",
    "nothing shared here",
    "user: go down now<function>",
  ];
  const request = { maxTokens: 5, temperature: 0, stop: ["</arg1>"], ignoreEos: true };
  const together = await split.complete({ ...request, prompts });
  const inOneTree = await whole.complete({ ...request, prompts });
  expect(together.choices).toEqual(inOneTree.choices);
  expect(together.steps).toBeGreaterThan(inOneTree.steps);
  for (const [i, prompt] of prompts.entries()) {
    const alone = await whole.complete({ ...request, prompts: [prompt] });
    expect(together.choices[i]).toEqual(alone.choices[0]!);
  }
});

test("branchGroups keeps trees within the budget outside their shared prefix", () => {
  const a = [1, 2, 3, 4, 5];
  const b = [1, 2, 3, 4, 6];
  const c = [9, 9, 9];
  expect(sharedPrefixLength([a, b])).toBe(4);
  expect(sharedPrefixLength([a])).toBe(4);
  expect(sharedPrefixLength([a, c])).toBe(0);
  expect(branchGroups([a, b, c], 2)).toEqual([[0, 1], [2]]);
  expect(branchGroups([a, b, c], 100)).toEqual([[0, 1, 2]]);
  expect(branchGroups([c, a], 1)).toEqual([[0], [1]]);
});
