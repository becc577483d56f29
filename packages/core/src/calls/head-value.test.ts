import { describe, expect, test } from "bun:test";
import { headValueText, parseParameterValue, stripTokenizerSpace } from "./head-value";

describe("head values", () => {
  test("one tokenizer space is trimmed at each end, no more", () => {
    expect(stripTokenizerSpace(" a b ")).toBe("a b");
    expect(stripTokenizerSpace("  a  ")).toBe(" a ");
    expect(stripTokenizerSpace(" ")).toBe("");
    expect(stripTokenizerSpace("\ta\n")).toBe("\ta\n");
  });

  test("empty text and the null marker mean not given", () => {
    expect(headValueText(null)).toBeNull();
    expect(headValueText(undefined)).toBeNull();
    expect(headValueText("")).toBeNull();
    expect(headValueText(" <|null|>")).toBeNull();
    expect(headValueText("null")).toBe("null");
  });

  test("number grammar", () => {
    const number = { name: "n", type: "number" as const, required: true };
    for (const [text, value] of [
      ["0", 0],
      ["-12.25", -12.25],
      ["1e3", 1000],
      ["007", 7],
    ] as const) {
      expect(parseParameterValue(number, text)).toEqual({ ok: true, value });
    }
    for (const text of ["+1", ".5", "1.", "1,5", "NaN", "Infinity", "1e999", "0x10", "1 2"]) {
      expect(parseParameterValue(number, text).ok).toBe(false);
    }
  });

  test("integers reject fractions and unsafe sizes", () => {
    const integer = { name: "n", type: "integer" as const, required: true };
    expect(parseParameterValue(integer, "-3")).toEqual({ ok: true, value: -3 });
    expect(parseParameterValue(integer, "3.0").ok).toBe(false);
    expect(parseParameterValue(integer, "99999999999999999999").ok).toBe(false);
  });

  test("string enums: exact first, then case-insensitive to the canonical value", () => {
    const tone = { name: "t", type: "string" as const, enum: ["Up", "up", "down"], required: true };
    expect(parseParameterValue(tone, "up")).toEqual({ ok: true, value: "up" });
    expect(parseParameterValue(tone, "Up")).toEqual({ ok: true, value: "Up" });
    expect(parseParameterValue(tone, "DOWN")).toEqual({ ok: true, value: "down" });
    expect(parseParameterValue(tone, "sideways").ok).toBe(false);
  });
});
