import type { DatasetGroup } from "./export";

/** Counts and average token lengths of one exported split. */
export interface SplitStats {
  groups: number;
  items: number;
  by_cell: Record<string, number>;
  by_function: Record<string, number>;
  avg_prefix_tokens: number;
  avg_rest_tokens: number;
  avg_head_tokens: number;
  avg_heads_per_item: number;
  max_prefix_tokens: number;
  max_rest_tokens: number;
  max_head_tokens: number;
  /** Tokens a packed group costs per item: (prefix + Σ rest + Σ heads) / items. */
  tokens_per_item_packed: number;
}

/** How many token lists, their total length and the longest (0 for none). */
function lengths(lists: readonly { length: number }[]): { count: number; sum: number; max: number } {
  let sum = 0;
  let max = 0;
  for (const list of lists) {
    sum += list.length;
    max = Math.max(max, list.length);
  }
  return { count: lists.length, sum, max };
}

/** Per scenario/lang/format counts and token figures of a split. */
export function datasetStats(groups: DatasetGroup[]): SplitStats {
  const byCell: Record<string, number> = {};
  const byFunction: Record<string, number> = {};
  const all = groups.flatMap((g) => g.items);
  for (const it of all) {
    const cell = `${it.meta.scenario}/${it.meta.lang}/${it.meta.format}`;
    byCell[cell] = (byCell[cell] ?? 0) + 1;
    // Synthetic tool names are random: count them as one bucket.
    const fn = it.meta.scenario === "synthetic" ? "synthetic" : `${it.meta.scenario}.${it.meta.function}`;
    byFunction[fn] = (byFunction[fn] ?? 0) + 1;
  }
  const prefix = lengths(groups.map((g) => g.prefix));
  const rest = lengths(all.map((it) => it.rest));
  const head = lengths(all.flatMap((it) => it.heads));
  const items = all.length;
  const heads = head.count;
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    groups: groups.length,
    items,
    by_cell: Object.fromEntries(Object.entries(byCell).sort()),
    by_function: Object.fromEntries(Object.entries(byFunction).sort()),
    avg_prefix_tokens: r(prefix.sum / Math.max(1, groups.length)),
    avg_rest_tokens: r(rest.sum / Math.max(1, items)),
    avg_head_tokens: r(head.sum / Math.max(1, heads)),
    avg_heads_per_item: r(heads / Math.max(1, items)),
    max_prefix_tokens: prefix.max,
    max_rest_tokens: rest.max,
    max_head_tokens: head.max,
    tokens_per_item_packed: r((prefix.sum + rest.sum + head.sum) / Math.max(1, items)),
  };
}

/** A short human-readable summary of a split's stats. */
export function formatStats(s: SplitStats, name: string): string {
  return (
    `${name}: ${s.items} items in ${s.groups} groups; avg tokens prefix ${s.avg_prefix_tokens}, rest ${s.avg_rest_tokens}, ` +
    `head ${s.avg_head_tokens} (x${s.avg_heads_per_item}); packed ${s.tokens_per_item_packed} tokens/item`
  );
}
