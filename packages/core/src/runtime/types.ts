/**
 * The contract between the runtime (sessions, KV buffers) and the decoders that drive it.
 * The runtime knows nothing of prompts or heads; the decoder knows nothing of ONNX.
 */
import type { QwenConfig } from "../model/types";

/**
 * Key/value cache for every layer, batch 1.
 * `keys[l]` and `values[l]` are laid out [numKeyValueHeads, length, headDim] (row-major, float32),
 * which is the ONNX tensor [1, kvHeads, length, headDim] without its batch axis.
 */
export interface KvState {
  readonly length: number;
  readonly keys: Float32Array[];
  readonly values: Float32Array[];
}

/** One forward pass over `q` new tokens on top of `past`. */
export interface StepInput {
  /** q token ids. */
  tokenIds: ArrayLike<number>;
  /** q absolute positions (RoPE); branches of a tree may share positions. */
  positions: ArrayLike<number>;
  /**
   * Additive mask [q, past.length + q], row-major: 0 where token i may attend, -Infinity
   * (or a large negative) where it may not. Omit for plain causal attention.
   */
  attentionMask?: Float32Array;
  /** Cache the new tokens extend; `emptyKv()` for a fresh sequence. */
  past: KvState;
  /** Which of the q new rows to compute logits for (default: the last one only). */
  logitRows?: ArrayLike<number>;
}

export interface StepOutput {
  /** [logitRows.length, vocabSize] row-major. */
  logits: Float32Array;
  /** past followed by the q new tokens (length past.length + q). */
  present: KvState;
  /**
   * The q new tokens' keys and values alone (length q), when the runtime has them apart from
   * the past (rtool's graph returns only the new rows; `present` is then a view of `past` and
   * these). A batching layer builds each request's present from them without copying.
   */
  added?: KvState;
  /**
   * Where the step's time went, when a batching layer ran it (`BatchedRuntime`); absent from a
   * plain session, whose step is all forward pass.
   */
  timing?: StepTiming;
}

/** How a batched step spent its time: waiting for its pass, then in it. */
export interface StepTiming {
  /** From `step()` to the start of the forward pass that served it (earlier passes, merging). */
  waitMs: number;
  /** The forward pass that served it, merging and splitting included (shared with `requests - 1` other steps). */
  passMs: number;
  /** Steps served by that pass, this one included. */
  requests: number;
}

/** A loaded decoder graph behind an ONNX Runtime session. */
export interface DecoderRuntime {
  readonly config: QwenConfig;
  /** Execution provider actually in use. */
  readonly provider: "cpu" | "cuda";
  step(input: StepInput): Promise<StepOutput>;
  /** An empty cache (length 0). */
  emptyKv(): KvState;
  /** The first `length` positions of `kv` (a view or a copy: states are read-only). */
  sliceKv(kv: KvState, length: number): KvState;
  /** Bytes held by a cache, for LRU accounting. */
  kvBytes(kv: KvState): number;
  dispose(): Promise<void>;
}
