/**
 * Cross-request batching at the forward-pass level. `BatchedRuntime` wraps a
 * {@link DecoderRuntime}: steps that callers ask for while a forward pass runs are merged into the
 * next one. Each request's past KV becomes one segment of a combined past, its new tokens one
 * block of rows, and the mask is block-diagonal (a request's rows see only its own segment and
 * its own new tokens, under its own tree mask), so every request gets the logits and present KV
 * it would have got alone. The decoders above never notice; concurrent calls simply share the
 * weight reads of one pass instead of queuing for the session.
 */
import type { DecoderRuntime, KvState, StepInput, StepOutput } from "@rtool/core";

/**
 * When steps are merged. A merged pass reads the weights once instead of once per step, which
 * pays only while passes are bound by reading weights (a few rows each); its block-diagonal
 * attention scores every new row against every request's past, and the pasts are copied in and
 * out. `"cost"` merges a step only while the modelled cost of the merged pass stays below that
 * of separate passes (estimated from the model's shape); `"always"` merges up to the row and past
 * limits.
 */
export type MergePolicy = "cost" | "always";

/** Options of {@link BatchedRuntime}. */
export interface BatchedRuntimeOptions {
  /** Default "cost". */
  policy?: MergePolicy;
  /**
   * Arithmetic the machine does per byte it reads (peak FLOP/s / memory bandwidth) for the cost
   * policy; default 6 (about 200 GFLOP/s over 33 GB/s on the reference CPU).
   */
  flopsPerByte?: number;
  /** Most new tokens (rows) in one merged pass; default 512. A larger step still runs, alone. */
  maxRows?: number;
  /** Most past positions in one merged pass; default 32768. */
  maxPast?: number;
  /** Told after every forward pass: requests merged and rows computed (metrics, tests). */
  onPass?: (requests: number, rows: number) => void;
}

interface PendingStep {
  input: StepInput;
  resolve: (output: StepOutput) => void;
  reject: (error: unknown) => void;
}

/**
 * A {@link DecoderRuntime} that merges concurrent steps into one forward pass.
 *
 * @example
 * ```ts
 * const batched = new BatchedRuntime(model.runtime);
 * const lanes = [0, 1, 2, 3].map(() => createRealtimeCaller({ runtime: batched, tokenizer: model.tokenizer }, { format: "v2" }));
 * // calls on different lanes now share forward passes
 * ```
 */
export class BatchedRuntime implements DecoderRuntime {
  private pending: PendingStep[] = [];
  private running = false;
  private scheduled = false;
  private readonly maxRows: number;
  private readonly maxPast: number;
  private readonly onPass?: (requests: number, rows: number) => void;
  private readonly policy: MergePolicy;
  /** Bytes of weights one pass reads. */
  private readonly weightBytes: number;
  /** Byte-equivalent cost of one row's matmul arithmetic (2 FLOPs per weight). */
  private readonly rowBytes: number;
  /** Byte-equivalent cost of one attention score (one new row against one past position). */
  private readonly scoreBytes: number;
  /** Bytes of KV per position (all layers, keys and values), copied in and out of a merged past. */
  private readonly kvPositionBytes: number;
  /** Forward passes run, and steps served by them. */
  readonly counters = { passes: 0, steps: 0 };

  constructor(
    readonly inner: DecoderRuntime,
    options: BatchedRuntimeOptions = {},
  ) {
    this.maxRows = options.maxRows ?? 512;
    this.maxPast = options.maxPast ?? 32768;
    this.onPass = options.onPass;
    this.policy = options.policy ?? "cost";
    const c = inner.config;
    const flopsPerByte = options.flopsPerByte ?? 6;
    const weights = weightCount(c);
    this.weightBytes = 4 * weights;
    this.rowBytes = (2 * weights) / flopsPerByte;
    // Per layer and head: QK^T and AV (2 x 2 x headDim FLOPs), plus the mask, scores and
    // softmax passes over memory (~16 bytes).
    this.scoreBytes = c.numLayers * c.numAttentionHeads * ((4 * c.headDim) / flopsPerByte + 16);
    this.kvPositionBytes = c.numLayers * 2 * c.numKeyValueHeads * c.headDim * 4;
  }

  /** Modelled cost of one pass, in bytes read: weights or arithmetic, whichever bounds it, plus attention. */
  private passCost(rows: number, scores: number, copiedPast: number): number {
    return (
      Math.max(this.weightBytes, rows * this.rowBytes) +
      scores * this.scoreBytes +
      copiedPast * this.kvPositionBytes
    );
  }

  /** Whether one merged pass over these totals costs no more than the separate passes (`apart`). */
  private worthMerging(rows: number, past: number, apart: number): boolean {
    if (this.policy === "always") return true;
    // The merged past is copied in, and each request's present copied back out.
    return this.passCost(rows, rows * (past + rows), 2 * past + rows) <= apart;
  }

  get config() {
    return this.inner.config;
  }

  get provider() {
    return this.inner.provider;
  }

  step(input: StepInput): Promise<StepOutput> {
    return new Promise((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      this.schedule();
    });
  }

  emptyKv(): KvState {
    return this.inner.emptyKv();
  }

  sliceKv(kv: KvState, length: number): KvState {
    return this.inner.sliceKv(kv, length);
  }

  kvBytes(kv: KvState): number {
    return this.inner.kvBytes(kv);
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }

