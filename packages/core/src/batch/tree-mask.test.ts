import { describe, expect, test } from "bun:test";
import { buildStepMask, causalRows, MASKED } from "./tree-mask";

/** The mask as rows of "1" (visible) and "." (masked). */
function picture(mask: Float32Array, rows: number): string[] {
  const width = mask.length / rows;
  return Array.from({ length: rows }, (_, r) =>
    Array.from(mask.subarray(r * width, (r + 1) * width), (v) =>
      v === 0 ? "1" : v === MASKED ? "." : "?",
    ).join(""),
  );
}

describe("buildStepMask", () => {
  test("causal rows see everything before them and themselves", () => {
    expect(picture(buildStepMask(2, causalRows(2, 3)), 3)).toEqual(["111..", "1111.", "11111"]);
  });

  test("first step: two branches with two tag tokens each see the prefix and their own tags", () => {
    const rows = [
      { visiblePrefix: 3, ownColumns: [] },
      { visiblePrefix: 3, ownColumns: [3] },
      { visiblePrefix: 3, ownColumns: [] },
      { visiblePrefix: 3, ownColumns: [5] },
    ];
    expect(picture(buildStepMask(3, rows), 4)).toEqual(["1111...", "11111..", "111..1.", "111..11"]);
  });

  test("later step: one token per live branch after earlier branch tokens in the cache", () => {
    // prefix 2; branch A owns columns 2,4; branch B owns 3 (and died); branch C owns 5
    const rows = [
      { visiblePrefix: 2, ownColumns: [2, 4] },
      { visiblePrefix: 2, ownColumns: [5] },
    ];
    expect(picture(buildStepMask(6, rows), 2)).toEqual(["111.1.1.", "11...1.1"]);
  });

  test("prompt rows and branch rows in one step", () => {
    const rows = [...causalRows(1, 2), { visiblePrefix: 3, ownColumns: [] }];
    expect(picture(buildStepMask(1, rows), 3)).toEqual(["11..", "111.", "1111"]);
  });

  test("a row may not see later columns", () => {
    expect(() => buildStepMask(2, [{ visiblePrefix: 2, ownColumns: [2] }])).toThrow(RangeError);
    expect(() => buildStepMask(2, [{ visiblePrefix: 3, ownColumns: [] }])).toThrow(RangeError);
  });
});
