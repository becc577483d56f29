/**
 * The tensor side of batching: several independent steps become one forward pass. Each step's
 * past KV becomes one segment of a combined past, its new tokens one block of rows, and the mask
 * is block-diagonal (a step's rows see only its own segment and its own new tokens, under its own
 * tree mask), so every step gets the logits and present KV it would have got alone.
 */

import type { PassBuffers } from "../runtime/pass-buffers";
import { appendKv, copyPositions, type KvSource, SplitKv } from "../runtime/split-kv";
import type { StepInput, StepOutput } from "../runtime/types";
import { type KvAnchor, layoutSharedPast } from "./kv-lineage";

/** Shape facts the merge needs (a `QwenConfig` has them). */
export interface KvLayout {
  numLayers: number;
  numKeyValueHeads: number;
  headDim: number;
}

/** Fresh arrays for a merge that keeps none (one pass). */
const FRESH = { take: (_slot: string, floats: number) => new Float32Array(floats) };

/**
 * Merges steps of independent sequences into one step, and splits its output back. With
 * `anchors` (from a {@link KvLineage}), leading positions that several pasts share are held once.
 * With `buffers`, the merged past and mask are written into its arrays (valid until the next
 * merge that uses them) instead of fresh ones.
 *
 * @example
 * ```ts
 * const merged = mergeSteps([stepA, stepB], runtime.config);
 * const [a, b] = merged.split(await runtime.step(merged.input)); // as if each ran alone
 * ```
 */
export function mergeSteps(
  inputs: readonly StepInput[],
  layout: KvLayout,
  anchors?: readonly (KvAnchor | null)[],
  buffers: Pick<PassBuffers, "take"> = FRESH,
): { input: StepInput; split: (output: StepOutput) => StepOutput[] } {
  const { numLayers, numKeyValueHeads: kvH, headDim: d } = layout;
  const pastLengths = inputs.map((s) => s.past.length);
  const newLengths = inputs.map((s) => s.tokenIds.length);
  const past = layoutSharedPast(pastLengths, anchors ?? inputs.map(() => null));
  const rowOffsets = offsets(newLengths);
  const P = past.total;
  const Q = sum(newLengths);
  const total = P + Q;

  const concatPast = (kind: "keys" | "values", layer: number) => {
    const out = buffers.take(`${kind}${layer}`, kvH * P * d);
    inputs.forEach((s, r) => {
      const len = pastLengths[r]!;
      const shared = past.shared[r]!;
      for (let h = 0; h < kvH; h++) {
        if (past.fillsShared[r]) {
          copyPositions(s.past, kind, layer, h, 0, shared, out, (h * P + past.sharedOffsets[r]!) * d, d);
        }
        copyPositions(
          s.past,
          kind,
          layer,
          h,
          shared,
          len - shared,
          out,
          (h * P + past.ownOffsets[r]!) * d,
          d,
        );
      }
    });
    return out;
  };
  const keys = Array.from({ length: numLayers }, (_, l) => concatPast("keys", l));
  const values = Array.from({ length: numLayers }, (_, l) => concatPast("values", l));

  const tokenIds = new Array<number>(Q);
  const positions = new Array<number>(Q);
  const mask = buffers.take("mask", Q * total).fill(Number.NEGATIVE_INFINITY);
  const logitRows: number[] = [];
  const rowCounts: number[] = [];
  inputs.forEach((s, r) => {
    const q = newLengths[r]!;
    const p = pastLengths[r]!;
    const shared = past.shared[r]!;
    const sharedAt = past.sharedOffsets[r]!;
    const ownAt = past.ownOffsets[r]!;
    const rowBase = rowOffsets[r]!;
    const width = p + q;
    for (let i = 0; i < q; i++) {
      tokenIds[rowBase + i] = s.tokenIds[i]!;
      positions[rowBase + i] = s.positions[i]!;
      const row = (rowBase + i) * total;
      if (s.attentionMask) {
        const src = s.attentionMask.subarray(i * width, (i + 1) * width);
        mask.set(src.subarray(0, shared), row + sharedAt);
        mask.set(src.subarray(shared, p), row + ownAt);
        mask.set(src.subarray(p), row + P + rowBase);
      } else {
        // Plain causal attention over this request's own past and new tokens.
        mask.fill(0, row + sharedAt, row + sharedAt + shared);
        mask.fill(0, row + ownAt, row + ownAt + p - shared);
        mask.fill(0, row + P + rowBase, row + P + rowBase + i + 1);
      }
    }
    const rows = s.logitRows ? Array.from(s.logitRows) : [q - 1];
    for (const row of rows) logitRows.push(rowBase + row);
    rowCounts.push(rows.length);
  });

  const split = (output: StepOutput): StepOutput[] => {
    const vocab = output.logits.length / logitRows.length;
    const logitOffsets = offsets(rowCounts);
    // a view: copying each request's rows out would write fresh memory every pass
    const logitsOf = (r: number) =>
      output.logits.subarray(logitOffsets[r]! * vocab, (logitOffsets[r]! + rowCounts[r]!) * vocab);
    if (output.added) {
      // The pass returned its new rows apart: each request's present is its own past (never the
      // merged past, whose arrays the next pass reuses) followed by its rows of them.
      const added: KvSource = {
        keys: output.added.keys,
        values: output.added.values,
        total: Q,
        kvHeads: kvH,
        headDim: d,
      };
      return inputs.map((s, r) => ({
        logits: logitsOf(r),
        present: appendKv(s.past, added, rowOffsets[r]!, newLengths[r]!, layout),
      }));
    }
    // Otherwise each request's present stays a view of the merged present: its shared run, its
    // own past, its new rows.
    const source = {
      keys: output.present.keys,
      values: output.present.values,
      total,
      kvHeads: kvH,
      headDim: d,
    };
    return inputs.map((_, r) => {
      const p = pastLengths[r]!;
      const shared = past.shared[r]!;
      const runs = [
        { source, from: past.sharedOffsets[r]!, length: shared },
        { source, from: past.ownOffsets[r]!, length: p - shared },
        { source, from: P + rowOffsets[r]!, length: newLengths[r]! },
      ].filter((run) => run.length > 0);
      return {
        logits: logitsOf(r),
        // a request that is the whole pass (a lone step over a view) gets the plain present,
        // so its next step goes to the runtime as it is, with no copy
        present: coversAll(runs, total) ? output.present : new SplitKv(runs, numLayers),
      };
    });
  };

  return {
    input: { tokenIds, positions, attentionMask: mask, past: { length: P, keys, values }, logitRows },
    split,
  };
}

/** Whether `runs` are positions 0..total-1 in order (the whole merged present). */
function coversAll(runs: readonly { from: number; length: number }[], total: number): boolean {
  let at = 0;
  for (const run of runs) {
    if (run.from !== at) return false;
    at += run.length;
  }
  return at === total;
}

function offsets(lengths: readonly number[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const n of lengths) {
    out.push(at);
    at += n;
  }
  return out;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