  private schedule(): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    // One macrotask of slack: callers woken by the previous pass issue their next steps in
    // microtasks, so by then they have all joined the batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.running || this.pending.length === 0) return;
    const batch = this.takeBatch();
    this.running = true;
    try {
      await this.runBatch(batch);
    } finally {
      this.running = false;
      if (this.pending.length > 0) this.schedule();
    }
  }

  private takeBatch(): PendingStep[] {
    let rows = 0;
    let past = 0;
    let apart = 0;
    let taken = 0;
    for (const step of this.pending) {
      const q = step.input.tokenIds.length;
      const p = step.input.past.length;
      const alone = this.passCost(q, q * (p + q), 0);
      if (taken > 0) {
        if (rows + q > this.maxRows || past + p > this.maxPast) break;
        if (!this.worthMerging(rows + q, past + p, apart + alone)) break;
      }
      rows += q;
      past += p;
      apart += alone;
      taken++;
    }
    return this.pending.splice(0, taken);
  }

  private async runBatch(batch: PendingStep[]): Promise<void> {
    const rows = batch.reduce((sum, s) => sum + s.input.tokenIds.length, 0);
    this.counters.passes++;
    this.counters.steps += batch.length;
    this.onPass?.(batch.length, rows);
    if (batch.length === 1) {
      const [only] = batch as [PendingStep];
      await this.inner.step(only.input).then(only.resolve, only.reject);
      return;
    }
    let outputs: StepOutput[];
    try {
      const merged = mergeSteps(
        batch.map((s) => s.input),
        this.inner.config,
      );
      const output = await this.inner.step(merged.input);
      outputs = merged.split(output);
    } catch {
      // A bad input must fail alone, not take its batch-mates down: run them one by one.
      for (const step of batch) await this.inner.step(step.input).then(step.resolve, step.reject);
      return;
    }
    batch.forEach((step, i) => {
      step.resolve(outputs[i]!);
    });
  }
}

/** Weights of a Qwen model of this shape (embeddings, layers, untied head). */
function weightCount(c: DecoderRuntime["config"]): number {
  const h = c.hiddenSize;
  const attention = h * c.numAttentionHeads * c.headDim * 2 + h * c.numKeyValueHeads * c.headDim * 2;
  const mlp = 3 * h * c.intermediateSize;
  const head = c.tieWordEmbeddings ? 0 : c.vocabSize * h;
  return c.vocabSize * h + head + c.numLayers * (attention + mlp);
}

/** Shape facts the merge needs. */
interface KvLayout {
  numLayers: number;
  numKeyValueHeads: number;
  headDim: number;
}

/** Merges steps of independent sequences into one step, and splits its output back. */
export function mergeSteps(
  inputs: readonly StepInput[],
  layout: KvLayout,
): { input: StepInput; split: (output: StepOutput) => StepOutput[] } {
  const { numLayers, numKeyValueHeads: kvH, headDim: d } = layout;
  const pastLengths = inputs.map((s) => s.past.length);
  const newLengths = inputs.map((s) => s.tokenIds.length);
  const pastOffsets = offsets(pastLengths);
  const rowOffsets = offsets(newLengths);
  const P = sum(pastLengths);
  const Q = sum(newLengths);
  const total = P + Q;

  const concatPast = (pick: (kv: KvState) => Float32Array[], layer: number) => {
    const out = new Float32Array(kvH * P * d);
    inputs.forEach((s, r) => {
      const src = pick(s.past)[layer]!;
      const len = pastLengths[r]!;
      for (let h = 0; h < kvH; h++) {
        out.set(src.subarray(h * len * d, (h + 1) * len * d), (h * P + pastOffsets[r]!) * d);
      }
    });
    return out;
  };
  const keys = Array.from({ length: numLayers }, (_, l) => concatPast((kv) => kv.keys, l));
  const values = Array.from({ length: numLayers }, (_, l) => concatPast((kv) => kv.values, l));

  const tokenIds = new Array<number>(Q);
  const positions = new Array<number>(Q);
  const mask = new Float32Array(Q * total).fill(Number.NEGATIVE_INFINITY);
  const logitRows: number[] = [];
  const rowCounts: number[] = [];
  inputs.forEach((s, r) => {
    const q = newLengths[r]!;
    const p = pastLengths[r]!;
    const rowBase = rowOffsets[r]!;
    const width = p + q;
    for (let i = 0; i < q; i++) {
      tokenIds[rowBase + i] = s.tokenIds[i]!;
      positions[rowBase + i] = s.positions[i]!;
      const row = (rowBase + i) * total;
      if (s.attentionMask) {
        const src = s.attentionMask.subarray(i * width, (i + 1) * width);
        mask.set(src.subarray(0, p), row + pastOffsets[r]!);
        mask.set(src.subarray(p), row + P + rowBase);
      } else {
        // Plain causal attention over this request's own past and new tokens.
        mask.fill(0, row + pastOffsets[r]!, row + pastOffsets[r]! + p);
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
    return inputs.map((_, r) => {
      const p = pastLengths[r]!;
      const q = newLengths[r]!;
      const own = (layer: Float32Array) => {
        const out = new Float32Array(kvH * (p + q) * d);
        for (let h = 0; h < kvH; h++) {
          const head = h * total * d;
          out.set(
            layer.subarray(head + pastOffsets[r]! * d, head + (pastOffsets[r]! + p) * d),
            h * (p + q) * d,
          );
          out.set(
            layer.subarray(head + (P + rowOffsets[r]!) * d, head + (P + rowOffsets[r]! + q) * d),
            (h * (p + q) + p) * d,
          );
        }
        return out;
      };
      return {
        logits: output.logits.slice(logitOffsets[r]! * vocab, (logitOffsets[r]! + rowCounts[r]!) * vocab),
        present: {
          length: p + q,
          keys: output.present.keys.map(own),
          values: output.present.values.map(own),
        },
      };
    });
  };

  return {
    input: { tokenIds, positions, attentionMask: mask, past: { length: P, keys, values }, logitRows },
    split,
  };
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
