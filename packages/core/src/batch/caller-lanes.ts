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
}

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
  const { mergePolicy, ...callerOptions } = options;
  const cacheBytes = callerOptions.prefixCacheBytes ?? DEFAULT_PREFIX_CACHE_BYTES;
  // one sequence table for all lanes, as the server's pool has: their prompts and heads are
  // sequences of one merging SequenceBatch, so passes, the prefix cache and eviction are shared
  const sequences = new SequenceBatch(model.runtime, {
    prefixCacheBytes: cacheBytes,
    merge: { policy: mergePolicy },
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
