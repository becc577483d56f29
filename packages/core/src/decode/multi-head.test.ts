import { describe, expect, test } from "bun:test";
import type { HeadStops, TextConstraint } from "./head-text";
import { type DecodeHeadsInput, DecodeInputError, decodeHeads, type HeadPlan } from "./multi-head";
import { choiceOf, onlyNull } from "./testing/choices";
import { HashRuntime, ListVocab } from "./testing/hash-runtime";
import { VocabIndex } from "./token-vocab";

const HEADS = ["function", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "content"];
const SPECIAL = [...HEADS.flatMap((h) => [`<${h}>`, `</${h}>`]), "<|null|>", "<|im_end|>"];
const TEXT = [..."abcdefghijklmnopqrstuvwxyz_ 0123456789.-", "mo", "ve", "fire", "use", "skill", "s1", "s2"];
const vocab = new ListVocab([...SPECIAL, ...TEXT]);
/** The same texts without the tags and markers as tokens: they are spelled with several tokens. */
const plainVocab = new ListVocab([...TEXT, "<", ">", "/", "|"]);

const stopsOf = (head: string): HeadStops => ({ value: [`</${head}>`, "<|im_end|>"], null: ["<|null|>"] });

function plans(
  v: ListVocab,
  count: number,
  constraint?: (head: string) => TextConstraint | null,
): HeadPlan[] {
  return HEADS.slice(0, count).map((name) => ({
    name,
    tagIds: v.encode(`<${name}>`),
    stops: stopsOf(name),
    constraint: constraint ? constraint(name) : null,
  }));
}

function runtimeFor(v: ListVocab): HashRuntime {
  const runtime = new HashRuntime(v.size);
  // make stop markers likely enough that heads end at different lengths
  for (const h of HEADS) if (v.texts.includes(`</${h}>`)) runtime.bias.set(v.id(`</${h}>`), 0.08);
  if (v.texts.includes("<|null|>")) runtime.bias.set(v.id("<|null|>"), 0.04);
  return runtime;
}

const prompt = (v: ListVocab) => v.encode("move the unit north and fire s1 now");

function input(runtime: HashRuntime, v: ListVocab, heads: HeadPlan[], extra: Partial<DecodeHeadsInput> = {}) {
  return {
    runtime,
    vocab: new VocabIndex(v),
    past: runtime.emptyKv(),
    pending: prompt(v),
    heads,
    maxTokens: 12,
    ...extra,
  };
}

const tokensOf = (r: Awaited<ReturnType<typeof decodeHeads>>) => r.heads.map((h) => h.tokenIds);

describe("decodeHeads equivalence (tree batch == each head alone)", () => {
  for (const [name, v] of [
    ["single-token tags", vocab],
    ["multi-token tags and markers", plainVocab],
  ] as const) {
    for (const count of [1, 3, 8]) {
      test(`${name}: ${count} heads`, async () => {
        const runtime = runtimeFor(v);
        const heads = plans(v, count);
        const together = await decodeHeads(input(runtime, v, heads));
        for (let i = 0; i < count; i++) {
          const alone = await decodeHeads(input(runtimeFor(v), v, [heads[i]]));
          expect(together.heads[i].tokenIds).toEqual(alone.heads[0].tokenIds);
          expect(together.heads[i].text).toEqual(alone.heads[0].text);
        }
        // one forward pass per step, as many steps as the longest head needs
        const longest = Math.max(...together.heads.map((h) => h.tokenIds.length));
        expect(together.steps).toBe(longest);
        expect(runtime.steps).toBe(together.steps);
      });
    }
  }

  test("dead heads leave the batch at once", async () => {
    const runtime = runtimeFor(vocab);
    const result = await decodeHeads(input(runtime, vocab, plans(vocab, 8)));
    const promptLength = prompt(vocab).length;
    const lengths = result.heads.map((h) => h.tokenIds.length);
    // rows fed: the prompt, each tag, then each head's generated tokens except the last one
    const expected = promptLength + 8 + lengths.reduce((s, n) => s + n - 1, 0);
    expect(runtime.rowsFed).toBe(expected);
  });

  test("a cached prefix gives the same tokens and returns the prompt KV for the cache", async () => {
    const runtime = runtimeFor(vocab);
    const cold = await decodeHeads(input(runtime, vocab, plans(vocab, 8)));
    expect(cold.promptKv?.length).toBe(prompt(vocab).length);
    const split = 10;
    const past = runtime.sliceKv(cold.promptKv!, split);
    const warm = await decodeHeads(
      input(runtime, vocab, plans(vocab, 8), { past, pending: prompt(vocab).slice(split) }),
    );
    expect(tokensOf(warm)).toEqual(tokensOf(cold));
    const full = await decodeHeads(
      input(runtime, vocab, plans(vocab, 8), { past: cold.promptKv!, pending: [] }),
    );
    expect(tokensOf(full)).toEqual(tokensOf(cold));
    expect(full.promptKv).toBeNull();
  });

  test("maxTokens caps a head", async () => {
    const runtime = new HashRuntime(vocab.size);
    const result = await decodeHeads(input(runtime, vocab, plans(vocab, 3), { maxTokens: 2 }));
    for (const head of result.heads) {
      expect(head.tokenIds.length).toBeLessThanOrEqual(2);
      if (head.tokenIds.length === 2 && head.marker === null) expect(head.stoppedBy).toBe("maxTokens");
    }
  });

  test("sampling is seeded and per head independent of the batch", async () => {
    const heads = plans(vocab, 3);
    const a = await decodeHeads(input(runtimeFor(vocab), vocab, heads, { temperature: 0.7, seed: 5 }));
    const b = await decodeHeads(input(runtimeFor(vocab), vocab, heads, { temperature: 0.7, seed: 5 }));
    expect(tokensOf(a)).toEqual(tokensOf(b));
    const alone = await decodeHeads(
      input(runtimeFor(vocab), vocab, [heads[2]], { temperature: 0.7, seed: 5 }),
    );
    expect(alone.heads[0].tokenIds).toEqual(a.heads[2].tokenIds);
  });

  test("bad input is a typed error", async () => {
    const runtime = new HashRuntime(vocab.size);
    await expect(
      decodeHeads(input(runtime, vocab, plans(vocab, 1), { maxTokens: 0 })),
    ).rejects.toBeInstanceOf(DecodeInputError);
    const noTag = [{ ...plans(vocab, 1)[0], tagIds: [] }];
    await expect(decodeHeads(input(runtime, vocab, noTag))).rejects.toThrow("heads[0].tagIds");
  });
});

