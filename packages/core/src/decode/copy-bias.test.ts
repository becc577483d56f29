import { describe, expect, test } from "bun:test";
import { biasCopies, CopySource, trailingWord, userTurn } from "./copy-bias";
import { VocabIndex } from "./token-vocab";

// A vocabulary of whole texts: id i is TEXTS[i].
const TEXTS = ["Sa", "eg", "eik", "zia", "x", "<|null|>", "(", "e", "42", "g"];
const vocab = {
  size: TEXTS.length,
  tokenText: (id: number) => TEXTS[id]!,
  decode: (ids: readonly number[]) => ids.map((id) => TEXTS[id]).join(""),
  encode: () => [],
};
const index = new VocabIndex(vocab);
const id = (text: string) => TEXTS.indexOf(text);

describe("copy bias", () => {
  const source = new CopySource(
    "<|im_start|>user\nOperators: Saegeikzia(north) Sirk42(east)\n\nsaegeikzia, retreat",
    index,
  );

  test("continuations are the letters and digits after a word's start, matched ignoring case", () => {
    expect(source.continuations("Sa")).toEqual(["egeikzia"]);
    expect(source.continuations("sir")).toEqual(["k42"]);
    // inside a word is not a start; a whole word has nothing after it
    expect(source.continuations("geik")).toEqual([]);
    expect(source.continuations("Saegeikzia")).toEqual([]);
    // an empty value may begin any word of the request
    expect(source.continuations("")).toContain("Saegeikzia");
    expect(source.continuations("")).toContain("Sirk42");
  });

  test("only the tokens that continue the word are raised, by the bias", () => {
    const row = new Float32Array(TEXTS.length);
    const biased = biasCopies(row, "Saeg", source, 3);
    expect(biased).not.toBe(row);
    // `Saeg` is only the start of a longer word: a copy cut short, so twice the bias
    expect(biased[id("eik")]).toBe(6);
    expect(biased[id("e")]).toBe(6);
    for (const other of ["eg", "zia", "x", "<|null|>", "(", "g", "Sa"]) expect(biased[id(other)]).toBe(0);
    expect(row[id("eik")]).toBe(0);
    // an empty value: the tokens that begin a word of the request
    const first = biasCopies(row, "", source, 3);
    expect(first[id("Sa")]).toBe(3);
    expect(first[id("eg")]).toBe(0);
    // a value that does not end in a word of the request, or a zero bias: the row as it is
    expect(biasCopies(row, "Sa(", source, 3)).toBe(row);
    expect(biasCopies(row, "Qu", source, 3)).toBe(row);
    expect(biasCopies(row, "Sa", source, 0)).toBe(row);
  });

  test("a finished copy is not spelled on: letters after a whole word nothing continues lose the bias", () => {
    const row = new Float32Array(TEXTS.length);
    const done = biasCopies(row, "Saegeikzia", source, 3);
    for (const word of ["Sa", "eg", "eik", "zia", "x", "e", "42", "g"]) expect(done[id(word)]).toBe(-3);
    // the marker and punctuation are left as they are
    expect(done[id("<|null|>")]).toBe(0);
    expect(done[id("(")]).toBe(0);
  });

  test("a word the request also spells whole, or a number, gets the bias once", () => {
    const both = new CopySource("Sa or Saegeikzia, day 1042", index);
    const row = new Float32Array(TEXTS.length);
    expect(biasCopies(row, "Sa", both, 3)[id("eg")]).toBe(3);
    // numbers are often computed from the request's, not copied: never doubled
    expect(biasCopies(row, "10", both, 3)[id("42")]).toBe(3);
  });

  test("the word a value ends with, and the user turn of a prompt", () => {
    expect(trailingWord("Saeg")).toBe("Saeg");
    expect(trailingWord("move to Sa")).toBe("Sa");
    expect(trailingWord("a, ")).toBe("");
    expect(
      userTurn("<|im_start|>system\nx<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"),
    ).toBe("\nhi");
    expect(userTurn("no markers")).toBe("no markers");
  });
});

