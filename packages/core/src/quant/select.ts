/**
 * Which linear layers a model is built with: float32, the checkpoint's own AWQ weights (detected
 * from config.json), or float weights quantized on load (`quant: "int8" | "int4"`). One place
 * decides, so `loadModel`, `createModelFromWeights` and the graph cache agree.
 */
import type { QwenGraphOptions } from "../graph/qwen";
import type { LinearTensorCheck } from "../model/qwen-weights";
import type { QwenConfig, WeightSource } from "../model/types";
import { ACCURACY_LEVELS, type AccuracyLevel, measuredAccuracyLevel } from "./accuracy-level";
import { awqLinear, checkAwqLinear, parseAwqConfig } from "./awq";
import { UnsupportedQuantizationError } from "./errors";
import { INT4_BLOCK_SIZE, int4Linear } from "./int4";
import { INT8_BLOCK_SIZE, int8Linear } from "./int8";

/** Quantization a caller may ask for on load: none, or quantize float weights to int8 / int4. */
export type QuantMode = "none" | "int8" | "int4";

/** The quant modes, for CLIs and validation. */
export const QUANT_MODES: readonly QuantMode[] = ["none", "int8", "int4"];

/**
 * How quantized layers compute. "exact": float32 products with the exactly dequantized weights
 * (MatMulNBits `accuracy_level` 0; the default for AWQ, whose logits then match the checkpoint's
 * own forward). "fast": activations quantized to int8 per block inside the op (`accuracy_level` 4,
 * VNNI on x86). "auto" (the default for int8/int4 on load): the level measured fastest for the
 * model's shape and quant mode, from the committed table (see {@link measuredAccuracyLevel}).
 */
export type QuantCompute = "exact" | "fast" | "auto";

/** The MatMulNBits accuracy level `compute` means for `quant` weights at `config`'s shape. */
export function accuracyLevelOf(
  compute: QuantCompute,
  quant: "int8" | "int4",
  config?: Pick<QwenConfig, "hiddenSize" | "intermediateSize">,
): AccuracyLevel {
  if (compute === "exact") return 0;
  if (compute === "fast") return 4;
  return config ? measuredAccuracyLevel(config, quant) : ACCURACY_LEVELS.fallbackLevel;
}

/** Bumped whenever a quantized layout or its kernels' settings change, so cached graphs are rebuilt. */
export const QUANT_LAYOUT_VERSION = 2;

/** How a model's linear layers are built. */
export interface QuantizationPlan {
  /** "fp32", "awq", "int8" or "int4". */
  kind: "fp32" | "awq" | "int8" | "int4";
  /** Graph cache variant: differs whenever the built graph would. */
  cacheVariant: string;
  /** Replaces the float check of linear tensors (AWQ packed tensors), when needed. */
  checkLinear?: LinearTensorCheck;
  /** Graph options (linear and classifier hooks) for a checkpoint's weights; empty means float32. */
  graphOptionsFor(source: WeightSource): QwenGraphOptions;
}

/** Throws unless `quant` is one of {@link QUANT_MODES}. */
export function checkQuantMode(quant: unknown, file = "options"): asserts quant is QuantMode | undefined {
  if (quant !== undefined && !QUANT_MODES.includes(quant as QuantMode)) {
    throw new UnsupportedQuantizationError(
      `quant "${String(quant)}" (use "none", "int8" or "int4")`,
      file,
      "quant",
    );
  }
}

/**
 * Graph options that quantize float weights on load for `quant`: linear layers to int8 or int4,
 * and the classifier to int8 in both modes (at the 0.5B shape the float32 classifier is 70% of an
 * int4 step's bytes; int8 keeps its logits close, where int4 would add error to every token).
 * Each MatMulNBits gets the accuracy level `compute` means for its bits at `config`'s shape (with
 * "auto", the int8 classifier of an int4 model takes the int8 row's level; without a config, the
 * table's fallback level). Empty for "none".
 *
 * @example
 * ```ts
 * const graph = buildQwenGraph(config, weights, quantizeOnLoadOptions("int4", "auto", config));
 * ```
 */