describe("decodeHeads with constraints", () => {
  const tools = ["move", "use_skill", "fire"];
  const skills = ["s1", "s2", "skill"];

  for (const v of [vocab, plainVocab]) {
    test(`constrained heads always give valid values (${v === vocab ? "single" : "multi"}-token markers)`, async () => {
      for (let seed = 0; seed < 12; seed++) {
        const runtime = new HashRuntime(v.size);
        const promptIds = v.encode(`order ${seed} ${"abc".repeat(seed % 4)}`);
        const result = await decodeHeads({
          ...input(
            runtime,
            v,
            plans(v, 2, (h) => (h === "function" ? choiceOf(tools) : choiceOf(skills, false))),
          ),
          pending: promptIds,
          maxTokens: 16,
        });
        expect(tools).toContain(result.heads[0].text.trim());
        expect(skills).toContain(result.heads[1].text.trim());
      }
    });
  }

  test("ids past the tokenizer (a padded model vocabulary) are never chosen under a constraint", async () => {
    const runtime = new HashRuntime(vocab.size + 4);
    for (let id = vocab.size; id < vocab.size + 4; id++) runtime.bias.set(id, 5);
    const result = await decodeHeads({
      ...input(
        runtime,
        vocab,
        plans(vocab, 1, () => choiceOf(tools)),
      ),
      maxTokens: 16,
    });
    expect(tools).toContain(result.heads[0].text);
    expect(result.heads[0].tokenIds.every((id) => id < vocab.size)).toBe(true);
  });

  test("forced tokens skip forward passes without changing the values", async () => {
    const constraint = (h: string) => (h === "function" ? choiceOf(tools) : choiceOf(skills, false));
    for (let seed = 0; seed < 8; seed++) {
      const pending = vocab.encode(`go ${seed}`);
      const slow = new HashRuntime(vocab.size);
      const fast = new HashRuntime(vocab.size);
      const a = await decodeHeads({
        ...input(slow, vocab, plans(vocab, 2, constraint)),
        pending,
        skipForced: false,
      });
      const b = await decodeHeads({ ...input(fast, vocab, plans(vocab, 2, constraint)), pending });
      expect(b.heads.map((h) => h.text.trim())).toEqual(a.heads.map((h) => h.text.trim()));
      expect(b.steps).toBeLessThanOrEqual(a.steps);
      expect(b.heads.some((h) => h.forcedTokens > 0)).toBe(true);
      expect(fast.rowsFed).toBeLessThan(slow.rowsFed);
    }
  });

  test("a single tool is forced whole: no forward pass for the function head", async () => {
    const runtime = new HashRuntime(vocab.size);
    const result = await decodeHeads(
      input(
        runtime,
        vocab,
        plans(vocab, 1, () => choiceOf(["fire"])),
      ),
    );
    expect(result.heads[0]).toMatchObject({ text: "fire", stoppedBy: "forced", marker: "</function>" });
    expect(result.steps).toBe(0);
  });

  test("refinement narrows the arg heads once the function is known and restarts ruled-out text", async () => {
    const union = choiceOf([...skills, "north"], false);
    const reported: string[] = [];
    const runtime = new HashRuntime(vocab.size);
    const result = await decodeHeads({
      ...input(runtime, vocab, [
        ...plans(vocab, 1, () => choiceOf(["move", "fire"])),
        ...plans(vocab, 4, () => union).slice(1),
      ]),
      holdReportsUntil: "function",
      onHeadDone: (h) => reported.push(h.name),
      refine: (finished) =>
        finished.name === "function"
          ? new Map([
              ["arg1", choiceOf(["north"], false)],
              ["arg2", onlyNull],
            ])
          : null,
    });
    expect(result.heads[1].text.trim()).toBe("north");
    expect(result.heads[2]).toMatchObject({ isNull: true, marker: "<|null|>" });
    expect(skills.concat("north")).toContain(result.heads[3].text.trim());
    expect(reported[0]).toBe("function");
    expect([...reported].sort()).toEqual(["arg1", "arg2", "arg3", "function"]);
  });
});

