/**
 * Cross-request batching at the forward-pass level. `BatchedRuntime` wraps a
 * {@link DecoderRuntime}: steps that callers ask for while a forward pass runs are merged into the
 * next one. Each request's past KV becomes one segment of a combined past, its new tokens one
 * block of rows, and the mask is block-diagonal (a request's rows see only its own segment and
 * its own new tokens, under its own tree mask), so every request gets the logits and present KV
 * it would have got alone. Leading positions that several pasts share (calls continuing from one
 * cached system turn, see {@link KvLineage}) are held once, and each request's present stays a
 * view of the merged present ({@link SplitKv}). The decoders above never notice; concurrent calls
 * simply share the fixed cost and weight reads of one pass instead of queuing for the session.
 */
import type { DecoderRuntime, KvState, StepInput, StepOutput } from "@rtool/core";
import { currentRequestSignal, RequestAbortedError } from "../cancel/abort-scope";
import { type KvAnchor, KvLineage, layoutSharedPast } from "./kv-lineage";
import { copyPositions, SplitKv } from "./split-kv";

/**
 * When steps are merged. A merged pass pays the fixed cost of a pass and reads the weights once
 * instead of once per step; its block-diagonal attention scores every new row against the whole
 * merged past, and pasts are copied in and presents out. Leading positions that the pasts share
 * (the same cached system prompt and tools) are held once. `"cost"` merges a step only while the
 * modelled cost of the merged pass stays below that of separate passes (estimated from the
 * model's shape); `"always"` merges up to the row and past limits.
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
  /**
   * Fixed cost of one forward pass (session dispatch, kernel launches), as bytes read at the
   * memory bandwidth; default 48 MB, about 1.5 ms at 33 GB/s (rt-tiny: 1.9-2.5 ms for one token
   * on one thread, measured).
   */
  passOverheadBytes?: number;
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
  private readonly lineage = new KvLineage();
  private readonly maxRows: number;
  private readonly maxPast: number;
  private readonly onPass?: (requests: number, rows: number) => void;
  private readonly policy: MergePolicy;
  private readonly passOverheadBytes: number;
  /** Bytes of weights one pass reads. */
  private readonly weightBytes: number;
  /** Byte-equivalent cost of one row's matmul arithmetic (2 FLOPs per weight). */
  private readonly rowBytes: number;
  /** Byte-equivalent cost of one attention score (one new row against one past position). */
  private readonly scoreBytes: number;
  /** Bytes moved to copy one position of KV (all layers, keys and values; read and written). */
  private readonly copyPositionBytes: number;
  /** Forward passes run, steps served by them, and steps refused because their request was aborted. */
  readonly counters = { passes: 0, steps: 0, abortedSteps: 0 };

  constructor(
    readonly inner: DecoderRuntime,
    options: BatchedRuntimeOptions = {},
  ) {
    this.maxRows = options.maxRows ?? 512;
    this.maxPast = options.maxPast ?? 32768;
    this.onPass = options.onPass;
    this.policy = options.policy ?? "cost";
    this.passOverheadBytes = options.passOverheadBytes ?? 48e6;
    const c = inner.config;
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
   * Modelled cost of one pass, in bytes read: the fixed cost, weights or arithmetic (whichever
   * bounds it), attention scores and KV positions copied.
   */
  private passCost(rows: number, scores: number, copied: number): number {
    return (
      this.passOverheadBytes +
      Math.max(this.weightBytes, rows * this.rowBytes) +
      scores * this.scoreBytes +
      copied * this.copyPositionBytes
    );
  }

  /** A step run alone: the graph copies its past into the present, which is copied out. */
  private aloneCost(input: StepInput): number {
    const q = input.tokenIds.length;
    const p = input.past.length;
    return this.passCost(q, q * (p + q), 2 * (p + q));
  }

  /**
   * Merged-past length and modelled cost of one pass over `inputs`: the merged past is copied
   * in, then into the merged present inside the graph and out of it (requests' presents are
   * views of that, see {@link SplitKv}).
   */
  private mergedCost(inputs: readonly StepInput[]): { past: number; cost: number } {
    const layout = layoutSharedPast(
      inputs.map((s) => s.past.length),
      inputs.map((s) => this.lineage.anchorOf(s.past)),
    );
    const P = layout.total;
    let Q = 0;
    for (const s of inputs) Q += s.tokenIds.length;
    return { past: P, cost: this.passCost(Q, Q * (P + Q), P + 2 * (P + Q)) };
  }

  get config() {
    return this.inner.config;
  }

  get provider() {
    return this.inner.provider;
  }

  /**
   * Queues a step for the next pass. A step of an aborted request (see `withRequestSignal`) is
   * refused with a {@link RequestAbortedError}, and one still waiting when its request aborts
   * leaves the queue at once: the decode loop above it ends, and its KV is no longer referenced.
   */
  step(input: StepInput): Promise<StepOutput> {
    const signal = currentRequestSignal();
    if (signal?.aborted) {
      this.counters.abortedSteps++;
      return Promise.reject(new RequestAbortedError(signal.reason));
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = this.pending.indexOf(step);
        if (at < 0) return; // already in a pass: its result is dropped by the decoder's next step
        this.pending.splice(at, 1);
        this.counters.abortedSteps++;
        reject(new RequestAbortedError(signal!.reason));
      };
      // Stop listening once the step has a result: the signal outlives it.
      const detach = () => signal?.removeEventListener("abort", onAbort);
      const step: PendingStep = {
        input,
        resolve: (output) => {
          detach();
          resolve(output);
        },
        reject: (error) => {
          detach();
          reject(error);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.push(step);
      this.schedule();
    });
  }

  emptyKv(): KvState {
    return this.inner.emptyKv();
  }

  sliceKv(kv: KvState, length: number): KvState {
    const slice = this.inner.sliceKv(kv, length);
    this.lineage.derive(kv, slice, length);
    return slice;
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
    const taken: StepInput[] = [];
    let rows = 0;
    let apart = 0;
    for (const step of this.pending) {
      const alone = this.aloneCost(step.input);
      if (taken.length > 0) {
        if (rows + step.input.tokenIds.length > this.maxRows) break;
        const merged = this.mergedCost([...taken, step.input]);
        if (merged.past > this.maxPast) break;
        if (this.policy === "cost" && merged.cost > apart + alone) break;
      }
      taken.push(step.input);
      rows += step.input.tokenIds.length;
      apart += alone;
    }
    return this.pending.splice(0, taken.length);
  }

  private async runBatch(batch: PendingStep[]): Promise<void> {
    const rows = batch.reduce((sum, s) => sum + s.input.tokenIds.length, 0);
    this.counters.passes++;
    this.counters.steps += batch.length;
    this.onPass?.(batch.length, rows);
    if (batch.length === 1) {
      const [only] = batch as [PendingStep];
      await this.runAlone(only);
      return;
    }
    let outputs: StepOutput[];
    try {
      const inputs = batch.map((s) => s.input);
      const merged = mergeSteps(
        inputs,
        this.inner.config,
        inputs.map((s) => this.lineage.anchorOf(s.past)),
      );
      const output = await this.inner.step(merged.input);
      outputs = merged.split(output);
    } catch {
      // A bad input must fail alone, not take its batch-mates down: run them one by one.
      for (const step of batch) await this.runAlone(step);
      return;
    }
    batch.forEach((step, i) => {
      this.resolveStep(step, outputs[i]!);
    });
  }

  private async runAlone(step: PendingStep): Promise<void> {
    await this.inner.step(step.input).then((output) => this.resolveStep(step, output), step.reject);
  }

  /** A step's present begins with its past: later merges may share those positions. */
  private resolveStep(step: PendingStep, output: StepOutput): void {
    this.lineage.derive(step.input.past, output.present, step.input.past.length);
    step.resolve(output);
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

/**
 * Merges steps of independent sequences into one step, and splits its output back. With
 * `anchors` (from a {@link KvLineage}), leading positions that several pasts share are held once.
 */
export function mergeSteps(
  inputs: readonly StepInput[],
  layout: KvLayout,
  anchors?: readonly (KvAnchor | null)[],
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
    const out = new Float32Array(kvH * P * d);
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
  const mask = new Float32Array(Q * total).fill(Number.NEGATIVE_INFINITY);
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

  // Each request's present stays a view of the merged present (see SplitKv): its shared run,
  // its own past, its new rows.
  const split = (output: StepOutput): StepOutput[] => {
    const vocab = output.logits.length / logitRows.length;
    const logitOffsets = offsets(rowCounts);
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
        { from: past.sharedOffsets[r]!, length: shared },
        { from: past.ownOffsets[r]!, length: p - shared },
        { from: P + rowOffsets[r]!, length: newLengths[r]! },
      ].filter((run) => run.length > 0);
      return {
        logits: output.logits.slice(logitOffsets[r]! * vocab, (logitOffsets[r]! + rowCounts[r]!) * vocab),
        present: new SplitKv(source, runs),
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
