/**
 * Additive attention masks for tree-batched decoding: every head is a branch that sees the shared
 * prompt prefix and its own earlier tokens only, while the KV of all branches accumulates after
 * the prefix in one cache.
 */

/** What one new row of a step may attend to, besides itself. */
export interface MaskRow {
  /** Columns [0, visiblePrefix) are visible (the shared prompt, or everything before a causal row). */
  visiblePrefix: number;
  /** Further visible columns: this branch's earlier tokens that sit after the prefix. */
  ownColumns: ArrayLike<number>;
}

/** Value written where a row may not attend. */
export const MASKED = Number.NEGATIVE_INFINITY;

/**
 * The mask [rows.length, pastLength + rows.length] (row-major) for one `runtime.step`: 0 where
 * row i may attend, {@link MASKED} elsewhere. Row i's own column is `pastLength + i`.
 *
 * @example
 * ```ts
 * // prompt of 4 tokens in the cache, two heads feeding their first token each:
 * buildStepMask(4, [{ visiblePrefix: 4, ownColumns: [] }, { visiblePrefix: 4, ownColumns: [] }]);
 * ```
 */
export function buildStepMask(pastLength: number, rows: readonly MaskRow[]): Float32Array {
  const width = pastLength + rows.length;
  const mask = new Float32Array(rows.length * width).fill(MASKED);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const base = i * width;
    if (row.visiblePrefix > pastLength + i) {
      throw new RangeError(
        `row ${i} would see ${row.visiblePrefix} columns, only ${pastLength + i} precede it`,
      );
    }
    mask.fill(0, base, base + row.visiblePrefix);
    for (let j = 0; j < row.ownColumns.length; j++) {
      const column = row.ownColumns[j];
      if (column >= pastLength + i) throw new RangeError(`row ${i} may not see later column ${column}`);
      mask[base + column] = 0;
    }
    mask[base + pastLength + i] = 0;
  }
  return mask;
}

/** Mask rows for `count` causal rows (prompt tokens) starting at column `pastLength`. */
export function causalRows(pastLength: number, count: number): MaskRow[] {
  return Array.from({ length: count }, (_, i) => ({ visiblePrefix: pastLength + i, ownColumns: [] }));
}
