/**
 * Several real-time callers ("lanes") on one model that decode at the same time: their steps
 * merge into shared forward passes (one merging {@link SequenceBatch}) and they keep one prefix cache,
 * so two agents' calls cost little more than one instead of queuing behind each other. What a
 * server's caller pool does, for a page's worker or any single-process game.
 */
import { RealtimeCaller } from "../caller/realtime-caller";
import type { CallerModel, RealtimeCallerOptions } from "../caller/types";
import type { MergePolicy } from "./batched-runtime";
import { DEFAULT_PREFIX_CACHE_BYTES } from "./prefix-cache";
import { SequenceBatch, type SequenceMergeOptions } from "./sequence-batch";

/** Options of {@link createCallerLanes}: each lane's caller options, and when steps merge. */
export interface CallerLanesOptions extends Omit<RealtimeCallerOptions, "prefixCache"> {
  /** When concurrent steps share a pass; default "cost" (see {@link SequenceMergeOptions}). */
  mergePolicy?: MergePolicy;
  /**
   * Limits and machine constants of merging (rows and past per merged pass, the cost model's
   * constants, the merge window); defaults suit native CPU kernels ({@link WASM_MERGE_OPTIONS}
   * for onnxruntime-web's WebAssembly ones).
   */
  merge?: Omit<SequenceMergeOptions, "policy" | "onPass" | "currentSignal">;
}

/**
 * Merging for onnxruntime-web's WebAssembly kernels (2 threads, chromium on the 2-core reference
 * machine), from rt-tiny's in-page calls in Neon Arena: a ship's prefill of 40-70 rows over ~300
 * cached positions takes 22-30 ms alone, but two ships' prefills merged took 50-106 ms, so a
 * merged pass holds few rows: several agents' decode steps share passes, prefills run apart.
 */
export const WASM_MERGE_OPTIONS: Readonly<NonNullable<CallerLanesOptions["merge"]>> = { maxRows: 32 };

/**
 * `lanes` callers on `model` whose concurrent calls share forward passes and one prefix cache.
 * Each lane decodes one call at a time; run calls on different lanes to batch them.
 *
 * @example
 * ```ts
 * const [a, b] = createCallerLanes(model, 2, { format: "v2", cacheSystemTurn: true });
 * const [left, right] = await Promise.all([a.call(leftShip), b.call(rightShip)]);
 * ```
 */
export function createCallerLanes(
  model: CallerModel,
  lanes: number,
  options: CallerLanesOptions = {},
): RealtimeCaller[] {
  if (!Number.isInteger(lanes) || lanes < 1)
    throw new RangeError(`lanes must be an integer >= 1, got ${lanes}`);
  const { mergePolicy, merge, ...callerOptions } = options;
  const cacheBytes = callerOptions.prefixCacheBytes ?? DEFAULT_PREFIX_CACHE_BYTES;
  // one sequence table for all lanes, as the server's pool has: their prompts and heads are
  // sequences of one merging SequenceBatch, so passes, the prefix cache and eviction are shared
  const sequences = new SequenceBatch(model.runtime, {
    prefixCacheBytes: cacheBytes,
    merge: { ...merge, policy: mergePolicy },
  });
  return Array.from(
    { length: lanes },
    () =>
      new RealtimeCaller(
        { runtime: sequences.runtime, tokenizer: model.tokenizer },
        { ...callerOptions, sequences },
      ),
  );
}
