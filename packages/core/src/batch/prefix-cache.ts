/**
 * Prefix cache: the KV of prompts already prefilled, found again by the longest common *token*
 * prefix. System + tools stay constant from frame to frame and history/environment lines often
 * share their first lines, so a radix tree over token ids reuses every unchanged prompt token,
 * not only a fixed system block.
 */
import type { DecoderRuntime, KvState } from "../runtime/types";

/** The two KV operations the cache needs; a `DecoderRuntime` provides both. */
export type KvOps = Pick<DecoderRuntime, "sliceKv" | "kvBytes">;

/** Options of {@link PrefixCache}. */
export interface PrefixCacheOptions {
  /**
   * Upper bound on the bytes of KV held, as `kvBytes` counts them; least recently used entries
   * go first. Over a merging runtime, entries are views of the passes that made them and may
   * keep up to twice their bytes alive (see `kvPrefix`).
   */
  maxBytes: number;
}

/** What {@link PrefixCache.lookup} found. */
export interface PrefixMatch {
  /** Number of leading tokens of the query whose KV is cached (0 on a miss). */
  length: number;
  /** KV for exactly `length` tokens; shared with the cache, so treat it as read-only. */
  kv: KvState | null;
}

/** Counters of a {@link PrefixCache}. */
export interface PrefixCacheStats {
  /** Lookups that matched at least one token. */
  hits: number;
  /** Lookups that matched nothing. */
  misses: number;
  /** Entries dropped to stay under `maxBytes`. */
  evictions: number;
  /** Distinct token positions held by the tree (shared prefixes counted once). */
  cachedTokens: number;
  /** Prompt tokens whose prefill lookups saved, summed over all lookups. */
  reusedTokens: number;
  /** Stored sequences. */
  entries: number;
  /** KV bytes held. */
  bytes: number;
  maxBytes: number;
}

interface Entry {
  node: RadixNode;
  kv: KvState;
  bytes: number;
}

/** A node sits at the end of its edge; `depth` is the token count from the root to here. */
interface RadixNode {
  parent: RadixNode | null;
  edge: number[];
  depth: number;
  children: Map<number, RadixNode>;
  entry: Entry | null;
}

function newNode(parent: RadixNode | null, edge: number[], depth: number): RadixNode {
  return { parent, edge, depth, children: new Map(), entry: null };
}

/** Length of the common prefix of `edge` and `ids[from..]`. */
function commonLength(edge: number[], ids: ArrayLike<number>, from: number): number {
  const limit = Math.min(edge.length, ids.length - from);
  let i = 0;
  while (i < limit && edge[i] === ids[from + i]) i++;
  return i;
}

/**
 * The prefix-cache budget a caller, a set of caller lanes or a server gets unless told otherwise:
 * room for the system turns and tools of many agents at the tiny and 0.5B shapes.
 */
export const DEFAULT_PREFIX_CACHE_BYTES = 256 * 1024 * 1024;

/**
 * Radix tree over token ids whose stored sequences carry their KV, with LRU eviction bounded in
 * bytes. A lookup ending inside a stored sequence slices that sequence's KV (one copy of the
 * matched length); a lookup ending exactly on one returns it without copying.
 *
 * @example
 * ```ts
 * const cache = new PrefixCache(model.runtime, { maxBytes: 256 << 20 });
 * const { length, kv } = cache.lookup(promptIds);   // reuse `length` tokens
 * // ... prefill promptIds.slice(length) on top of kv, then:
 * cache.insert(promptIds, promptKv);
 * ```
 */
export class PrefixCache {
  private readonly root: RadixNode = newNode(null, [], 0);
  /** Map iteration order is insertion order: the first key is the least recently used. */
  private readonly lru = new Map<Entry, true>();
  /** Lookups, evictions and reused tokens so far, as {@link stats} reports them. */
  private readonly counts = { hits: 0, misses: 0, evictions: 0, reusedTokens: 0 };
  private bytes = 0;
  private treeTokens = 0;
  readonly maxBytes: number;

  constructor(
    private readonly kvOps: KvOps,
    options: PrefixCacheOptions,
  ) {
    if (!(options.maxBytes >= 0)) throw new RangeError(`maxBytes must be >= 0, got ${options.maxBytes}`);
    this.maxBytes = options.maxBytes;
  }

  /**
   * The longest cached prefix of `ids`. `maxLength` caps the match (e.g. to leave tokens that
   * must be fed again).
   */
  lookup(ids: ArrayLike<number>, maxLength = ids.length): PrefixMatch {
    const limit = Math.min(maxLength, ids.length);
    let node = this.root;
    let matched = 0;
    // `below` is the node whose subtree holds every entry that shares the matched prefix.
    let below: RadixNode = this.root;
    // Entries on the path that the match runs past: their tokens were reused too.
    const passed: Entry[] = [];
    while (matched < limit) {
      const child = node.children.get(ids[matched]);
      if (!child) break;
      const common = Math.min(commonLength(child.edge, ids, matched), limit - matched);
      matched += common;
      below = child;
      if (common < child.edge.length) break;
      node = child;
      if (node.entry) passed.push(node.entry);
    }
    if (matched === 0) {
      this.counts.misses++;
      return { length: 0, kv: null };
    }
    const entry = below.depth === matched && below.entry ? below.entry : this.anyEntryBelow(below);
    // A prefix entry the match ran through (a system turn every frame continues from) counts as
    // used, or it would be the least recently used and the first evicted while in constant use.
    for (const prefix of passed) this.touch(prefix);
    this.touch(entry);
    this.counts.hits++;
    this.counts.reusedTokens += matched;
    const kv = entry.kv.length === matched ? entry.kv : this.kvOps.sliceKv(entry.kv, matched);
    return { length: matched, kv };
  }

