import { describe, expect, test } from "bun:test";
import { toPythonJson } from "./python-json";

describe("toPythonJson", () => {
  test("uses Python's default separators and keeps key order", () => {
    expect(toPythonJson({ b: 1, a: [true, null, "x"], c: {} })).toBe(
      '{"b": 1, "a": [true, null, "x"], "c": {}}',
    );
  });

  test("leaves non-ASCII raw and escapes control characters like ensure_ascii=False", () => {
    expect(toPythonJson(["中文", 'a"b\\', "\n\t\u0001", "é"])).toBe(
      '["中文", "a\\"b\\\\", "\\n\\t\\u0001", "é"]',
    );
  });

  test("writes floats as Python's repr", () => {
    const cases: [number, string][] = [
      [0.5, "0.5"],
      [-2.5, "-2.5"],
      [1e-7, "1e-07"],
      [-2.5e-5, "-2.5e-05"],
      [0.0001, "0.0001"],
      [123456.789, "123456.789"],
      [1.5e20, "1.5e+20"],
      [1e21, "1e+21"],
      [1e16, "1e+16"],
      [3, "3"],
      [-0, "0"],
      [9007199254740991, "9007199254740991"],
    ];
    for (const [value, text] of cases) expect(toPythonJson(value)).toBe(text);
  });

  test("omits undefined object members like JSON does", () => {
    expect(toPythonJson({ a: undefined, b: 2 })).toBe('{"b": 2}');
  });
});
