/**
 * The decoder layout Hugging Face Optimum exports and transformers.js runs: int64 `input_ids`,
 * `attention_mask` (1 = attend, 0 = padding) over past + new tokens, `position_ids`, and logits
 * [batch, rows, vocab]. The additive causal mask rtool's transformer reads is built inside the
 * graph from the 0/1 mask. Batch size 1: the transformer keeps hidden states 2-D.
 */
import type { GraphBuilder } from "../graph/onnx-builder";
import { QWEN_IO, type QwenIoLayout } from "../graph/qwen";

/** Added to the scores of masked keys: large enough that softmax gives them exactly 0, finite so a row never becomes NaN. */
const MASKED_SCORE = -1e9;

/** Which rows get logits: every new token (the Optimum layout) or only the last (generation needs no more). */
export type HfLogitRows = "all" | "last";

/**
 * The Optimum / transformers.js decoder layout for {@link buildQwenGraph}'s `io` option.
 *
 * @example
 * ```ts
 * const graph = buildQwenGraph(config, weights, { io: hfDecoderLayout("all") });
 * ```
 */
export function hfDecoderLayout(rows: HfLogitRows = "all"): QwenIoLayout {
  return {
    declareInputs(g) {
      const inputIds = g.input(QWEN_IO.inputIds, "int64", [1, "sequence_length"]);
      const attention = g.input(QWEN_IO.attentionMask, "int64", [1, "total_sequence_length"]);
      const positionIds = g.input(QWEN_IO.positionIds, "int64", [1, "sequence_length"]);
      return {
        inputIds,
        positionIds,
        attentionMask: additiveMask(g, inputIds, attention),
        // Gather with index -1 keeps the last row
        logitRows: rows === "last" ? g.int64s([-1]) : undefined,
      };
    },
    declareLogits(g, logits, config) {
      const batched = g.unsqueeze(logits, [0]);
      g.output(batched, QWEN_IO.logits, "float32", [
        1,
        rows === "last" ? 1 : "sequence_length",
        config.vocabSize,
      ]);
    },
  };
}

/**
 * `[1, 1, q, total]` additive mask: key j is visible to new token i when `j <= past + i` (causal)
 * and `attention_mask[j] == 1`.
 */
function additiveMask(g: GraphBuilder, inputIds: string, attention: string): string {
  const scalar = (x: string) => g.reshape(x, []);
  const total = scalar(g.node("Shape", [attention], { attributes: { start: 1, end: 2 } })[0]);
  const q = scalar(g.node("Shape", [inputIds], { attributes: { start: 1, end: 2 } })[0]);
  const zero = scalar(g.int64s([0]));
  const one = scalar(g.int64s([1]));
  const past = g.sub(total, q);
  // absolute position of each new token [q, 1] and of each key [1, total]
  const rowPositions = g.unsqueeze(g.node("Range", [past, total, one])[0], [1]);
  const keyPositions = g.unsqueeze(g.node("Range", [zero, total, one])[0], [0]);
  const causal = g.node("LessOrEqual", [keyPositions, rowPositions])[0];
  const attended = g.node("Equal", [attention, g.int64s([1])])[0];
  const visible = g.node("And", [causal, attended])[0];
  const mask = g.node("Where", [visible, g.scalar(0), g.scalar(MASKED_SCORE)])[0];
  return g.unsqueeze(mask, [0, 1]);
}
