/**
 * KV cache helpers over the {@link KvState} layout [kvHeads, length, headDim] per layer.
 */
import type { KvState } from "./types";

/** Shape facts a cache needs: layers, KV heads, head size. */
export interface KvShape {
  numLayers: number;
  numKeyValueHeads: number;
  headDim: number;
}

/** A cache of length 0 for `shape`. */
export function emptyKvState(shape: KvShape): KvState {
  const empty = () => Array.from({ length: shape.numLayers }, () => new Float32Array(0));
  return { length: 0, keys: empty(), values: empty() };
}

/**
 * A copy of the first `length` positions of `kv`. Each KV head's rows are contiguous, so this is
 * one block copy per head and layer.
 */
export function sliceKvState(kv: KvState, length: number, shape: KvShape): KvState {
  if (!Number.isInteger(length) || length < 0 || length > kv.length) {
    throw new RangeError(`sliceKv: length ${length} outside [0, ${kv.length}]`);
  }
  const { numKeyValueHeads: heads, headDim } = shape;
  const slice = (src: Float32Array) => {
    const out = new Float32Array(heads * length * headDim);
    for (let h = 0; h < heads; h++) {
      const from = h * kv.length * headDim;
      out.set(src.subarray(from, from + length * headDim), h * length * headDim);
    }
    return out;
  };
  return { length, keys: kv.keys.map(slice), values: kv.values.map(slice) };
}

/** Bytes held by the cache's arrays. */
export function kvStateBytes(kv: KvState): number {
  let bytes = 0;
  for (const k of kv.keys) bytes += k.byteLength;
  for (const v of kv.values) bytes += v.byteLength;
  return bytes;
}

/** The additive causal mask [q, past + q]: row i sees the past and new tokens 0..i. */
export function causalMask(q: number, past: number): Float32Array {
  const total = past + q;
  const mask = new Float32Array(q * total);
  for (let i = 0; i < q; i++) mask.fill(Number.NEGATIVE_INFINITY, i * total + past + i + 1, (i + 1) * total);
  return mask;
}
