/**
 * Cross-request batching at the forward-pass level. `BatchedRuntime` wraps a
 * {@link DecoderRuntime}: steps that callers ask for while a forward pass runs are merged into the
 * next one ({@link mergeSteps}), so every caller gets the logits and present KV it would have got
 * alone. Leading positions that several pasts share (calls continuing from one cached system
 * turn, see {@link KvLineage}) are held once, and each caller's present is a view (`SplitKv`)
 * of its own past and its rows of the pass's new ones. The decoders above never notice;
 * concurrent callers simply share the fixed cost and weight reads of one pass instead of queuing
 * for the session.
 *
 * This file owns only the queue of pending steps; the tensors are `merge-steps.ts`'s, the
 * decision to merge `pass-cost.ts`'s.
 */

import { PassBuffers } from "../runtime/pass-buffers";
import { kvPrefix, kvViewBytes, SplitKv, unmadeView } from "../runtime/split-kv";
import type { DecoderRuntime, KvState, StepInput, StepOutput, StepTiming } from "../runtime/types";
import { RequestAbortedError } from "./errors";
import { KvLineage } from "./kv-lineage";
import { mergeSteps } from "./merge-steps";
import { PassCostModel, type PassCostOptions } from "./pass-cost";

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
export interface BatchedRuntimeOptions extends PassCostOptions {
  /** Default "cost". */
  policy?: MergePolicy;
  /** Most new tokens (rows) in one merged pass; default 512. A larger step still runs, alone. */
  maxRows?: number;
  /** Most past positions in one merged pass; default 32768. */
  maxPast?: number;
  /** Told after every forward pass: requests merged and rows computed (metrics, tests). */
  onPass?: (requests: number, rows: number) => void;
  /**
   * How long a step that finds the session idle waits for other requests' steps before its pass
   * starts, in ms; default 0 (one macrotask: the steps issued in the same turn of the event loop
   * join). Requests that arrive together over HTTP (game agents ticking in the same frame) reach
   * the batcher some hundred microseconds apart; a window of about a millisecond lets their passes
   * merge, at that cost to a request that comes alone. Steps arriving while a pass runs wait for
   * it anyway and are never held longer.
   */
  mergeWindowMs?: number;
  /**
   * The abort signal of the request the calling code works for, read on every `step` (a server
   * keeps it in an `AsyncLocalStorage` scope, so callers and decoders need not pass a signal
   * through every layer). A step of an aborted request is refused, and one still queued when its
   * request aborts leaves the queue. Default: no signal, nothing is ever refused.
   */
  currentSignal?: () => AbortSignal | undefined;
}

