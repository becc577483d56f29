import { describe, expect, test } from "bun:test";
import {
  ASR_CONFUSIONS_EN,
  ASR_CONFUSIONS_ZH,
  type FrameFamily,
  HELDOUT_FRAMES,
  TRAIN_FRAMES,
} from "./frames";

const ALL: readonly FrameFamily[] = [...TRAIN_FRAMES, ...HELDOUT_FRAMES];
const frames = (fams: readonly FrameFamily[], lang?: "en" | "zh") =>
  fams.filter((f) => !lang || f.lang === lang).flatMap((f) => [...f.frames]);

/** Frame text with the slot, punctuation and case removed: catches near-duplicates. */
const norm = (s: string) =>
  s
    .replace("{cmd}", "#")
    .toLowerCase()
    .replace(/[\s.,!?:;'…，。！？：；、]+/g, " ")
    .trim();

describe("frames", () => {
  test("every frame has exactly one {cmd} and no other braces", () => {
    for (const f of frames(ALL)) {
      expect(f.split("{cmd}").length - 1).toBe(1);
      expect(f.replace("{cmd}", "")).not.toMatch(/[{}]/);
    }
  });

  test("no digits in frames", () => {
    for (const f of frames(ALL)) expect(f).not.toMatch(/[0-9０-９]/);
  });

  test("English frames are printable ASCII (no curly quotes)", () => {
    for (const f of frames(ALL, "en")) expect(f).toMatch(/^[\x20-\x7e]+$/);
  });

  test("Chinese frames contain Chinese characters or full-width punctuation", () => {
    for (const f of frames(ALL, "zh")) expect(f).toMatch(/[\u4e00-\u9fff\uff01-\uff1f\u3001\u3002\u2026]/);
  });

  test("frames are unique, even ignoring punctuation and case within a language", () => {
    const all = frames(ALL);
    expect(new Set(all).size).toBe(all.length);
    const seen = new Map<string, string>();
    for (const fam of ALL)
      for (const f of fam.frames) {
        const k = `${fam.lang}:${norm(f)}`;
        if (seen.has(k)) throw new Error(`near-duplicate frames: "${seen.get(k)}" / "${f}"`);
        seen.set(k, f);
      }
  });

  test("no frame is shared between train and held-out", () => {
    const train = new Set(frames(TRAIN_FRAMES).map(norm));
    for (const f of frames(HELDOUT_FRAMES)) expect(train.has(norm(f))).toBe(false);
  });

  test("family ids are unique and held-out ids are disjoint from train ids", () => {
    const ids = ALL.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    const trainIds = new Set(TRAIN_FRAMES.map((f) => f.id));
    for (const f of HELDOUT_FRAMES) expect(trainIds.has(f.id)).toBe(false);
    for (const f of ALL) expect(f.id.startsWith(`${f.lang}.`)).toBe(true);
  });

  test("counts: >= 8 train families per language, 15-40 frames each, >= 250 frames per language", () => {
    for (const lang of ["en", "zh"] as const) {
      const fams = TRAIN_FRAMES.filter((f) => f.lang === lang);
      expect(fams.length).toBeGreaterThanOrEqual(8);
      for (const f of fams) {
        expect(f.frames.length).toBeGreaterThanOrEqual(15);
        expect(f.frames.length).toBeLessThanOrEqual(40);
      }
      expect(frames(TRAIN_FRAMES, lang).length).toBeGreaterThanOrEqual(250);
    }
  });

  test("counts: >= 3 held-out families per language, 10-20 frames each", () => {
    for (const lang of ["en", "zh"] as const) {
      const fams = HELDOUT_FRAMES.filter((f) => f.lang === lang);
      expect(fams.length).toBeGreaterThanOrEqual(3);
      for (const f of fams) {
        expect(f.frames.length).toBeGreaterThanOrEqual(10);
        expect(f.frames.length).toBeLessThanOrEqual(20);
      }
    }
  });
});

describe("ASR confusions", () => {
  const NUMBER_WORDS =
    /^(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|first|second|third|half)$/;
  const ZH_NUMERALS = /[零一二三四五六七八九十百千万两]/;

  test("English: >= 60 distinct pairs of lowercase ASCII words, no numbers", () => {
    expect(ASR_CONFUSIONS_EN.length).toBeGreaterThanOrEqual(60);
    const keys = ASR_CONFUSIONS_EN.map(([a, b]) => `${a}>${b}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [a, b] of ASR_CONFUSIONS_EN) {
      expect(a).not.toBe(b);
      expect(a).toMatch(/^[a-z]+$/);
      expect(b).toMatch(/^[a-z]+$/);
      expect(a).not.toMatch(NUMBER_WORDS);
      expect(b).not.toMatch(NUMBER_WORDS);
    }
  });

  test("Chinese: >= 30 distinct pairs of equal-length Chinese words, numerals untouched", () => {
    expect(ASR_CONFUSIONS_ZH.length).toBeGreaterThanOrEqual(30);
    const keys = ASR_CONFUSIONS_ZH.map(([a, b]) => `${a}>${b}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [a, b] of ASR_CONFUSIONS_ZH) {
      expect(a).not.toBe(b);
      expect(a).toMatch(/^[\u4e00-\u9fff]+$/);
      expect(b).toMatch(/^[\u4e00-\u9fff]+$/);
      expect(a.length).toBe(b.length);
      // a numeral may stay in the word (一下), but a slip must never change one
      const numA = [...a].filter((c) => ZH_NUMERALS.test(c)).join("");
      const numB = [...b].filter((c) => ZH_NUMERALS.test(c)).join("");
      if (numA) expect(numB).toBe(numA);
    }
  });
});