describe("decodeHeads with prompt-lookup drafts", () => {
  const withDrafts = (runtime: HashRuntime, v: ListVocab, heads: HeadPlan[], draftTokens: number) =>
    input(runtime, v, heads, { promptIds: prompt(v), draftTokens });

  /** A runtime whose heads copy parts of the prompt, as argument heads do. */
  function copyingRuntime(v: ListVocab): HashRuntime {
    const runtime = runtimeFor(v);
    runtime.script.set(v.id("<arg1>"), v.encode("north and fire</arg1>"));
    runtime.script.set(v.id("<arg2>"), v.encode("unit</arg2>"));
    runtime.script.set(v.id("<arg3>"), v.encode("fire s1 n</arg3>"));
    return runtime;
  }

  for (const count of [1, 3, 8]) {
    test(`${count} heads: the same tokens as without drafts, in no more passes`, async () => {
      for (const make of [runtimeFor, copyingRuntime]) {
        const heads = plans(vocab, count);
        const plain = await decodeHeads(input(make(vocab), vocab, heads));
        const drafted = await decodeHeads(withDrafts(make(vocab), vocab, heads, 4));
        expect(tokensOf(drafted)).toEqual(tokensOf(plain));
        expect(drafted.heads.map((h) => h.text)).toEqual(plain.heads.map((h) => h.text));
        expect(drafted.steps).toBeLessThanOrEqual(plain.steps);
      }
    });
  }

  test("copied values take fewer passes; drafts the head does not write are dropped", async () => {
    const heads = plans(vocab, 4);
    const plain = await decodeHeads(input(copyingRuntime(vocab), vocab, heads));
    const drafted = await decodeHeads(withDrafts(copyingRuntime(vocab), vocab, heads, 4));
    expect(drafted.heads[1].text).toBe("north and fire");
    expect(drafted.heads[3].text).toBe("fire s1 n");
    expect(tokensOf(drafted)).toEqual(tokensOf(plain));
    expect(drafted.steps).toBeLessThan(plain.steps);
    expect(drafted.drafts.kept).toBeGreaterThan(0);
    // "fire s1 n" then the prompt goes on with "ow": drafted, not written
    expect(drafted.drafts.kept).toBeLessThan(drafted.drafts.fed);
    expect(plain.drafts).toEqual({ fed: 0, kept: 0 });
  });

  test("a warm prefix and multi-token tags give the same tokens with drafts", async () => {
    const cases = [
      [vocab, copyingRuntime],
      [plainVocab, runtimeFor],
    ] as const;
    for (const [v, make] of cases) {
      const heads = plans(v, 3);
      const cold = await decodeHeads(withDrafts(make(v), v, heads, 3));
      const runtime = make(v);
      const past = runtime.sliceKv(cold.promptKv!, 10);
      const warm = await decodeHeads({
        ...withDrafts(runtime, v, heads, 3),
        past,
        pending: prompt(v).slice(10),
      });
      const plain = await decodeHeads(input(make(v), v, heads));
      expect(tokensOf(warm)).toEqual(tokensOf(plain));
      expect(tokensOf(cold)).toEqual(tokensOf(plain));
    }
  });

  test("constrained heads keep their values with drafts", async () => {
    const heads = plans(vocab, 3, (h) => (h === "arg1" ? choiceOf(["north and fire", "south"]) : null));
    const plain = await decodeHeads(input(copyingRuntime(vocab), vocab, heads));
    const drafted = await decodeHeads(withDrafts(copyingRuntime(vocab), vocab, heads, 4));
    expect(tokensOf(drafted)).toEqual(tokensOf(plain));
    expect(drafted.heads[1].text).toBe("north and fire");
  });

  test("nothing is drafted when sampling or without the prompt; a bad draftTokens is a typed error", async () => {
    const heads = plans(vocab, 3);
    const sampled = await decodeHeads({
      ...withDrafts(copyingRuntime(vocab), vocab, heads, 4),
      temperature: 0.7,
      seed: 2,
    });
    expect(sampled.drafts.fed).toBe(0);
    const noPrompt = await decodeHeads(input(copyingRuntime(vocab), vocab, heads, { draftTokens: 4 }));
    expect(noPrompt.drafts.fed).toBe(0);
    await expect(decodeHeads(withDrafts(copyingRuntime(vocab), vocab, heads, -1))).rejects.toThrow(
      "draftTokens",
    );
  });
});
