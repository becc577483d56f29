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
    const biased = biasCopies(row, "Sa", source, 3);
    expect(biased).not.toBe(row);
    expect(biased[id("eg")]).toBe(3);
    expect(biased[id("e")]).toBe(3);
    for (const other of ["eik", "zia", "x", "<|null|>", "(", "g", "Sa"]) expect(biased[id(other)]).toBe(0);
    expect(row[id("eg")]).toBe(0);
    // an empty value: the tokens that begin a word of the request
    const first = biasCopies(row, "", source, 3);
    expect(first[id("Sa")]).toBe(3);
    expect(first[id("eg")]).toBe(0);
    // a value that does not end in a word of the request, or a zero bias: the row as it is
    expect(biasCopies(row, "Sa(", source, 3)).toBe(row);
    expect(biasCopies(row, "Qu", source, 3)).toBe(row);
    expect(biasCopies(row, "Sa", source, 0)).toBe(row);
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