  /** Whether an entry holds exactly `ids` (no counters move, no LRU touch). */
  holds(ids: ArrayLike<number>): boolean {
    let node = this.root;
    let depth = 0;
    while (depth < ids.length) {
      const child = node.children.get(ids[depth]);
      if (!child || commonLength(child.edge, ids, depth) < child.edge.length) return false;
      depth += child.edge.length;
      node = child;
    }
    return depth === ids.length && node.entry !== null;
  }

  /**
   * Stores the KV of `ids` (`kv.length` must be at least `ids.length`; a longer KV is sliced).
   * The cache keeps `kv` by reference: do not mutate it afterwards. An entry larger than
   * `maxBytes` is not stored.
   */
  insert(ids: ArrayLike<number>, kv: KvState): void {
    if (ids.length === 0) return;
    if (kv.length < ids.length) {
      throw new RangeError(`KV holds ${kv.length} tokens, fewer than the ${ids.length} ids to cache`);
    }
    const stored = kv.length === ids.length ? kv : this.kvOps.sliceKv(kv, ids.length);
    const bytes = this.kvOps.kvBytes(stored);
    if (bytes > this.maxBytes) return;
    const node = this.nodeFor(ids);
    if (node.entry) this.dropEntry(node.entry);
    const entry: Entry = { node, kv: stored, bytes };
    node.entry = entry;
    this.lru.set(entry, true);
    this.bytes += bytes;
    this.evictOver(this.maxBytes, entry);
  }

  /** Drops every entry. */
  clear(): void {
    for (const entry of [...this.lru.keys()]) this.removeEntry(entry);
  }

  stats(): PrefixCacheStats {
    return {
      hits: this.counts.hits,
      misses: this.counts.misses,
      evictions: this.counts.evictions,
      cachedTokens: this.treeTokens,
      reusedTokens: this.counts.reusedTokens,
      entries: this.lru.size,
      bytes: this.bytes,
      maxBytes: this.maxBytes,
    };
  }

  private touch(entry: Entry): void {
    this.lru.delete(entry);
    this.lru.set(entry, true);
  }

  private anyEntryBelow(node: RadixNode): Entry {
    // Every leaf carries an entry (empty leaves are pruned), so this walk always ends on one.
    let current = node;
    while (!current.entry) current = current.children.values().next().value as RadixNode;
    return current.entry;
  }

  /** The node at depth `ids.length` on the path of `ids`, splitting an edge where needed. */
  private nodeFor(ids: ArrayLike<number>): RadixNode {
    let node = this.root;
    let depth = 0;
    while (depth < ids.length) {
      const child = node.children.get(ids[depth]);
      if (!child) {
        const edge = Array.from({ length: ids.length - depth }, (_, i) => ids[depth + i]);
        const leaf = newNode(node, edge, ids.length);
        node.children.set(edge[0], leaf);
        this.treeTokens += edge.length;
        return leaf;
      }
      const common = commonLength(child.edge, ids, depth);
      if (common < child.edge.length) {
        // Split `child` so a node ends exactly after the common part.
        const middle = newNode(node, child.edge.slice(0, common), depth + common);
        node.children.set(middle.edge[0], middle);
        child.edge = child.edge.slice(common);
        child.parent = middle;
        middle.children.set(child.edge[0], child);
        node = middle;
      } else {
        node = child;
      }
      depth += common;
    }
    return node;
  }

  private evictOver(limit: number, keep: Entry): void {
    for (const entry of this.lru.keys()) {
      if (this.bytes <= limit) return;
      if (entry === keep) continue;
      this.removeEntry(entry);
      this.counts.evictions++;
    }
  }

  private dropEntry(entry: Entry): void {
    this.lru.delete(entry);
    this.bytes -= entry.bytes;
    entry.node.entry = null;
  }

  private removeEntry(entry: Entry): void {
    this.dropEntry(entry);
    this.prune(entry.node);
  }

  /** Removes nodes left without entry and children, then merges a lone child into its parent. */
  private prune(start: RadixNode): void {
    let node: RadixNode | null = start;
    while (node && node !== this.root && !node.entry && node.children.size === 0) {
      const parent: RadixNode = node.parent!;
      parent.children.delete(node.edge[0]);
      this.treeTokens -= node.edge.length;
      node = parent;
    }
    if (node && node !== this.root && !node.entry && node.children.size === 1) {
      const only = node.children.values().next().value as RadixNode;
      const parent = node.parent!;
      only.edge = node.edge.concat(only.edge);
      only.parent = parent;
      parent.children.set(only.edge[0], only);
    }
  }
}
