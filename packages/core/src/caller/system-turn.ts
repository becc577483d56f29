/**
 * The system turn (system prompt + tools) as a prefix-cache entry of its own. Calls that all
 * continue from one entry share its KV positions, which a server merging their forward passes
 * holds once; without it, calls that start cold at the same time each prefill the same turn and
 * every later call inherits one of those copies.
 */
import type { PrefixCache } from "../batch/prefix-cache";
import type { DecoderRuntime } from "../runtime/types";

/** Prefills in flight per cache, keyed by token ids, so concurrent callers wait for one. */
const inFlight = new WeakMap<PrefixCache, Map<string, Promise<void>>>();

/**
 * Makes sure `cache` holds `ids` as an entry, prefilling what is missing (on top of the longest
 * cached prefix) at most once at a time per cache and sequence.
 *
 * @example
 * ```ts
 * await cacheSystemTurn(cache, runtime, systemIds);
 * cache.lookup(promptIds); // now continues from the system turn's entry
 * ```
 */
export async function cacheSystemTurn(
  cache: PrefixCache,
  runtime: DecoderRuntime,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0 || cache.holds(ids)) return;
  const flights = inFlight.get(cache) ?? new Map<string, Promise<void>>();
  inFlight.set(cache, flights);
  const key = ids.join(",");
  let flight = flights.get(key);
  if (!flight) {
    const started = (async () => {
      const match = cache.lookup(ids);
      if (match.kv && match.length === ids.length) {
        // Inside a longer entry: its slice becomes the turn's own entry.
        cache.insert(ids, match.kv);
        return;
      }
      const past = match.kv ?? runtime.emptyKv();
      const pending = ids.slice(match.length);
      const { present } = await runtime.step({
        tokenIds: pending,
        positions: pending.map((_, i) => match.length + i),
        past,
      });
      cache.insert(ids, present);
    })();
    flight = started.finally(() => flights.delete(key));
    flights.set(key, flight);
  }
  await flight;
}
