import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Tokenizer } from "tokenizers";
import { type ModelLoadError, TokenizerError } from "../model/errors";
import { BYTE_TO_CHAR, byteLevelToBytes, toByteLevel } from "./byte-level";
import { loadTokenizer } from "./read-tokenizer";
import { RtoolTokenizer } from "./tokenizer";

const fixtures = join(import.meta.dir, "../../test/fixtures");

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "rtool-tok-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function catchError(run: () => unknown): ModelLoadError {
  try {
    run();
  } catch (error) {
    return error as ModelLoadError;
  }
  throw new Error("expected an error");
}

/** A minimal byte-level BPE tokenizer.json: every byte, one merge, two added tokens. */
function tinyTokenizerJson(patch: Record<string, unknown> = {}, modelPatch: Record<string, unknown> = {}) {
  const vocab: Record<string, number> = {};
  BYTE_TO_CHAR.forEach((char, byte) => {
    vocab[char] = byte;
  });
  vocab.hi = 256;
  return {
    version: "1.0",
    added_tokens: [
      { id: 257, content: "<|im_end|>", special: true, lstrip: false, rstrip: false, normalized: false },
      { id: 258, content: "<arg1>", special: false, lstrip: false, rstrip: false, normalized: false },
    ],
    normalizer: null,
    pre_tokenizer: { type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: true },
    post_processor: null,
    decoder: { type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: true },
    model: { type: "BPE", dropout: null, unk_token: null, vocab, merges: ["h i"], ...modelPatch },
    ...patch,
  };
}

describe("byte-level alphabet", () => {
  test("covers all 256 bytes with distinct characters; space is Ġ, newline Ċ", () => {
    expect(new Set(BYTE_TO_CHAR).size).toBe(256);
    expect(BYTE_TO_CHAR[0x20]).toBe("Ġ");
    expect(BYTE_TO_CHAR[0x0a]).toBe("Ċ");
    expect(BYTE_TO_CHAR[0x41]).toBe("A");
    expect(toByteLevel(" 你")).toBe("Ġä½ł");
    expect(Array.from(byteLevelToBytes("Ġä½ł"))).toEqual([0x20, 0xe4, 0xbd, 0xa0]);
    // Characters outside the alphabet stand for their own UTF-8, as in HF's decoder.
    expect(Array.from(byteLevelToBytes("你"))).toEqual([0xe4, 0xbd, 0xa0]);
  });
});

describe("RtoolTokenizer on a hand-made tokenizer.json", () => {
  test("merges, added tokens inside text, skipSpecial", () => {
    const tokenizer = new RtoolTokenizer(tinyTokenizerJson(), "t.json");
    expect(tokenizer.vocabSize).toBe(259);
    expect(tokenizer.encode("hi")).toEqual([256]);
    expect(tokenizer.encode("<arg1>hi<|im_end|>")).toEqual([258, 256, 257]);
    // Byte ids equal byte values in this vocabulary: "Ġ" (space) is 0x20.
    expect(tokenizer.encode(" hi")).toEqual([0x20, 256]);
    expect(tokenizer.decode([258, 256, 257])).toBe("<arg1>hi<|im_end|>");
    expect(tokenizer.decode([258, 256, 257], { skipSpecial: true })).toBe("<arg1>hi");
    expect(tokenizer.tokenId("<arg1>")).toBe(258);
    expect(tokenizer.tokenText(999)).toBe("");
    expect(tokenizer.size).toBe(259);
  });

  const unsupported: [string, Record<string, unknown>, Record<string, unknown>, string][] = [
    ["WordPiece model", {}, { type: "WordPiece" }, "model.type"],
    ["BPE dropout", {}, { dropout: 0.1 }, "model.dropout"],
    ["subword prefix", {}, { continuing_subword_prefix: "##" }, "model.continuing_subword_prefix"],
    ["merge making an unknown token", {}, { merges: ["i h"] }, "model.merges"],
    ["malformed merge", {}, { merges: [42] }, "model.merges"],
    ["vocab not an object", {}, { vocab: [1, 2] }, "model.vocab"],
    ["metaspace decoder", { decoder: { type: "Metaspace" } }, {}, "decoder"],
    ["NFKC normalizer", { normalizer: { type: "NFKC" } }, {}, "normalizer"],
    [
      "prefix space",
      { pre_tokenizer: { type: "ByteLevel", add_prefix_space: true } },
      {},
      "pre_tokenizer ByteLevel",
    ],
    ["whitespace pre-tokenizer", { pre_tokenizer: { type: "Whitespace" } }, {}, "pre_tokenizer"],
    ["lstrip added token", { added_tokens: [{ id: 300, content: "<x>", lstrip: true }] }, {}, "added_tokens"],
  ];
  for (const [what, patch, modelPatch, field] of unsupported) {
    test(`refuses ${what}`, () => {
      const error = catchError(
        () => new RtoolTokenizer(tinyTokenizerJson(patch, modelPatch), "m/tokenizer.json"),
      );
      expect(error).toBeInstanceOf(TokenizerError);
      expect(error.file).toBe("m/tokenizer.json");
      expect(error.field).toBe(field);
    });
  }
});

describe("loadTokenizer", () => {
  test("missing tokenizer.json is a TokenizerError naming the file", () => {
    const dir = tempDir();
    const error = catchError(() => loadTokenizer(dir));
    expect(error).toBeInstanceOf(TokenizerError);
    expect(error.file).toBe(join(dir, "tokenizer.json"));
    expect(error.message).toContain("tokenizer.json");
  });

  test("malformed tokenizer.json is a TokenizerError", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tokenizer.json"), '{"model": ');
    expect(catchError(() => loadTokenizer(dir)).message).toContain("not valid JSON");
    writeFileSync(join(dir, "tokenizer.json"), "[]");
    expect(catchError(() => loadTokenizer(dir))).toBeInstanceOf(TokenizerError);
  });

  const fixtureNames = readdirSync(fixtures, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => Bun.file(join(fixtures, name, "tokenizer.json")).size > 0);
  test.each(fixtureNames)("fixture %s: encode/decode match Hugging Face tokenizers", async (name) => {
    const tokenizer = loadTokenizer(join(fixtures, name));
    const reference = Tokenizer.fromFile(join(fixtures, name, "tokenizer.json"));
    for (const text of [
      "<|im_start|>user\nmove the arm left<|im_end|>\n<|im_start|>assistant\n",
      "Hello there, it's 42 degrees! 你好",
      "  spaces\n\nand lines ",
    ]) {
      const expected = (await reference.encode(text, null, { addSpecialTokens: false })).getIds();
      expect(tokenizer.encode(text)).toEqual(expected);
      expect(tokenizer.decode(expected)).toBe(await reference.decode(expected, false));
    }
    expect(tokenizer.vocabSize).toBe(reference.getVocabSize(true));
  });
});