export function quantizeOnLoadOptions(
  quant: QuantMode | undefined,
  compute: QuantCompute = "auto",
  config?: Pick<QwenConfig, "hiddenSize" | "intermediateSize">,
): QwenGraphOptions {
  checkQuantMode(quant);
  checkQuantCompute(compute);
  if (quant !== "int8" && quant !== "int4") return {};
  const levels = quantizedLevels(quant, compute, config);
  return {
    linear: (quant === "int8" ? int8Linear : int4Linear)({ accuracyLevel: levels.linear }),
    classifier: int8Linear({ accuracyLevel: levels.classifier }),
    fuseProjections: true,
  };
}

/** The accuracy levels of the linear layers and of the (int8) classifier for `quant` on load. */
function quantizedLevels(
  quant: "int8" | "int4",
  compute: QuantCompute,
  config?: Pick<QwenConfig, "hiddenSize" | "intermediateSize">,
): { linear: AccuracyLevel; classifier: AccuracyLevel } {
  return {
    linear: accuracyLevelOf(compute, quant, config),
    classifier: accuracyLevelOf(compute, "int8", config),
  };
}

/** Throws unless `compute` is "exact", "fast" or "auto". */
export function checkQuantCompute(
  compute: unknown,
  file = "options",
): asserts compute is QuantCompute | undefined {
  if (compute !== undefined && compute !== "exact" && compute !== "fast" && compute !== "auto") {
    throw new UnsupportedQuantizationError(
      `quantCompute "${String(compute)}" (use "exact", "fast" or "auto")`,
      file,
      "quantCompute",
    );
  }
}

/**
 * Decides how `config`'s checkpoint is built. A `quantization_config` in config.json selects the
 * AWQ loader (or fails with {@link UnsupportedQuantizationError} for other layouts); asking to
 * quantize an already quantized checkpoint again is refused.
 *
 * @param configFile config.json's path, named in errors
 * @param compute default "exact" for AWQ, "auto" (measured per shape) for int8/int4
 * @example
 * ```ts
 * const plan = planQuantization(config, "int8", join(dir, "config.json"));
 * const key = graphCacheKey(dir, plan.cacheVariant);
 * ```
 */
export function planQuantization(
  config: QwenConfig,
  quant: QuantMode | undefined,
  configFile: string,
  compute?: QuantCompute,
): QuantizationPlan {
  checkQuantMode(quant, configFile);
  checkQuantCompute(compute, configFile);
  if (config.quantization !== undefined) {
    const awq = parseAwqConfig(config, configFile);
    if (quant !== undefined && quant !== "none") {
      throw new UnsupportedQuantizationError(
        `quant "${quant}" on a checkpoint that is already AWQ-quantized (load it without quant)`,
        configFile,
        "quant",
      );
    }
    const accuracyLevel = accuracyLevelOf(compute ?? "exact", "int4", config);
    return {
      kind: "awq",
      cacheVariant: `awq-g${awq.groupSize}-acc${accuracyLevel}-v${QUANT_LAYOUT_VERSION}`,
      checkLinear: checkAwqLinear(awq),
      // the classifier stays as stored (AWQ keeps lm_head in fp16), so logits match the checkpoint
      graphOptionsFor: (source) => ({ linear: awqLinear(source, awq, { accuracyLevel }) }),
    };
  }
  if (quant === "int8" || quant === "int4") {
    const blockSize = quant === "int8" ? INT8_BLOCK_SIZE : INT4_BLOCK_SIZE;
    const levels = quantizedLevels(quant, compute ?? "auto", config);
    // one level: the key graphs built before the classifier could differ were cached under
    const acc =
      levels.linear === levels.classifier
        ? `${levels.linear}`
        : `${levels.linear}-classifier${levels.classifier}`;
    return {
      kind: quant,
      cacheVariant: `${quant}-rtn-b${blockSize}-classifier-int8-b${INT8_BLOCK_SIZE}-acc${acc}-v${QUANT_LAYOUT_VERSION}`,
      graphOptionsFor: () => quantizeOnLoadOptions(quant, compute ?? "auto", config),
    };
  }
  return { kind: "fp32", cacheVariant: "fp32", graphOptionsFor: () => ({}) };
}
