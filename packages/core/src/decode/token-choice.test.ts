import { describe, expect, test } from "bun:test";
import { ListVocab } from "./testing/hash-runtime";
import { argmax, chooseGreedy, chooseSampled, seededRandom, topIndices } from "./token-choice";
import { VocabIndex } from "./token-vocab";

describe("argmax and topIndices", () => {
  test("ties go to the lower index", () => {
    expect(argmax([1, 3, 3, 2])).toBe(1);
    expect(topIndices([1, 3, 3, 2, 5], 3)).toEqual([4, 1, 2]);
    expect(topIndices([0.5], 4)).toEqual([0]);
  });

  test("large k (selection) agrees with a full sort", () => {
    const random = seededRandom(11);
    const row = Array.from({ length: 5000 }, () => Math.floor(random() * 300) / 7);
    const sorted = row.map((_, i) => i).sort((a, b) => row[b] - row[a] || a - b);
    for (const k of [65, 500, 4999, 5000, 6000]) expect(topIndices(row, k)).toEqual(sorted.slice(0, k));
  });
});

describe("VocabIndex.acceptedTokens", () => {
  const vocab = new ListVocab(["m", "mo", "move", "v", "ve", "u", "use", "x", "", "o"]);
  const index = new VocabIndex(vocab);
  const names = ["move", "use"];
  const prefixOfName = (text: string) => names.some((n) => n.startsWith(text));

  test("finds exactly the tokens that keep the text a prefix", () => {
    expect(index.acceptedTokens("", prefixOfName).sort((a, b) => a - b)).toEqual([0, 1, 2, 5, 6]);
    expect(index.acceptedTokens("mo", prefixOfName).sort((a, b) => a - b)).toEqual([3, 4]);
    expect(index.acceptedTokens("move", prefixOfName)).toEqual([]);
  });

  test("agrees with testing every token", () => {
    const ok = (text: string) => /^[mov]*$/.test(text) && text.length <= 3;
    for (const base of ["", "m", "mo", "mov"]) {
      const brute = vocab.texts.flatMap((t, i) => (t.length > 0 && ok(base + t) ? [i] : []));
      expect(index.acceptedTokens(base, ok).sort((a, b) => a - b)).toEqual(brute);
    }
  });
});

describe("chooseGreedy", () => {
  const allowOnly = (ids: number[]) => ({ allows: (id: number) => ids.includes(id), all: () => ids });

  test("the argmax when unconstrained or allowed", () => {
    expect(chooseGreedy([0, 5, 1], null)).toBe(1);
    expect(chooseGreedy([0, 5, 1], allowOnly([1]))).toBe(1);
  });

  test("the best allowed token, from the top few or the whole allowed set", () => {
    expect(chooseGreedy([0, 5, 1, 3], allowOnly([0, 2]))).toBe(2);
    const row = Array.from({ length: 500 }, (_, i) => 500 - i);
    expect(chooseGreedy(row, allowOnly([450, 499]))).toBe(450);
    expect(chooseGreedy(row, allowOnly([]))).toBe(-1);
  });
});

describe("chooseSampled", () => {
  test("is deterministic for a seed and stays in the allowed set", () => {
    const row = [0.1, 2, 0.3, 1.5, 0.2];
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 20 }, () => chooseSampled(row, 1, random, null));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(new Set(draw(7)).size).toBeGreaterThan(1);
    const random = seededRandom(3);
    const allowed = { allows: (id: number) => id === 0 || id === 4, all: () => [0, 4] };
    for (let i = 0; i < 30; i++) expect([0, 4]).toContain(chooseSampled(row, 0.5, random, allowed));
  });
});
