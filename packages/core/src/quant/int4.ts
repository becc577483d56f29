/**
 * `quant: "int4"`: float checkpoints quantized on load by round-to-nearest to 4-bit MatMulNBits
 * blocks with zero points, for users without an AWQ file. An eighth of float32's bytes; coarser
 * than AWQ, which picks its scales from activation statistics.
 */
import type { LinearHook } from "../graph/qwen";
import { roundToNearestLinear } from "./round-to-nearest";

/** Input features per int4 block (small blocks keep round-to-nearest error down). */
export const INT4_BLOCK_SIZE = 32;

/**
 * The int4 {@link LinearHook}. By default activations are quantized to int8 per block inside the
 * op (`accuracy_level` 4), ONNX Runtime's fast CPU path for 4-bit weights; `accuracyLevel: 0`
 * computes in float32.
 *
 * @example
 * ```ts
 * const graph = buildQwenGraph(config, weights, { linear: int4Linear() });
 * ```
 */
export function int4Linear(options: { blockSize?: number; accuracyLevel?: 0 | 4 } = {}): LinearHook {
  return roundToNearestLinear({
    bits: 4,
    blockSize: options.blockSize ?? INT4_BLOCK_SIZE,
    accuracyLevel: options.accuracyLevel ?? 4,
  });
}