describe("copy bias over bytes", () => {
  // 欧 is E6 AC A7, 丝 E4 B8 9D: a byte-level vocabulary splits 欧 over two tokens.
  const BYTES: number[][] = [
    [0xe6, 0xac],
    [0xa7],
    [0xe4, 0xb8, 0x9d],
    [0xe6, 0xac, 0xa7],
    [0x41],
    [0xe7, 0x8f],
  ];
  const lossy = new TextDecoder();
  const byteVocab = {
    size: BYTES.length,
    tokenText: (id: number) => lossy.decode(new Uint8Array(BYTES[id]!)),
    tokenBytes: (id: number) => new Uint8Array(BYTES[id]!),
    decode: (ids: readonly number[]) => lossy.decode(new Uint8Array(ids.flatMap((i) => BYTES[i]!))),
    encode: () => [],
  };
  const source = new CopySource("Operators: 欧丝(north)\n\n让欧丝退下", new VocabIndex(byteVocab));

  test("a character split over tokens is nudged at its start and continued from its bytes", () => {
    const row = new Float32Array(BYTES.length);
    const first = biasCopies(row, "", source, 3);
    // E6 AC, the whole 欧 and 丝 (inside the Han run) begin a word; A7 does not
    expect([...first]).toEqual([3, 0, 3, 3, 0, 0]);
    const mid = biasCopies(row, "", source, 3, new Uint8Array([0xe6, 0xac]));
    expect([...mid]).toEqual([0, 3, 0, 0, 0, 0]); // only A7 finishes the begun 欧
    const next = biasCopies(row, "欧", source, 3);
    expect([...next]).toEqual([0, 0, 3, 0, 0, 0]); // 丝 follows 欧
    // a begun character the request never spells there: nothing
    expect(biasCopies(row, "", source, 3, new Uint8Array([0xe7, 0x8f]))).toBe(row);
  });
});

describe("copy bias in scripts written without spaces", () => {
  const TEXTS = ["让", "欧", "丝", "冬天", "去", "A", "b"];
  const vocab = {
    size: TEXTS.length,
    tokenText: (id: number) => TEXTS[id]!,
    decode: (ids: readonly number[]) => ids.map((id) => TEXTS[id]).join(""),
    encode: () => [],
  };
  const source = new CopySource("让欧丝冬天去北面 Ab", new VocabIndex(vocab));

  test("a name inside a run of Han characters starts at any of its characters", () => {
    expect(source.continuations("欧丝")).toEqual(["冬天去北面"]);
    expect(source.continuations("")).toContain("欧丝冬天去北面");
    // letters inside a Latin word are still not a start
    expect(source.continuations("b")).toEqual([]);
    const row = new Float32Array(TEXTS.length);
    expect([...biasCopies(row, "", source, 3)]).toEqual([3, 3, 3, 3, 3, 3, 0]);
    expect([...biasCopies(row, "欧", source, 3)]).toEqual([0, 0, 3, 0, 0, 0, 0]);
  });

  test("a copy is complete where the request follows the word with punctuation, not a space", () => {
    const roster = new CopySource(
      "Operators: 伊芙利特(center) Lappland(east)\n\n伊芙利特改成进攻 call Tower B",
      index,
    );
    expect(roster.endsAtPunctuation("伊芙利特")).toBe(true);
    expect(roster.endsAtPunctuation("lappland")).toBe(true);
    // a space may go on to the next word of a name; inside a word is no end
    expect(roster.endsAtPunctuation("Tower")).toBe(false);
    expect(roster.endsAtPunctuation("Lapp")).toBe(false);
    // the end of the request ends a word
    expect(roster.endsAtPunctuation("B")).toBe(true);
    // a hyphen or a period goes on within a name
    const ids = new CopySource("target set to Node-7, then Mr. Lee", index);
    expect(ids.endsAtPunctuation("Node")).toBe(false);
    expect(ids.endsAtPunctuation("Mr")).toBe(false);
    expect(ids.endsAtPunctuation("Node-7")).toBe(true);
  });

  test("a change of script starts a word, and identifiers continue over underscores", () => {
    const mixed = new CopySource("执行cargo_brighten，快", new VocabIndex(vocab));
    expect(mixed.continuations("")).toContain("cargo_brighten");
    expect(mixed.continuations("cargo")).toEqual(["_brighten"]);
    expect(mixed.continuations("brighten")).toEqual([]); // inside the identifier
    expect(trailingWord("cargo_")).toBe("cargo_");
  });

  test("a change of script also ends a word: a Latin name before Han text is a whole word", () => {
    const named = new CopySource("那个，让Keor进攻", new VocabIndex(vocab));
    expect(named.continuations("Ke")).toEqual(["or"]);
    expect(named.continuations("Keor")).toEqual([]);
    expect(named.spellsWhole("Keor")).toBe(true);
    expect(named.continuations("让")).toEqual([]);
  });
});
