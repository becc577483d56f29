import { expect, test } from "bun:test";
import { QWEN_SHAPES } from "../model/shapes";
import { DRAFT_DEFAULT_MAX_PARAMS, defaultDraftTokens, draftFromPrompt } from "./prompt-lookup";

test("the longest suffix found wins, at its latest occurrence", () => {
  const prompt = [1, 2, 3, 9, 2, 3, 4, 5, 6];
  // [2, 3] occurs twice: the later one is followed by 4, 5
  expect(draftFromPrompt(prompt, [7, 2, 3], { maxTokens: 2 })).toEqual([4, 5]);
  // [1, 2, 3] only at the start
  expect(draftFromPrompt(prompt, [1, 2, 3], { maxTokens: 2 })).toEqual([9, 2]);
  // no trigram or bigram: the unigram 9
  expect(draftFromPrompt(prompt, [8, 8, 9], { maxTokens: 3 })).toEqual([2, 3, 4]);
});

test("no match, nothing after the match, a zero budget or too short a suffix draft nothing", () => {
  expect(draftFromPrompt([1, 2, 3], [7], { maxTokens: 2 })).toEqual([]);
  expect(draftFromPrompt([1, 2, 3], [3], { maxTokens: 2 })).toEqual([]);
  expect(draftFromPrompt([1, 2, 3], [1], { maxTokens: 0 })).toEqual([]);
  expect(draftFromPrompt([1, 2, 3], [9, 1], { maxTokens: 2, minNgram: 2 })).toEqual([]);
  expect(draftFromPrompt([1, 2, 3], [], { maxTokens: 2 })).toEqual([]);
  // the draft stops at the end of the prompt
  expect(draftFromPrompt([1, 2, 3], [2], { maxTokens: 5 })).toEqual([3]);
});

test("drafting is on by default for small models only", () => {
  // rt-tiny's shape (5.2M parameters) and Qwen2.5-0.5B's (494M)
  expect(defaultDraftTokens(QWEN_SHAPES["rt-tiny"])).toBe(4);
  expect(defaultDraftTokens(QWEN_SHAPES["qwen2.5-0.5b"])).toBe(0);
  expect(DRAFT_DEFAULT_MAX_PARAMS).toBe(50e6);
});
