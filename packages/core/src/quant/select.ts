/**
 * Which linear layers a model is built with: float32, the checkpoint's own AWQ weights (detected
 * from config.json), or float weights quantized on load (`quant: "int8" | "int4"`). One place
 * decides, so `loadModel`, `createModelFromWeights` and the graph cache agree.
 */
import type { QwenGraphOptions } from "../graph/qwen";
import type { LinearTensorCheck } from "../model/qwen-weights";
import type { QwenConfig, WeightSource } from "../model/types";
import { awqLinear, checkAwqLinear, parseAwqConfig } from "./awq";
import { UnsupportedQuantizationError } from "./errors";
import { INT4_BLOCK_SIZE, int4Linear } from "./int4";
import { INT8_BLOCK_SIZE, int8Linear } from "./int8";

/** Quantization a caller may ask for on load: none, or quantize float weights to int8 / int4. */
export type QuantMode = "none" | "int8" | "int4";

/** The quant modes, for CLIs and validation. */
export const QUANT_MODES: readonly QuantMode[] = ["none", "int8", "int4"];

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
 * Empty for "none".
 *
 * @example
 * ```ts
 * const graph = buildQwenGraph(config, weights, quantizeOnLoadOptions("int4"));
 * ```
 */
export function quantizeOnLoadOptions(quant: QuantMode | undefined): QwenGraphOptions {
  checkQuantMode(quant);
  if (quant === "int8") return { linear: int8Linear(), classifier: int8Linear() };
  if (quant === "int4") return { linear: int4Linear(), classifier: int8Linear() };
  return {};
}

/**
 * Decides how `config`'s checkpoint is built. A `quantization_config` in config.json selects the
 * AWQ loader (or fails with {@link UnsupportedQuantizationError} for other layouts); asking to
 * quantize an already quantized checkpoint again is refused.
 *
 * @param configFile config.json's path, named in errors
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
): QuantizationPlan {
  checkQuantMode(quant, configFile);
  if (config.quantization !== undefined) {
    const awq = parseAwqConfig(config, configFile);
    if (quant !== undefined && quant !== "none") {
      throw new UnsupportedQuantizationError(
        `quant "${quant}" on a checkpoint that is already AWQ-quantized (load it without quant)`,
        configFile,
        "quant",
      );
    }
    return {
      kind: "awq",
      cacheVariant: `awq-g${awq.groupSize}-v${QUANT_LAYOUT_VERSION}`,
      checkLinear: checkAwqLinear(awq),
      // the classifier stays as stored (AWQ keeps lm_head in fp16), so logits match the checkpoint
      graphOptionsFor: (source) => ({ linear: awqLinear(source, awq) }),
    };
  }
  if (quant === "int8" || quant === "int4") {
    const blockSize = quant === "int8" ? INT8_BLOCK_SIZE : INT4_BLOCK_SIZE;
    return {
      kind: quant,
      cacheVariant: `${quant}-rtn-b${blockSize}-classifier-int8-b${INT8_BLOCK_SIZE}-v${QUANT_LAYOUT_VERSION}`,
      graphOptionsFor: () => quantizeOnLoadOptions(quant),
    };
  }
  return { kind: "fp32", cacheVariant: "fp32", graphOptionsFor: () => ({}) };
}
