import { describe, expect, test } from "bun:test";
import type { KvState } from "../runtime/types";
import { type KvOps, PrefixCache } from "./prefix-cache";

const KV_HEADS = 2;

/** A KV whose every value names the token it belongs to, so slices can be checked. */
function kvOf(ids: number[]): KvState {
  const keys = new Float32Array(KV_HEADS * ids.length);
  for (let h = 0; h < KV_HEADS; h++) for (let t = 0; t < ids.length; t++) keys[h * ids.length + t] = ids[t];
  return { length: ids.length, keys: [keys], values: [keys.slice()] };
}

const ops: KvOps & { slices: number } = {
  slices: 0,
  sliceKv(kv, length) {
    this.slices++;
    const cut = (a: Float32Array) => {
      const out = new Float32Array(KV_HEADS * length);
      for (let h = 0; h < KV_HEADS; h++)
        out.set(a.subarray(h * kv.length, h * kv.length + length), h * length);
      return out;
    };
    return { length, keys: kv.keys.map(cut), values: kv.values.map(cut) };
  },
  kvBytes: (kv) => kv.keys.reduce((s, a) => s + a.byteLength, 0) * 2,
};

/** The token ids a KV was built from (head 0 of layer 0). */
const idsIn = (kv: KvState | null) => (kv ? Array.from(kv.keys[0].subarray(0, kv.length)) : []);

