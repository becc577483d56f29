/**
 * MatMulNBits `accuracy_level` chosen per model shape by measurement: the committed table
 * `accuracy-levels.json` (written by `bun run bench:roofline -- --write-levels`) says, for each
 * measured shape and quant mode, whether int8 activations (level 4) beat float32 products
 * (level 0) on a decode step. A config matches the row with its hidden and intermediate sizes,
 * else the row nearest in per-layer weights; an empty table falls back to `fallbackLevel`.
 */
import type { QwenConfig } from "../model/types";
import table from "./accuracy-levels.json";

/** The accuracy levels rtool emits: 0 (float32 products) or 4 (int8 activations). */
export type AccuracyLevel = 0 | 4;

/** One row of the measured table. */
export interface AccuracyLevelRow {
  name: string;
  hiddenSize: number;
  intermediateSize: number;
  numLayers: number;
  int8: AccuracyLevel;
  int4: AccuracyLevel;
  /** Step times behind the choice (ms, by heads), when measured. */
  measured?: unknown;
}

/** The committed table of measured accuracy levels. */
export interface AccuracyLevelTable {
  about: string;
  method: string;
  fallbackLevel: AccuracyLevel;
  machine?: unknown;
  shapes: AccuracyLevelRow[];
}

/** The table shipped with this build. */
export const ACCURACY_LEVELS: AccuracyLevelTable = table as AccuracyLevelTable;

const layerWeights = (c: Pick<QwenConfig, "hiddenSize" | "intermediateSize">) =>
  c.hiddenSize * (4 * c.hiddenSize + 3 * c.intermediateSize);

/**
 * The measured accuracy level for `config`'s shape in `quant` mode.
 *
 * @example
 * ```ts
 * const level = measuredAccuracyLevel(QWEN_SHAPES["qwen2.5-0.5b"], "int4"); // 4 on AVX-512 VNNI
 * ```
 */
export function measuredAccuracyLevel(
  config: Pick<QwenConfig, "hiddenSize" | "intermediateSize">,
  quant: "int8" | "int4",
  levels: AccuracyLevelTable = ACCURACY_LEVELS,
): AccuracyLevel {
  const exact = levels.shapes.find(
    (r) => r.hiddenSize === config.hiddenSize && r.intermediateSize === config.intermediateSize,
  );
  if (exact) return exact[quant];
  const size = Math.log(layerWeights(config));
  let nearest: AccuracyLevelRow | undefined;
  for (const row of levels.shapes) {
    const d = Math.abs(Math.log(layerWeights(row)) - size);
    if (!nearest || d < Math.abs(Math.log(layerWeights(nearest)) - size)) nearest = row;
  }
  return nearest ? nearest[quant] : levels.fallbackLevel;
}
