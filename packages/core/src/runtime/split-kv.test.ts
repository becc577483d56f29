import { describe, expect, test } from "bun:test";
import { appendKv, copyPositions, kvPrefix, kvViewBytes, SplitKv } from "./split-kv";

// Source: 2 KV heads, 6 positions, head size 2; value = 100 * head + 10 * position + dim.
const kvHeads = 2;
const total = 6;
const headDim = 2;
const layer = new Float32Array(kvHeads * total * headDim).map((_, i) => {
  const h = Math.floor(i / (total * headDim));
  const pos = Math.floor(i / headDim) % total;
  return 100 * h + 10 * pos + (i % headDim);
});
const source = { keys: [layer], values: [layer.map((v) => -v)], total, kvHeads, headDim };
// Positions 4, 5 then 1: a request's shared run, then its own.
const runs = [
  { source, from: 4, length: 2 },
  { source, from: 1, length: 1 },
];

describe("SplitKv", () => {
  test("copyPositions reads the runs straight from the source, across run boundaries", () => {
    const kv = new SplitKv(runs);
    expect(kv.length).toBe(3);
    const out = new Float32Array(4);
    copyPositions(kv, "keys", 0, 1, 1, 2, out, 0, headDim);
    expect([...out]).toEqual([150, 151, 110, 111]);
  });

  test("keys and values are made contiguous once, in the state's order", () => {
    const kv = new SplitKv(runs);
    expect(kv.materialized).toBe(false);
    expect([...kv.keys[0]!]).toEqual([40, 41, 50, 51, 10, 11, 140, 141, 150, 151, 110, 111]);
    expect(kv.materialized).toBe(true);
    expect(kv.keys[0]).toBe(kv.keys[0]!);
    expect(kv.values[0]![0]).toBe(-40);
  });

  test("copyPositions of a plain state copies a block of one head", () => {
    const plain = { length: total, keys: [layer], values: [layer] };
    const out = new Float32Array(4);
    copyPositions(plain, "keys", 0, 1, 2, 2, out, 0, headDim);
    expect([...out]).toEqual([120, 121, 130, 131]);
  });

  test("kvPrefix cuts the runs without copying, across a run boundary; kvViewBytes reads the shape", () => {
    const kv = new SplitKv(runs);
    const prefix = kvPrefix(kv, 3, { numKeyValueHeads: kvHeads, headDim });
    expect(prefix).toBeInstanceOf(SplitKv);
    expect((prefix as SplitKv).runs).toEqual([
      { source, from: 4, length: 2 },
      { source, from: 1, length: 1 },
    ]);
    expect(kvViewBytes(prefix)).toBe(2 * 1 * kvHeads * 3 * headDim * 4);
    expect(kv.materialized).toBe(false);
    // 2 of the source's 6 positions: copied, so the view does not pin three times its size
    const small = kvPrefix(kv, 2, { numKeyValueHeads: kvHeads, headDim });
    expect(small).not.toBeInstanceOf(SplitKv);
    expect([...small.keys[0]!]).toEqual([40, 41, 50, 51, 140, 141, 150, 151]);
    expect(() => kvPrefix(kv, 4, { numKeyValueHeads: kvHeads, headDim })).toThrow(RangeError);
  });

  test("appendKv views a past and new rows as one state, plain or view, with no copy", () => {
    const layout = { numKeyValueHeads: kvHeads, headDim };
    // the new rows: 2 positions, values 1000 + 100 * head + 10 * row + dim
    const rows = new Float32Array(kvHeads * 2 * headDim).map((_, i) => {
      const h = Math.floor(i / (2 * headDim));
      return 1000 + 100 * h + 10 * (Math.floor(i / headDim) % 2) + (i % headDim);
    });
    const added = { keys: [rows], values: [rows], total: 2, kvHeads, headDim };
    const plain = { length: total, keys: [layer], values: [layer] };
    const onPlain = appendKv(plain, added, 1, 1, layout);
    expect(onPlain.length).toBe(total + 1);
    expect(onPlain.runs.map((r) => [r.source.total, r.from, r.length])).toEqual([
      [total, 0, total],
      [2, 1, 1],
    ]);
    expect(onPlain.sourcePositions).toBe(total + 2);
    const out = new Float32Array(4);
    copyPositions(onPlain, "keys", 0, 1, total - 1, 2, out, 0, headDim);
    expect([...out]).toEqual([150, 151, 1110, 1111]);
    // on a view: its runs, then the rows; rows right after the last run's merge into it
    const view = new SplitKv(runs);
    const twice = appendKv(appendKv(view, added, 0, 1, layout), added, 1, 1, layout);
    expect(twice.runs.map((r) => r.length)).toEqual([2, 1, 2]);
    // a prefix that ends inside the appended rows keeps both sources
    const cut = kvPrefix(twice, 4, layout) as SplitKv;
    expect(cut.runs.map((r) => r.length)).toEqual([2, 1, 1]);
    expect(cut.sourcePositions).toBe(total + 2);
    expect([...twice.keys[0]!.subarray(0, 8)]).toEqual([40, 41, 50, 51, 10, 11, 1000, 1001]);
    expect(view.materialized).toBe(false);
    // once made contiguous, a view is read as one run of its own arrays
    expect((kvPrefix(twice, 4, layout) as SplitKv).runs).toHaveLength(1);
    expect(() => appendKv(plain, added, 1, 2, layout)).toThrow(RangeError);
  });

  test("a long chain of appends is made contiguous once its runs reach the bound", () => {
    const layout = { numKeyValueHeads: kvHeads, headDim };
    const one = { keys: [layer], values: [layer], total, kvHeads, headDim };
    let kv: SplitKv = appendKv({ length: 0, keys: [], values: [] }, one, 0, 1, layout);
    for (let i = 0; i < 40; i++) kv = appendKv(kv, one, i % 2 === 0 ? 3 : 1, 1, layout);
    expect(kv.length).toBe(41);
    expect(kv.runs.length).toBeLessThanOrEqual(33);
    // position 40 is the last append (i = 39: position 1 of the source)
    const out = new Float32Array(2);
    copyPositions(kv, "keys", 0, 0, 40, 1, out, 0, headDim);
    expect([...out]).toEqual([10, 11]);
  });
});
