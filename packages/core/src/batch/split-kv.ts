/**
 * A request's present KV that still lives inside the merged present of the pass that made it.
 * Splitting a merged present into one contiguous array per request copies every request's whole
 * past each pass, which on a small model costs more than the pass; most presents are only read
 * again by the next merged pass, which can copy the few runs it needs straight from here.
 * Anything else that reads `keys` or `values` gets contiguous arrays, made once on first use.
 */
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
