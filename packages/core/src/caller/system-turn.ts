/**
 * The system turn (system prompt + tools) as a prefix-cache entry of its own. Calls that all
 * continue from one entry share its KV positions, which a server merging their forward passes
 * holds once; without it, calls that start cold at the same time each prefill the same turn and
 * every later call inherits one of those copies.
 */
import type { PrefixCache } from "../batch/prefix-cache";
import type { SequenceBatch } from "../batch/sequence-batch";

/** Prefills in flight per cache, keyed by token ids, so concurrent callers wait for one. */
const inFlight = new WeakMap<PrefixCache, Map<string, Promise<void>>>();

/**
 * Makes sure the prefix cache of `sequences` holds `ids` as an entry, prefilling what is missing
 * (on top of the longest cached prefix) at most once at a time per cache and sequence, even for
 * callers in different sequence batches over one cache.
 *
 * @example
 * ```ts
 * await cacheSystemTurn(sequences, systemIds);
 * sequences.prefixCache.lookup(promptIds); // now continues from the system turn's entry
 * ```
 */
export async function cacheSystemTurn(sequences: SequenceBatch, ids: readonly number[]): Promise<void> {
  const cache = sequences.prefixCache;
  if (!cache || ids.length === 0 || cache.holds(ids)) return;
  const flights = inFlight.get(cache) ?? new Map<string, Promise<void>>();
  inFlight.set(cache, flights);
  const key = ids.join(",");
  let flight = flights.get(key);
  if (!flight) {
    flight = sequences
      .prefill(ids)
      .then(() => undefined)
      .finally(() => flights.delete(key));
    flights.set(key, flight);
  }
  await flight;
}