describe("PrefixCache", () => {
  test("a miss on an empty cache", () => {
    const cache = new PrefixCache(ops, { maxBytes: 1 << 20 });
    expect(cache.lookup([1, 2, 3])).toEqual({ length: 0, kv: null });
    expect(cache.stats().misses).toBe(1);
  });

  test("an exact hit returns the stored KV without slicing", () => {
    const cache = new PrefixCache(ops, { maxBytes: 1 << 20 });
    const kv = kvOf([5, 6, 7]);
    cache.insert([5, 6, 7], kv);
    const before = ops.slices;
    const hit = cache.lookup([5, 6, 7, 8, 9]);
    expect(hit.length).toBe(3);
    expect(hit.kv).toBe(kv);
    expect(ops.slices).toBe(before);
  });

  test("a match ending inside a stored sequence slices its KV to the match", () => {
    const cache = new PrefixCache(ops, { maxBytes: 1 << 20 });
    cache.insert([1, 2, 3, 4, 5], kvOf([1, 2, 3, 4, 5]));
    const hit = cache.lookup([1, 2, 3, 9]);
    expect(hit.length).toBe(3);
    expect(idsIn(hit.kv)).toEqual([1, 2, 3]);
    expect(hit.kv!.keys[0].length).toBe(KV_HEADS * 3);
    // the second KV head was sliced too
    expect(Array.from(hit.kv!.keys[0].subarray(3))).toEqual([1, 2, 3]);
  });

  test("the longest common token prefix wins across branching sequences", () => {
    const cache = new PrefixCache(ops, { maxBytes: 1 << 20 });
    cache.insert([1, 2, 3, 4], kvOf([1, 2, 3, 4]));
    cache.insert([1, 2, 7, 8, 9], kvOf([1, 2, 7, 8, 9]));
    cache.insert([1, 2], kvOf([1, 2]));
    expect(cache.lookup([1, 2, 7, 8, 0]).length).toBe(4);
    expect(idsIn(cache.lookup([1, 2, 7, 8, 0]).kv)).toEqual([1, 2, 7, 8]);
    expect(cache.lookup([1, 2, 3, 4, 5]).length).toBe(4);
    expect(idsIn(cache.lookup([1, 2, 5]).kv)).toEqual([1, 2]);
    expect(cache.lookup([2, 1]).length).toBe(0);
    // shared prefixes are counted once: [1,2] + [3,4] + [7,8,9]
    expect(cache.stats().cachedTokens).toBe(7);
    expect(cache.stats().entries).toBe(3);
  });

  test("maxLength caps the match", () => {
    const cache = new PrefixCache(ops, { maxBytes: 1 << 20 });
    cache.insert([1, 2, 3, 4], kvOf([1, 2, 3, 4]));
    const hit = cache.lookup([1, 2, 3, 4], 3);
    expect(hit.length).toBe(3);
    expect(idsIn(hit.kv)).toEqual([1, 2, 3]);
  });

  test("inserting a longer KV than the ids stores a slice", () => {
    const cache = new PrefixCache(ops, { maxBytes: 1 << 20 });
    cache.insert([1, 2], kvOf([1, 2, 3]));
    expect(idsIn(cache.lookup([1, 2, 3]).kv)).toEqual([1, 2]);
    expect(() => cache.insert([1, 2, 3], kvOf([1]))).toThrow(RangeError);
  });

  test("re-inserting the same ids replaces the entry and its bytes", () => {
    const cache = new PrefixCache(ops, { maxBytes: 1 << 20 });
    cache.insert([1, 2], kvOf([1, 2]));
    const replacement = kvOf([1, 2]);
    cache.insert([1, 2], replacement);
    expect(cache.stats().entries).toBe(1);
    expect(cache.stats().bytes).toBe(ops.kvBytes(replacement));
    expect(cache.lookup([1, 2]).kv).toBe(replacement);
  });

  test("LRU eviction keeps bytes under the bound and evicts the least recently used", () => {
    const one = ops.kvBytes(kvOf([0, 0]));
    const cache = new PrefixCache(ops, { maxBytes: one * 2 });
    cache.insert([1, 1], kvOf([1, 1]));
    cache.insert([2, 2], kvOf([2, 2]));
    cache.lookup([1, 1]); // [1,1] is now more recent than [2,2]
    cache.insert([3, 3], kvOf([3, 3]));
    const stats = cache.stats();
    expect(stats.evictions).toBe(1);
    expect(stats.bytes).toBeLessThanOrEqual(one * 2);
    expect(cache.lookup([2, 2]).length).toBe(0);
    expect(cache.lookup([1, 1]).length).toBe(2);
    expect(cache.lookup([3, 3]).length).toBe(2);
    expect(cache.stats().cachedTokens).toBe(4);
  });

  test("a prefix entry that lookups run through stays recently used (a system turn is not the first evicted)", () => {
    const system = [7, 7, 7];
    // Frames share more than the turn (the user turn's opening), so lookups match past its entry.
    const frame = (i: number) => [...system, 50, 51, 100 + i, 200 + i];
    const cache = new PrefixCache(ops, {
      maxBytes: ops.kvBytes(kvOf(frame(0))) * 2 + ops.kvBytes(kvOf(system)),
    });
    cache.insert(system, kvOf(system));
    // Every frame continues from the system turn and caches its own prompt, as the arena's agents do.
    for (let i = 0; i < 6; i++) {
      expect(cache.lookup(frame(i)).length).toBeGreaterThanOrEqual(system.length);
      cache.insert(frame(i), kvOf(frame(i)));
    }
    expect(cache.stats().evictions).toBeGreaterThan(0);
    expect(cache.holds(system)).toBe(true);
  });

  test("eviction prunes the tree and merges edges, keeping lookups right", () => {
    const cache = new PrefixCache(ops, { maxBytes: ops.kvBytes(kvOf([1, 2, 3, 4, 5])) });
    cache.insert([1, 2, 3], kvOf([1, 2, 3]));
    cache.insert([1, 2, 4, 5], kvOf([1, 2, 4, 5])); // evicts [1,2,3]
    expect(cache.stats().evictions).toBe(1);
    expect(cache.stats().cachedTokens).toBe(4);
    expect(cache.lookup([1, 2, 3]).length).toBe(2);
    expect(idsIn(cache.lookup([1, 2, 4, 5, 6]).kv)).toEqual([1, 2, 4, 5]);
  });

  test("an entry larger than the bound is not stored", () => {
    const cache = new PrefixCache(ops, { maxBytes: 8 });
    cache.insert([1, 2, 3], kvOf([1, 2, 3]));
    expect(cache.stats().entries).toBe(0);
    expect(cache.lookup([1, 2, 3]).length).toBe(0);
  });

  test("counters: hits, misses and reused tokens", () => {
    const cache = new PrefixCache(ops, { maxBytes: 1 << 20 });
    cache.insert([1, 2, 3], kvOf([1, 2, 3]));
    cache.lookup([1, 2, 3, 4]);
    cache.lookup([1, 9]);
    cache.lookup([9]);
    const stats = cache.stats();
    expect([stats.hits, stats.misses, stats.reusedTokens]).toEqual([2, 1, 4]);
    cache.clear();
    expect(cache.stats().entries).toBe(0);
    expect(cache.stats().bytes).toBe(0);
    expect(cache.stats().cachedTokens).toBe(0);
  });
});
