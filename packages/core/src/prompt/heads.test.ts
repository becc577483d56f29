import { describe, expect, test } from "bun:test";
import { headNames, headTags, stopMarkers } from "./heads";

describe("heads", () => {
  test("function first, then args, then content when asked", () => {
    expect(headTags(0)).toEqual(["<function>"]);
    expect(headTags(3)).toEqual(["<function>", "<arg1>", "<arg2>", "<arg3>"]);
    expect(headTags(2, true)).toEqual(["<function>", "<arg1>", "<arg2>", "<content>"]);
    expect(headNames(6)).toEqual(["function", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6"]);
  });

  test("refuses arg counts the heads cannot carry", () => {
    expect(() => headTags(7)).toThrow(RangeError);
    expect(() => headTags(-1)).toThrow(RangeError);
  });

  test("every head stops at its closing tag, <|null|> and <|im_end|>", () => {
    expect(stopMarkers("function")).toEqual(["</function>", "<|null|>", "<|im_end|>"]);
    expect(stopMarkers("arg4")).toEqual(["</arg4>", "<|null|>", "<|im_end|>"]);
    expect(stopMarkers("content")).toEqual(["</content>", "<|null|>", "<|im_end|>"]);
  });
});
