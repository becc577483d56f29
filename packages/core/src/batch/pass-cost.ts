/**
 * The cost model that decides whether a step joins a merged pass. A merged pass pays the fixed
 * cost of a pass and reads the weights once instead of once per step; its block-diagonal
 * attention scores every new row against the whole merged past, and the pasts are copied into
 * one. Costs are in bytes read at the memory bandwidth, estimated from the model's shape.
 */
import type { QwenConfig } from "../model/types";
import type { StepInput } from "../runtime/types";
import { type KvAnchor, layoutSharedPast } from "./kv-lineage";

/** Machine constants of {@link PassCostModel}. */
export interface PassCostOptions {
  /**
   * Arithmetic the machine does per byte it reads (peak FLOP/s / memory bandwidth); default 6
   * (about 200 GFLOP/s over 33 GB/s on the reference CPU).
   */
  flopsPerByte?: number;
  /**
   * Fixed cost of one forward pass (session dispatch, kernel launches), as bytes read at the
   * memory bandwidth; default 48 MB, about 1.5 ms at 33 GB/s (rt-tiny: 1.9-2.5 ms for one token
   * on one thread, measured).
   */
  passOverheadBytes?: number;
}

/**
 * Modelled cost of forward passes, alone or merged.
 *
 * @example
 * ```ts
 * const cost = new PassCostModel(runtime.config);
 * const worthIt = cost.merged([a, b], [null, null]).cost < cost.alone(a) + cost.alone(b);
 * ```
 */
export class PassCostModel {
  private readonly passOverheadBytes: number;
  /** Bytes of weights one pass reads. */
  private readonly weightBytes: number;
  /** Byte-equivalent cost of one row's matmul arithmetic (2 FLOPs per weight). */
  private readonly rowBytes: number;
  /** Byte-equivalent cost of one attention score (one new row against one past position). */
  private readonly scoreBytes: number;
  /** Bytes moved to copy one position of KV (all layers, keys and values; read and written). */
  private readonly copyPositionBytes: number;

  constructor(c: QwenConfig, options: PassCostOptions = {}) {
    this.passOverheadBytes = options.passOverheadBytes ?? 48e6;
    const flopsPerByte = options.flopsPerByte ?? 6;
    const weights = weightCount(c);
    this.weightBytes = 4 * weights;
    this.rowBytes = (2 * weights) / flopsPerByte;
    // Per layer and head: QK^T and AV (2 x 2 x headDim FLOPs), plus the mask, scores and
    // softmax passes over memory (~16 bytes).
    this.scoreBytes = c.numLayers * c.numAttentionHeads * ((4 * c.headDim) / flopsPerByte + 16);
    this.copyPositionBytes = 2 * c.numLayers * 2 * c.numKeyValueHeads * c.headDim * 4;
  }

  /**
   * Cost of one pass: the fixed cost, weights or arithmetic (whichever bounds it), attention
   * scores and KV positions copied.
   */
  pass(rows: number, scores: number, copied: number): number {
    return (
      this.passOverheadBytes +
      Math.max(this.weightBytes, rows * this.rowBytes) +
      scores * this.scoreBytes +
      copied * this.copyPositionBytes
    );
  }

  /** A step run alone: the graph copies its past and new rows into the keys it attends over. */
  alone(input: StepInput): number {
    const q = input.tokenIds.length;
    const p = input.past.length;
    return this.pass(q, q * (p + q), p + q);
  }

  /**
   * Merged-past length and cost of one pass over `inputs` (with their pasts' `anchors`): the
   * merged past is copied in, then with the new rows into the keys the graph attends over (only
   * the new rows come out; requests' presents are views, see `appendKv`).
   */
  merged(
    inputs: readonly StepInput[],
    anchors: readonly (KvAnchor | null)[],
  ): { past: number; cost: number } {
    const layout = layoutSharedPast(
      inputs.map((s) => s.past.length),
      anchors,
    );
    const P = layout.total;
    let Q = 0;
    for (const s of inputs) Q += s.tokenIds.length;
    return { past: P, cost: this.pass(Q, Q * (P + Q), P + (P + Q)) };
  }
}

/** Weights of a Qwen model of this shape (embeddings, layers, untied head). */
export function weightCount(c: QwenConfig): number {
  const h = c.hiddenSize;
  const attention = h * c.numAttentionHeads * c.headDim * 2 + h * c.numKeyValueHeads * c.headDim * 2;
  const mlp = 3 * h * c.intermediateSize;
  const head = c.tieWordEmbeddings ? 0 : c.vocabSize * h;
  return c.vocabSize * h + head + c.numLayers * (attention + mlp);
}