interface PendingStep {
  input: StepInput;
  /** When `step()` queued it, so its reply can say how long it waited for a pass. */
  queuedAt: number;
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
  private readonly mergeWindowMs: number;
  private readonly cost: PassCostModel;
  private readonly currentSignal: () => AbortSignal | undefined;
  /** The merged past and mask of each pass, written over by the next (one pass runs at a time). */
  private readonly buffers = new PassBuffers();
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
    this.mergeWindowMs = options.mergeWindowMs ?? 0;
    if (!(this.mergeWindowMs >= 0))
      throw new RangeError(`mergeWindowMs must be >= 0, got ${options.mergeWindowMs}`);
    this.cost = new PassCostModel(inner.config, options);
    this.currentSignal = options.currentSignal ?? (() => undefined);
  }

  get config() {
    return this.inner.config;
  }

  get provider() {
    return this.inner.provider;
  }

  /**
   * Queues a step for the next pass. A step of an aborted request (see `currentSignal`) is
   * refused with a {@link RequestAbortedError}, and one still waiting when its request aborts
   * leaves the queue at once: the decode loop above it ends, and its KV is no longer referenced.
   */
  step(input: StepInput): Promise<StepOutput> {
    const signal = this.currentSignal();
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
        queuedAt: performance.now(),
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

  /**
   * The first `length` positions of `kv` as a view of the same arrays where that holds at least
   * half of them, else a copy (see {@link kvPrefix}): the prompts a prefix cache keeps, and the
   * cached parts it hands out, are then no fresh memory per call. The passes that read them copy
   * their positions into the merged past anyway.
   */
  sliceKv(kv: KvState, length: number): KvState {
    const slice = kvPrefix(kv, length, this.inner.config);
    this.lineage.derive(kv, slice, length);
    return slice;
  }

  kvBytes(kv: KvState): number {
    return kv instanceof SplitKv ? kvViewBytes(kv) : this.inner.kvBytes(kv);
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }

  private schedule(afterPass = false): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      void this.flush();
    };
    // One macrotask of slack: callers woken by the previous pass issue their next steps in
    // microtasks, so by then they have all joined the batch. A step that found the session idle
    // may also wait the merge window for requests arriving just after it.
    if (this.mergeWindowMs > 0 && !afterPass) setTimeout(run, this.mergeWindowMs);
    else nextMacrotask(run);
  }

  private async flush(): Promise<void> {
    if (this.running || this.pending.length === 0) return;
    const batch = this.takeBatch();
    this.running = true;
    try {
      await this.runBatch(batch);
    } finally {
      this.running = false;
      if (this.pending.length > 0) this.schedule(true);
    }
  }

  private takeBatch(): PendingStep[] {
    const taken: StepInput[] = [];
    let rows = 0;
    let apart = 0;
    for (const step of this.pending) {
      const alone = this.cost.alone(step.input);
      if (taken.length > 0) {
        if (rows + step.input.tokenIds.length > this.maxRows) break;
        const candidate = [...taken, step.input];
        const merged = this.cost.merged(
          candidate,
          candidate.map((s) => this.lineage.anchorOf(s.past)),
        );
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
    // A lone step over a plain past goes as it is; one over a view is copied into the pass's
    // buffers like a merged step, not made contiguous in fresh memory by the runtime.
    if (batch.length === 1 && !unmadeView(batch[0]!.input.past)) {
      const [only] = batch as [PendingStep];
      await this.runAlone(only);
      return;
    }
    let outputs: StepOutput[];
    const passStarted = performance.now();
    try {
      const inputs = batch.map((s) => s.input);
      const merged = mergeSteps(
        inputs,
        this.inner.config,
        inputs.map((s) => this.lineage.anchorOf(s.past)),
        this.buffers,
      );
      const output = await this.inner.step(merged.input);
      outputs = merged.split(output);
    } catch {
      // A bad input must fail alone, not take its batch-mates down: run them one by one.
      for (const step of batch) await this.runAlone(step);
      return;
    }
    const passMs = performance.now() - passStarted;
    batch.forEach((step, i) => {
      this.resolveStep(step, outputs[i]!, timingOf(step, passStarted, passMs, batch.length));
    });
  }

  private async runAlone(step: PendingStep): Promise<void> {
    const started = performance.now();
    await this.inner
      .step(step.input)
      .then(
        (output) => this.resolveStep(step, output, timingOf(step, started, performance.now() - started, 1)),
        step.reject,
      );
  }

  /** A step's present begins with its past: later merges may share those positions. */
  private resolveStep(step: PendingStep, output: StepOutput, timing: StepTiming): void {
    this.lineage.derive(step.input.past, output.present, step.input.past.length);
    step.resolve({ ...output, timing });
  }
}

/** What a step's caller learns of its wait and pass (the per-stage timings of a call). */
function timingOf(step: PendingStep, passStarted: number, passMs: number, requests: number): StepTiming {
  return { waitMs: Math.max(0, passStarted - step.queuedAt), passMs, requests };
}

/** `setImmediate` where there is one (Bun, Node), else a zero timeout (browsers). */
function nextMacrotask(run: () => void): void {
  if (typeof setImmediate === "function") setImmediate(run);
  else setTimeout(run, 0);
}
