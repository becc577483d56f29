/**
 * KV states that are views: runs of positions read from arrays that already hold them, so that
 * no step writes a fresh copy of a whole cache. Three kinds of view come from here:
 * - a request's present inside the merged present of the pass that made it (splitting a merged
 *   present into one contiguous array per request copies every request's whole past each pass,
 *   which on a small model costs more than the pass);
 * - a prefix ({@link kvPrefix}): a prompt kept for the prefix cache, or the cached part of a
 *   longer entry, would otherwise be a fresh copy of ~1 MB per call;
 * - a past with new positions after it ({@link appendKv}): a graph that outputs only the new
 *   rows' keys and values leaves the past where it was, and the present is the two together.
 * Writing fresh memory is what costs (page faults, measured at 3-10 ms per call in chromium's
 * worker here, more than the copy itself). Most views are only read again by the next merged
 * pass, which copies the runs it needs straight into its reused buffers ({@link copyPositions});
 * anything else that reads `keys` or `values` gets contiguous arrays, made once on first use.
 */
import { kvStateBytes } from "./kv";
import type { KvState } from "./types";

/** Arrays holding positions of KV: per layer [kvHeads, total, headDim]. */
export interface KvSource {
  keys: Float32Array[];
  values: Float32Array[];
  total: number;
  kvHeads: number;
  headDim: number;
}

/** A run of positions of the state, held at `from` in `source`. */
export interface KvRun {
  source: KvSource;
  from: number;
  length: number;
}

/** Layout facts of a plain {@link KvState} (a `QwenConfig` has them). */
export interface KvHeadLayout {
  numKeyValueHeads: number;
  headDim: number;
}

/**
 * KV made of runs of other arrays, in order.
 *
 * @example
 * ```ts
 * const present = new SplitKv([{ source: merged, from: 0, length: 600 }, { source: merged, from: 900, length: 4 }], 4);
 * copyPositions(present, "keys", 0, 0, 0, 604, out, 0, 64); // no intermediate array
 * ```
 */
export class SplitKv implements KvState {
  readonly length: number;
  private made: { keys: Float32Array[]; values: Float32Array[] } | null = null;

  /** `layerCount` is needed only for a view with no runs (length 0). */
  constructor(
    readonly runs: readonly KvRun[],
    readonly layerCount = runs[0]?.source.keys.length ?? 0,
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
      const first = this.runs[0]?.source;
      const kvHeads = first?.kvHeads ?? 0;
      const headDim = first?.headDim ?? 0;
      const contiguous = (kind: "keys" | "values") =>
        Array.from({ length: this.layerCount }, (_, layer) =>
          copyLayer(
            this,
            kind,
            layer,
            this.length,
            new Float32Array(kvHeads * this.length * headDim),
            kvHeads,
            headDim,
          ),
        );
      this.made = { keys: contiguous("keys"), values: contiguous("values") };
    }
    return this.made;
  }

  /** Whether contiguous arrays have been made (they are then read instead of the sources). */
  get materialized(): boolean {
    return this.made !== null;
  }

  /** Positions this view keeps alive: every source it reads, whole (its own and those it does not use). */
  get sourcePositions(): number {
    let total = 0;
    for (const source of new Set(this.runs.map((run) => run.source))) total += source.total;
    return total;
  }
}

/** Runs a view may reach by {@link appendKv} before its past is made contiguous. */
const MAX_RUNS = 32;

/** `kv` when it is a view still read through its runs (not yet made contiguous), else null. */
export function unmadeView(kv: KvState): SplitKv | null {
  return kv instanceof SplitKv && !kv.materialized ? kv : null;
}

/** `kv` as runs: a view's own, or one run over a plain state's arrays (none when empty). */
function runsOf(kv: KvState, layout: KvHeadLayout): readonly KvRun[] {
  const view = unmadeView(kv);
  if (view) return view.runs;
  if (kv.length === 0) return [];
  const source = {
    keys: kv.keys,
    values: kv.values,
    total: kv.length,
    kvHeads: layout.numKeyValueHeads,
    headDim: layout.headDim,
  };
  return [{ source, from: 0, length: kv.length }];
}

