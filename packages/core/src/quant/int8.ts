/**
 * `quant: "int8"`: float checkpoints quantized on load to 8-bit MatMulNBits blocks with zero
 * points. Near-lossless (each weight within scale/2 of the original, 255 steps per block), a
 * quarter of float32's bytes.
 */
import type { LinearHook } from "../graph/qwen";
import { roundToNearestLinear } from "./round-to-nearest";

/** Input features per int8 block. */
export const INT8_BLOCK_SIZE = 32;

/**
 * The int8 {@link LinearHook}. By default activations are quantized to int8 per block inside the
 * op (`accuracy_level` 4): ONNX Runtime's CPU kernels for 8-bit weights have no fast float path
 * (`accuracyLevel: 0` dequantizes the whole weight on every call).
 *
 * @example
 * ```ts
 * const graph = buildQwenGraph(config, weights, { linear: int8Linear() });
 * ```
 */
export function int8Linear(options: { blockSize?: number; accuracyLevel?: 0 | 4 } = {}): LinearHook {
  return roundToNearestLinear({
    bits: 8,
    blockSize: options.blockSize ?? INT8_BLOCK_SIZE,
    accuracyLevel: options.accuracyLevel ?? 4,
  });
}
