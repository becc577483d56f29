import { describe, expect, test } from "bun:test";
import { KvLineage, layoutSharedPast } from "./kv-lineage";

const kv = (length: number) => ({ length, keys: [], values: [] });

describe("KvLineage", () => {
  test("a derived state keeps its source's root, over the shorter of the two runs", () => {
    const lineage = new KvLineage();
    const prompt = kv(10);
    const slice = kv(8);
    lineage.derive(prompt, slice, 8);
    const present = kv(12);
    lineage.derive(slice, present, 8);
    expect(lineage.anchorOf(present)).toEqual({ root: lineage.anchorOf(prompt).root, length: 8 });
    expect(lineage.anchorOf(kv(5)).root).not.toBe(lineage.anchorOf(prompt).root);
  });
});

describe("layoutSharedPast", () => {
  test("requests with one root hold their common run once; others are laid end to end", () => {
    const root = {};
    const layout = layoutSharedPast([10, 12, 7], [{ root, length: 8 }, { root, length: 9 }, null]);
    expect(layout.shared).toEqual([8, 8, 0]);
    expect(layout.sharedOffsets.slice(0, 2)).toEqual([0, 0]);
    expect(layout.ownOffsets).toEqual([8, 10, 14]);
    expect(layout.fillsShared).toEqual([true, false, false]);
    expect(layout.total).toBe(8 + 2 + 4 + 7);
  });

  test("a root with one request in the batch shares nothing", () => {
    const layout = layoutSharedPast(
      [10, 4],
      [
        { root: {}, length: 10 },
        { root: {}, length: 4 },
      ],
    );
    expect(layout.shared).toEqual([0, 0]);
    expect(layout.total).toBe(14);
  });
});
