import { describe, expect, test } from "bun:test";
import { freeTextConstraint } from "./constraints/free-text";
import type { HeadStops } from "./head-text";
import { decodeHeads } from "./multi-head";
import { HashRuntime, ListVocab } from "./testing/hash-runtime";
import { VocabIndex } from "./token-vocab";

/**
 * A byte-level vocabulary in miniature: 欧 (E6 AC A7) is only spelled by the partial tokens
 * E6 AC and A7, whose texts are U+FFFD; everything else is whole text.
 */
class ByteListVocab extends ListVocab {
  private readonly partial = new Map<number, Uint8Array>();
  private readonly lossy = new TextDecoder();

  constructor(texts: string[], partial: Uint8Array[]) {
    super([...texts, ...partial.map(() => "\uFFFD")]);
    for (const [i, bytes] of partial.entries()) this.partial.set(texts.length + i, bytes);
  }

  override tokenText(id: number): string {
    return this.lossy.decode(this.tokenBytes(id));
  }

  tokenBytes(id: number): Uint8Array {
    return this.partial.get(id) ?? new TextEncoder().encode(this.texts[id]);
  }

  override decode(ids: readonly number[]): string {
    return this.lossy.decode(new Uint8Array(ids.flatMap((id) => [...this.tokenBytes(id)])));
  }
}

const vocab = new ByteListVocab(
  ["<arg1>", "</arg1>", "<|null|>", "<|im_end|>", "<|im_start|>", ..."abcdefghijklmnopqrstuvwxyz \n"],
  [new Uint8Array([0xe6, 0xac]), new Uint8Array([0xa7])],
);
const BEGIN = vocab.size - 2;
const FINISH = vocab.size - 1;
const stops: HeadStops = { value: ["</arg1>", "<|im_end|>"], null: ["<|null|>"] };

async function decodeName(runtime: HashRuntime): Promise<string> {
  const promptIds = vocab.encode("<|im_start|>user\nretreat<|im_end|>");
  const result = await decodeHeads({
    runtime,
    vocab: new VocabIndex(vocab),
    past: runtime.emptyKv(),
    pending: promptIds,
    promptIds,
    copyBias: 0,
    maxTokens: 4,
    heads: [{ name: "arg1", tagIds: vocab.encode("<arg1>"), stops, constraint: freeTextConstraint(false) }],
  });
  return result.heads[0]!.text;
}

describe("constrained heads keep their bytes valid UTF-8", () => {
  test("a begun character is finished before the head may end", async () => {
    // the model begins 欧 and then prefers to stop: the decoder finishes the character first
    const runtime = new HashRuntime(vocab.size);
    runtime.bias.set(BEGIN, 20);
    runtime.bias.set(vocab.id("</arg1>"), 10);
    runtime.bias.set(FINISH, 5);
    const text = await decodeName(runtime);
    expect(text.startsWith("欧")).toBe(true);
    expect(text).not.toContain("\uFFFD");
  });

  test("a token that continues no character is never the first", async () => {
    const runtime = new HashRuntime(vocab.size);
    runtime.bias.set(FINISH, 20);
    runtime.bias.set(vocab.id("a"), 5);
    runtime.bias.set(vocab.id("</arg1>"), 4);
    expect(await decodeName(runtime)).not.toContain("\uFFFD");
  });
});
