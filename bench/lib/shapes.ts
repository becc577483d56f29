/**
 * Model shapes the benchmarks build from random weights in memory: rows of core's shape table
 * (`QWEN_SHAPES`), with the few fields these benchmarks have always measured differently kept
 * as overrides, so results stay comparable with earlier runs.
 */
import { QWEN_SHAPES, type QwenConfig } from "../../packages/core/src/index";

/** The shapes measured: a tiny Qwen3 (embedded-model sized) and Qwen2.5-0.5B. */
export const BENCH_SHAPES: Record<string, QwenConfig> = {
  // rt-tiny's layers over a 16k vocabulary (the row predates rt-tiny's 8k one).
  tiny: { ...QWEN_SHAPES["rt-tiny"], vocabSize: 16384, ropeTheta: 1000000 },
  "qwen2.5-0.5b": { ...QWEN_SHAPES["qwen2.5-0.5b"], maxPositionEmbeddings: 4096 },
};
