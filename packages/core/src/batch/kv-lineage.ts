/**
 * Which KV states begin with the same positions. Concurrent calls with the same system prompt and
 * tools all start from one cached prefix, so their pasts share hundreds of positions; a merged
 * forward pass that holds that shared run once instead of once per call reads and copies far less.
 * The lineage is learnt from the runtime's own operations (a step's present begins with its
 * past, a slice with its source), never by comparing arrays.
 */
import type { KvState } from "../runtime/types";

/** `kv`'s first `length` positions are those of every other state with the same `root`. */
export interface KvAnchor {
  /** Identity of the run of positions (an opaque object, not the KV itself, so nothing is kept alive). */
  readonly root: object;
  readonly length: number;
}

/**
 * Anchors of the KV states a runtime has handed out.
 *
 * @example
 * ```ts
 * const lineage = new KvLineage();
 * lineage.derive(past, present, past.length); // after a step
 * lineage.anchorOf(present).root === lineage.anchorOf(past).root; // true
 * ```
 */
export class KvLineage {
  private readonly anchors = new WeakMap<KvState, KvAnchor>();

  /** The anchor of `kv`; a state of unknown origin becomes a root of its own. */
  anchorOf(kv: KvState): KvAnchor {
    let anchor = this.anchors.get(kv);
    if (!anchor) {
      anchor = { root: {}, length: kv.length };
      this.anchors.set(kv, anchor);
    }
    return anchor;
  }

  /** Records that `derived` begins with the first `length` positions of `source`. */
  derive(source: KvState, derived: KvState, length: number): void {
    if (length <= 0 || source.length === 0) return;
    const anchor = this.anchorOf(source);
    this.anchors.set(derived, { root: anchor.root, length: Math.min(anchor.length, length) });
  }
}

/**
 * Positions of a merged past: for each request, how many leading positions come from a run
 * shared with other requests of the batch (0 when none), where that run sits, and where the
 * request's own remaining positions sit.
 */
export interface SharedPastLayout {
  /** Positions of the merged past. */
  total: number;
  /** Per request: leading positions taken from the shared run. */
  shared: number[];
  /** Per request: offset of its shared run in the merged past. */
  sharedOffsets: number[];
  /** Per request: offset of its own positions `shared..past.length` in the merged past. */
  ownOffsets: number[];
  /** Per request: whether it is the one whose arrays fill its shared run. */
  fillsShared: boolean[];
}

/**
 * Lays out the merged past of requests with these past lengths and anchors: requests with the
 * same root share their common leading positions once; everything else is laid end to end.
 */
export function layoutSharedPast(
  pastLengths: readonly number[],
  anchors: readonly (KvAnchor | null)[],
): SharedPastLayout {
  const n = pastLengths.length;
  const groups = new Map<object, number[]>();
  anchors.forEach((anchor, r) => {
    if (!anchor || anchor.length === 0 || pastLengths[r] === 0) return;
    const members = groups.get(anchor.root);
    if (members) members.push(r);
    else groups.set(anchor.root, [r]);
  });
  const shared = new Array<number>(n).fill(0);
  const sharedOffsets = new Array<number>(n).fill(0);
  const ownOffsets = new Array<number>(n).fill(0);
  const fillsShared = new Array<boolean>(n).fill(false);
  let at = 0;
  const placed = new Array<boolean>(n).fill(false);
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const length = Math.min(...members.map((r) => Math.min(anchors[r]!.length, pastLengths[r]!)));
    const runAt = at;
    at += length;
    members.forEach((r, i) => {
      shared[r] = length;
      sharedOffsets[r] = runAt;
      fillsShared[r] = i === 0;
      ownOffsets[r] = at;
      at += pastLengths[r]! - length;
      placed[r] = true;
    });
  }
  for (let r = 0; r < n; r++) {
    if (placed[r]) continue;
    ownOffsets[r] = at;
    at += pastLengths[r]!;
  }
  return { total: at, shared, sharedOffsets, ownOffsets, fillsShared };
}