/**
 * `past` followed by positions `from..from+length` of `added`, without copying either: what a
 * step's present is when its graph returns only the new rows.
 *
 * @example
 * ```ts
 * const present = appendKv(past, { keys, values, total: q, kvHeads: 2, headDim: 64 }, 0, q, config);
 * ```
 */
export function appendKv(
  past: KvState,
  added: KvSource,
  from: number,
  length: number,
  layout: KvHeadLayout,
): SplitKv {
  if (!Number.isInteger(from) || from < 0 || length < 0 || from + length > added.total)
    throw new RangeError(`appendKv: positions ${from}..${from + length} outside [0, ${added.total}]`);
  // A long chain of steps would make every later read walk one run per step: past a bound, the
  // past is made contiguous once (and read as one run from then on).
  if (past instanceof SplitKv && past.runs.length >= MAX_RUNS) void past.keys;
  const runs = [...runsOf(past, layout)];
  const last = runs.at(-1);
  if (last && last.source === added && last.from + last.length === from) {
    runs[runs.length - 1] = { ...last, length: last.length + length };
  } else if (length > 0) {
    runs.push({ source: added, from, length });
  }
  return new SplitKv(runs, added.keys.length);
}

/**
 * The first `length` positions of `kv`, without copying: a {@link SplitKv} over the same
 * sources (or over `kv`'s own arrays). A view keeps its whole sources alive, so where it would
 * use less than half of them the prefix is copied instead: memory held stays under twice what the
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
  // a plain state's (or a made view's) arrays are read as one run
  const split = unmadeView(kv) ?? new SplitKv(runsOf(kv, layout), kv.keys.length);
  if (2 * length < split.sourcePositions) return copyPrefix(split, length, layout);
  const runs: KvRun[] = [];
  let left = length;
  for (const run of split.runs) {
    if (left === 0) break;
    const take = Math.min(left, run.length);
    runs.push({ source: run.source, from: run.from, length: take });
    left -= take;
  }
  return new SplitKv(runs, split.layerCount);
}

/** The first `length` positions of `kv` as a plain state of their own (one copy). */
function copyPrefix(kv: SplitKv, length: number, layout: KvHeadLayout): KvState {
  const { numKeyValueHeads: kvHeads, headDim } = layout;
  const copy = (kind: "keys" | "values") =>
    Array.from({ length: kv.layerCount }, (_, layer) =>
      copyLayer(kv, kind, layer, length, new Float32Array(kvHeads * length * headDim), kvHeads, headDim),
    );
  return { length, keys: copy("keys"), values: copy("values") };
}

/**
 * Positions `0..length` of one layer of `kv`, every KV head, into `out` laid out [kvHeads, length,
 * headDim] (a plain state's layer of that length); returns `out`.
 */
export function copyLayer(
  kv: KvState,
  kind: "keys" | "values",
  layer: number,
  length: number,
  out: Float32Array,
  kvHeads: number,
  headDim: number,
): Float32Array {
  for (let h = 0; h < kvHeads; h++)
    copyPositions(kv, kind, layer, h, 0, length, out, h * length * headDim, headDim);
  return out;
}

/**
 * Bytes `kv` stands for (its positions' keys and values), read from its shape: a
 * {@link SplitKv} is not made contiguous to be measured.
 */
export function kvViewBytes(kv: KvState): number {
  const view = unmadeView(kv);
  if (!view) return kvStateBytes(kv);
  const first = view.runs[0]?.source;
  if (!first) return 0;
  return 2 * first.keys.length * first.kvHeads * view.length * first.headDim * Float32Array.BYTES_PER_ELEMENT;
}

/**
 * Copies positions `start..start+count` of KV head `h` of one layer of `kv` (head size
 * `headDim`) into `out` at float offset `outAt`, reading a {@link SplitKv}'s sources directly.
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
  let at = 0;
  let to = outAt;
  const end = start + count;
  for (const run of kv.runs) {
    const lo = Math.max(start, at);
    const hi = Math.min(end, at + run.length);
    if (lo < hi) {
      const src = run.source[kind][layer]!;
      const from = (h * run.source.total + run.from + lo - at) * headDim;
      out.set(src.subarray(from, from + (hi - lo) * headDim), to);
      to += (hi - lo) * headDim;
    }
    at += run.length;
    if (at >= end) break;
  }
}
