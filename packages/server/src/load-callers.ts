/**
 * From a model directory to what the server serves: `loadModel`, one of core's
 * {@link SequenceBatch} over its runtime (merging concurrent requests' passes, with one prefix
 * cache and the request's abort signal), and one {@link CallerPool} of real-time callers (lanes)
 * in it, serving both prompt formats (each request names its own).
 */
import {
  AnswerCache,
  type CallerModel,
  DEFAULT_PREFIX_CACHE_BYTES,
  type LoadProgress,
  loadModel,
  loadModelInWorker,
  type MergePolicy,
  RealtimeCaller,
  type RtoolTokenizer,
  SequenceBatch,
  type SequenceBatchStats,
} from "@rtool/core";
import { DEFAULT_CONCURRENCY } from "./batching/call-queue";
import { CallerPool } from "./batching/caller-pool";
import { currentRequestSignal } from "./cancel/abort-scope";
import { LocalCompletions } from "./engine/local-completions";
import type { CompletionEngine } from "./engine/types";
import type { LoadedModel } from "./model-host";

/** Options of {@link loadCallers}. */
export interface LoadCallersOptions {
  provider?: "cpu" | "cuda" | "auto";
  threads?: number;
  /** Prompt-lookup drafts per head and pass; default the model's (`defaultDraftTokens` in core). */
  draftTokens?: number;
  /** Quantize float weights on load; default "none" (AWQ checkpoints load as they are). */
  quant?: "none" | "int8" | "int4";
  /** Keep the built graph in the on-disk cache; default true. */
  cache?: boolean;
  /** Load without checking every float tensor for NaN/Inf; default false. */
  skipWeightCheck?: boolean;
  /**
   * Run forward passes in a worker thread (`loadModelInWorker`); default false. onnxruntime-node
   * runs a pass on the calling thread, so otherwise requests wait to be read and answered while
   * one runs.
   */
  sessionWorker?: boolean;
  /** Most callers (created as concurrency needs them): calls decoded at once; default {@link DEFAULT_CONCURRENCY}. */
  lanes?: number;
  /** Prefix-cache bytes (one cache for all lanes and both formats); default 256 MiB; 0: off. */
  prefixCacheBytes?: number;
  /**
   * Greedy calls' answers kept by exact prompt and settings (one cache for all lanes): a repeated
   * prompt (a game agent whose world did not change) is answered without a forward pass. Default
   * 256; 0: off.
   */
  answerCacheEntries?: number;
  /** Loading stages, for a progress display. */
  onProgress?: (progress: LoadProgress) => void;
  onWarning?: (message: string) => void;
  /** When concurrent steps share a forward pass; default "cost" (see {@link MergePolicy}). */
  mergePolicy?: MergePolicy;
  /** How long a step that finds the session idle waits for other requests' steps, in ms; default 0 (core's `mergeWindowMs`). */
  mergeWindowMs?: number;
  /** Told after every forward pass: calls' steps merged, rows computed. */
  onPass?: (requests: number, rows: number) => void;
}

/** A loaded model with its sequence batch (for metrics and benchmarks). */
export interface LoadedCallers extends LoadedModel {
  /** The sequence batch that lanes and completions share (core's: passes, KV, prefix cache). */
  sequences: SequenceBatch;
  /** Passes, steps, aborted steps, open sequences and the prefix cache (`sequences.stats()`). */
  batchStats(): SequenceBatchStats;
  /** The lanes serving both formats (also `caller`). */
  pool: CallerPool;
  /** `/v1/completions` on the same batching runtime. */
  completions: CompletionEngine;
}

/**
 * Loads a model directory for serving.
 *
 * @example
 * ```ts
 * const server = createServer({ model: loadCallers("models/rt-tiny", { lanes: 16 }), modelName: "rt-tiny" });
 * ```
 */
export async function loadCallers(dir: string, options: LoadCallersOptions = {}): Promise<LoadedCallers> {
  const load = options.sessionWorker ? loadModelInWorker : loadModel;
  const model = await load(dir, {
    provider: options.provider,
    threads: options.threads,
    cache: options.cache,
    quant: options.quant,
    skipWeightCheck: options.skipWeightCheck,
    onProgress: options.onProgress,
    onWarning: options.onWarning,
  });
  return serveModel(model, options);
}

/** A model already in memory: its runtime, tokenizer and how to release it. */
export interface ModelToServe extends CallerModel {
  readonly tokenizer: RtoolTokenizer;
  dispose(): Promise<void>;
}

/**
 * What {@link loadCallers} builds, over a model already loaded (or a runtime wrapped by a test or
 * an embedding application).
 *
 * @example
 * ```ts
 * const model = await loadModel("models/rt-tiny");
 * const server = createServer({ model: serveModel(model, { lanes: 8 }) });
 * ```
 */
export function serveModel(model: ModelToServe, options: LoadCallersOptions = {}): LoadedCallers {
  // One sequence batch for all lanes and completions: core opens every prompt and head there,
  // and merges concurrent requests' steps into shared passes. Its one prefix cache serves all
  // lanes and both formats: it keys on tokens, so a lane never prefills what another has cached,
  // calls continuing from the same cached prefix share it in merged passes, and v1 and v2 share
  // one memory budget instead of holding one each.
  const sequences = new SequenceBatch(model.runtime, {
    prefixCacheBytes: options.prefixCacheBytes ?? DEFAULT_PREFIX_CACHE_BYTES,
    merge: {
      onPass: options.onPass,
      policy: options.mergePolicy,
      mergeWindowMs: options.mergeWindowMs,
      // A request's steps stop at its next forward pass once it aborts (see cancel/abort-scope.ts).
      currentSignal: currentRequestSignal,
    },
  });
  // The callers run on the batch's (merging) runtime.
  const runtime = sequences.runtime;
  const lanes = options.lanes ?? DEFAULT_CONCURRENCY;
  const { prefixCache } = sequences;
  const answerEntries = options.answerCacheEntries ?? 256;
  const answerCache = answerEntries > 0 ? new AnswerCache(answerEntries) : null;
  const pool = new CallerPool(
    () =>
      new RealtimeCaller(
        { runtime, tokenizer: model.tokenizer },
        {
          // no default format: every request names its own (the routes set it)
          sequences,
          answerCache,
          cacheSystemTurn: true,
          draftTokens: options.draftTokens,
        },
      ),
    lanes,
    prefixCache ? () => prefixCache.stats() : undefined,
  );
  return {
    caller: pool,
    pool,
    sequences,
    provider: runtime.provider,
    completions: new LocalCompletions({ runtime, tokenizer: model.tokenizer }, { sequences }),
    batchStats: () => sequences.stats(),
    dispose: () => model.dispose(),
  };
}
