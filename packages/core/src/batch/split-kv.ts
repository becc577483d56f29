/**
 * A request's present KV that still lives inside the merged present of the pass that made it.
 * Splitting a merged present into one contiguous array per request copies every request's whole
 * past each pass, which on a small model costs more than the pass; most presents are only read
 * again by the next merged pass, which can copy the few runs it needs straight from here.
 * Anything else that reads `keys` or `values` gets contiguous arrays, made once on first use.
 *
 * Prefixes are views too ({@link kvPrefix}): a prompt kept for the prefix cache, or the cached
 * part of a longer entry, would otherwise be a fresh copy of ~1 MB per call, and writing fresh
 * memory is what costs (page faults, measured at 3-10 ms per call in chromium's worker here,
 * more than the copy itself).
 */
import { kvStateBytes } from "../runtime/kv";
import type { KvState } from "../runtime/types";

/** A run of positions of the state, held at `from` in the source. */
export interface KvRun {
  from: number;
  length: number;
}

/** The merged arrays a {@link SplitKv} reads: per layer [kvHeads, total, headDim]. */
export interface KvSource {
  keys: Float32Array[];
  values: Float32Array[];
  total: number;
  kvHeads: number;
  headDim: number;
}

/**
 * KV made of runs of a larger source.
 *
 * @example
 * ```ts
 * const present = new SplitKv(merged, [{ from: 0, length: 600 }, { from: 900, length: 4 }]);
 * copyPositions(present, "keys", 0, 0, 0, 604, out, 0, 64); // no intermediate array
 * ```
 */
export class SplitKv implements KvState {
  readonly length: number;
  private made: { keys: Float32Array[]; values: Float32Array[] } | null = null;

  constructor(
    readonly source: KvSource,
    readonly runs: readonly KvRun[],
  ) {
    this.length = runs.reduce((sum, run) => sum + run.length, 0);
  }

  get keys(): Float32Array[] {
    return this.materialize().keys;
  }

  get values(): Float32Array[] {
    return this.materialize().values;
  }

  private materialize(): { keys: Float32Array[]; values: Float32Array[] } {
    if (!this.made) {
      const { kvHeads, headDim } = this.source;
      const contiguous = (kind: "keys" | "values") =>
        this.source[kind].map((_, layer) => {
          const out = new Float32Array(kvHeads * this.length * headDim);
          for (let h = 0; h < kvHeads; h++) {
            copyPositions(this, kind, layer, h, 0, this.length, out, h * this.length * headDim, headDim);
          }
          return out;
        });
      this.made = { keys: contiguous("keys"), values: contiguous("values") };
    }
    return this.made;
  }

  /** Whether contiguous arrays have been made (they are then read instead of the source). */
  get materialized(): boolean {
    return this.made !== null;
  }

  /** Positions of the source this view keeps alive (its own and those it does not use). */
  get sourcePositions(): number {
    return this.source.total;
  }
}

/** Layout facts of a plain {@link KvState} (a `QwenConfig` has them). */
export interface KvHeadLayout {
  numKeyValueHeads: number;
  headDim: number;
}

/**
 * The first `length` positions of `kv`, without copying: a {@link SplitKv} over the same
 * source (or over `kv`'s own arrays). A view keeps its whole source alive, so where it would use
 * less than half of it the prefix is copied instead: memory held stays under twice what the
 * views say they hold ({@link kvViewBytes}).
 *
 * @example
 * ```ts
 * const prompt = kvPrefix(present, 300, config); // positions 0..299 of a pass's present, shared
 * ```
 */
export function kvPrefix(kv: KvState, length: number, layout: KvHeadLayout): KvState {
  if (!Number.isInteger(length) || length < 0 || length > kv.length)
    throw new RangeError(`sliceKv: length ${length} outside [0, ${kv.length}]`);
  // states are read-only: all of one is itself
  if (length === kv.length) return kv;
  const split =
    kv instanceof SplitKv
      ? kv
      : new SplitKv(
          {
            keys: kv.keys,
            values: kv.values,
            total: kv.length,
            kvHeads: layout.numKeyValueHeads,
            headDim: layout.headDim,
          },
          kv.length > 0 ? [{ from: 0, length: kv.length }] : [],
        );
  if (2 * length < split.sourcePositions) return copyPrefix(split, length);
  const runs: KvRun[] = [];
  let left = length;
  for (const run of split.runs) {
    if (left === 0) break;
    const take = Math.min(left, run.length);
    runs.push({ from: run.from, length: take });
    left -= take;
  }
  return new SplitKv(split.source, runs);
}

/** The first `length` positions of `kv` as a plain state of their own (one copy). */
function copyPrefix(kv: SplitKv, length: number): KvState {
  const { kvHeads, headDim } = kv.source;
  const copy = (kind: "keys" | "values") =>
    kv.source[kind].map((_, layer) => {
      const out = new Float32Array(kvHeads * length * headDim);
      for (let h = 0; h < kvHeads; h++)
        copyPositions(kv, kind, layer, h, 0, length, out, h * length * headDim, headDim);
      return out;
    });
  return { length, keys: copy("keys"), values: copy("values") };
}

/**
 * Bytes `kv` stands for (its positions' keys and values), read from its shape: a
 * {@link SplitKv} is not made contiguous to be measured.
 */
export function kvViewBytes(kv: KvState): number {
  if (!(kv instanceof SplitKv) || kv.materialized) return kvStateBytes(kv);
  const { keys, kvHeads, headDim } = kv.source;
  return 2 * keys.length * kvHeads * kv.length * headDim * Float32Array.BYTES_PER_ELEMENT;
}

/**
 * Copies positions `start..start+count` of KV head `h` of one layer of `kv` (head size
 * `headDim`) into `out` at float offset `outAt`, reading a {@link SplitKv}'s source directly.
 */
export function copyPositions(
  kv: KvState,
  kind: "keys" | "values",
  layer: number,
  h: number,
  start: number,
  count: number,
  out: Float32Array,
  outAt: number,
  headDim: number,
): void {
  if (count <= 0) return;
  if (!(kv instanceof SplitKv) || kv.materialized) {
    const src = kv[kind][layer]!;
    const base = (h * kv.length + start) * headDim;
    out.set(src.subarray(base, base + count * headDim), outAt);
    return;
  }
  const total = kv.source.total;
  const src = kv.source[kind][layer]!;
  const head = h * total * headDim;
  let at = 0;
  let to = outAt;
  const end = start + count;
  for (const run of kv.runs) {
    const lo = Math.max(start, at);
    const hi = Math.min(end, at + run.length);
    if (lo < hi) {
      const from = head + (run.from + lo - at) * headDim;
      out.set(src.subarray(from, from + (hi - lo) * headDim), to);
      to += (hi - lo) * headDim;
    }
    at += run.length;
    if (at >= end) break;
  }
}
