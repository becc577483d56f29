/**
 * A {@link WeightSource} that checks every float tensor it reads for NaN and infinities. A
 * damaged or badly converted checkpoint otherwise loads without a word and answers with garbage
 * (NaN logits make every argmax pick token 0).
 */
import { TensorValueError } from "./errors";
import type { WeightSource } from "./types";

/** Index of the first element that is NaN or infinite, or -1. */
export function firstNonFinite(values: Float32Array): number {
  for (let i = 0; i < values.length; i++) {
    // x - x is 0 for every finite x and NaN for NaN and the infinities: one compare per element.
    const v = values[i]!;
    if (v - v !== 0) return i;
  }
  return -1;
}

/**
 * Wraps `source` so that `readFloat32` throws a {@link TensorValueError} naming the tensor
 * (and `fileOf(name)`'s file) when it holds NaN or an infinity. Tensors are checked as the graph
 * builder reads them, so no tensor is read twice.
 *
 * @example
 * ```ts
 * const weights = finiteWeights(openWeights("models/qwen3-0.6b"), (name) => "models/qwen3-0.6b/model.safetensors");
 * weights.readFloat32("model.norm.weight"); // throws TensorValueError on NaN/Inf
 * ```
 */
export function finiteWeights(source: WeightSource, fileOf: (name: string) => string): WeightSource {
  return {
    tensors: source.tensors,
    readBytes: (name) => source.readBytes(name),
    close: () => source.close(),
    readFloat32(name) {
      const values = source.readFloat32(name);
      const at = firstNonFinite(values);
      if (at >= 0) throw new TensorValueError(name, fileOf(name), at, values[at]!);
      return values;
    },
  };
}
