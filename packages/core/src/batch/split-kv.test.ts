import { describe, expect, test } from "bun:test";
import { copyPositions, kvPrefix, kvViewBytes, SplitKv } from "./split-kv";

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
  { from: 4, length: 2 },
  { from: 1, length: 1 },
];

describe("SplitKv", () => {
  test("copyPositions reads the runs straight from the source, across run boundaries", () => {
    const kv = new SplitKv(source, runs);
    expect(kv.length).toBe(3);
    const out = new Float32Array(4);
    copyPositions(kv, "keys", 0, 1, 1, 2, out, 0, headDim);
    expect([...out]).toEqual([150, 151, 110, 111]);
  });

  test("keys and values are made contiguous once, in the state's order", () => {
    const kv = new SplitKv(source, runs);
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
    const kv = new SplitKv(source, runs);
    const prefix = kvPrefix(kv, 3, { numKeyValueHeads: kvHeads, headDim });
    expect(prefix).toBeInstanceOf(SplitKv);
    expect((prefix as SplitKv).runs).toEqual([
      { from: 4, length: 2 },
      { from: 1, length: 1 },
    ]);
    expect(kvViewBytes(prefix)).toBe(2 * 1 * kvHeads * 3 * headDim * 4);
    expect(kv.materialized).toBe(false);
    // 2 of the source's 6 positions: copied, so the view does not pin three times its size
    const small = kvPrefix(kv, 2, { numKeyValueHeads: kvHeads, headDim });
    expect(small).not.toBeInstanceOf(SplitKv);
    expect([...small.keys[0]!]).toEqual([40, 41, 50, 51, 140, 141, 150, 151]);
    expect(() => kvPrefix(kv, 4, { numKeyValueHeads: kvHeads, headDim })).toThrow(RangeError);
  });
});
