/**
 * `Model`: a loaded decoder runtime plus its config and tokenizer, with the simple whole-sequence
 * entry points (`forward`, `generate`). Multi-head decoding drives `model.runtime` directly.
 */
import type { QwenConfig } from "./model/types";
import type { DecoderRuntime, KvState } from "./runtime/types";

/** The text side a model needs: ids from text and back. */
export interface TextTokenizer {
  encode(text: string): number[];
  decode(ids: number[]): string;
}

/** Options of {@link Model.generate}. */
export interface GenerateOptions {
  /** New tokens to produce at most; default 16. */
  maxTokens?: number;
  /** Stop after emitting one of these ids (it is included in the result); default none. */
  stopTokens?: ArrayLike<number>;
}

function argmax(values: Float32Array, from = 0, to = values.length): number {
  let best = from;
  for (let i = from + 1; i < to; i++) if (values[i] > values[best]) best = i;
  return best - from;
}

function checkIds(ids: ArrayLike<number>, what: string): void {
  if (ids.length === 0) throw new RangeError(`${what}: at least one token id is needed`);
}

/**
 * A Qwen model ready to run.
 *
 * @example
 * ```ts
 * const model = await loadModel("models/qwen3-0.6b", { provider: "cpu" });
 * const ids = model.tokenizer.encode("Hello");
 * const { logits } = await model.forward(ids);
 * const next = await model.generate(ids, { maxTokens: 16 });
 * await model.dispose();
 * ```
 */
export class Model<T extends TextTokenizer | undefined = TextTokenizer> {
  constructor(
    /** The runtime behind the model; `runtime.step` is the low-level entry point. */
    readonly runtime: DecoderRuntime,
    /** The tokenizer, when the model was loaded with one. */
    readonly tokenizer: T,
  ) {}

  /** Parsed config.json. */
  get config(): QwenConfig {
    return this.runtime.config;
  }

  /** Logits (length = vocab) of the last position of `ids`, computed from scratch. */
  async forward(ids: ArrayLike<number>): Promise<{ logits: Float32Array }> {
    checkIds(ids, "forward");
    const { logits } = await this.runtime.step({
      tokenIds: ids,
      positions: Array.from({ length: ids.length }, (_, i) => i),
      past: this.runtime.emptyKv(),
    });
    return { logits };
  }

  /** Greedy continuation of `ids`: the prompt is prefilled once, then one KV-cached step per token. */
  async generate(ids: ArrayLike<number>, options: GenerateOptions = {}): Promise<number[]> {
    checkIds(ids, "generate");
    const maxTokens = options.maxTokens ?? 16;
    const stops = new Set(Array.from(options.stopTokens ?? []));
    const out: number[] = [];
    let past: KvState = this.runtime.emptyKv();
    let tokenIds: ArrayLike<number> = ids;
    while (out.length < maxTokens) {
      const positions = Array.from({ length: tokenIds.length }, (_, i) => past.length + i);
      const step = await this.runtime.step({ tokenIds, positions, past });
      const next = argmax(step.logits);
      out.push(next);
      if (stops.has(next)) break;
      past = step.present;
      tokenIds = [next];
    }
    return out;
  }

  /** Releases the ONNX Runtime session. */
  async dispose(): Promise<void> {
    await this.runtime.dispose();
  }
}
