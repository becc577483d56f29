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

/** Per scenario/lang/format counts and token figures of a split. */
export function datasetStats(groups: DatasetGroup[]): SplitStats {
  const byCell: Record<string, number> = {};
  const byFunction: Record<string, number> = {};
  let items = 0;
  let prefix = 0;
  let rest = 0;
  let head = 0;
  let heads = 0;
  let maxPrefix = 0;
  let maxRest = 0;
  let maxHead = 0;
  for (const g of groups) {
    prefix += g.prefix.length;
    maxPrefix = Math.max(maxPrefix, g.prefix.length);
    for (const it of g.items) {
      items++;
      const cell = `${it.meta.scenario}/${it.meta.lang}/${it.meta.format}`;
      byCell[cell] = (byCell[cell] ?? 0) + 1;
      // Synthetic tool names are random: count them as one bucket.
      const fn = it.meta.scenario === "synthetic" ? "synthetic" : `${it.meta.scenario}.${it.meta.function}`;
      byFunction[fn] = (byFunction[fn] ?? 0) + 1;
      rest += it.rest.length;
      maxRest = Math.max(maxRest, it.rest.length);
      for (const h of it.heads) {
        head += h.length;
        heads++;
        maxHead = Math.max(maxHead, h.length);
      }
    }
  }
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    groups: groups.length,
    items,
    by_cell: Object.fromEntries(Object.entries(byCell).sort()),
    by_function: Object.fromEntries(Object.entries(byFunction).sort()),
    avg_prefix_tokens: r(prefix / Math.max(1, groups.length)),
    avg_rest_tokens: r(rest / Math.max(1, items)),
    avg_head_tokens: r(head / Math.max(1, heads)),
    avg_heads_per_item: r(heads / Math.max(1, items)),
    max_prefix_tokens: maxPrefix,
    max_rest_tokens: maxRest,
    max_head_tokens: maxHead,
    tokens_per_item_packed: r((prefix + rest + head) / Math.max(1, items)),
  };
}

/** A short human-readable summary of a split's stats. */
export function formatStats(s: SplitStats, name: string): string {
  return (
    `${name}: ${s.items} items in ${s.groups} groups; avg tokens prefix ${s.avg_prefix_tokens}, rest ${s.avg_rest_tokens}, ` +
    `head ${s.avg_head_tokens} (x${s.avg_heads_per_item}); packed ${s.tokens_per_item_packed} tokens/item`
  );
}
