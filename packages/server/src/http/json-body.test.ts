import { describe, expect, test } from "bun:test";
import { ApiError, formatPath } from "./api-error";
import { nestingDepth, parseJson } from "./json-body";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("parseJson", () => {
  test("parses valid JSON", () => {
    expect(parseJson(bytes('{"a":[1,{"b":2}]}'), 8)).toEqual({ a: [1, { b: 2 }] });
  });

  test("names the body for empty, non-UTF-8, too deep and malformed input", () => {
    for (const input of [bytes(""), new Uint8Array([0x7b, 0xff, 0x7d]), bytes("[[[[1]]]]"), bytes("{x}")]) {
      try {
        parseJson(input, 3);
        throw new Error("expected an ApiError");
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).field).toBe("body");
        expect((error as ApiError).status).toBe(400);
      }
    }
  });
});

describe("nestingDepth", () => {
  test("counts brackets outside strings only", () => {
    expect(nestingDepth('{"a":"[[[[{{{{","b":[1,[2]]}')).toBe(3);
    expect(nestingDepth('"\\"[["')).toBe(0);
    expect(nestingDepth("1")).toBe(0);
  });
});

describe("formatPath", () => {
  test("renders zod paths as field names", () => {
    expect(formatPath(["messages", 0, "role"])).toBe("messages[0].role");
    expect(formatPath([])).toBe("body");
    expect(formatPath(["tools", 2, "function", "name"])).toBe("tools[2].function.name");
  });
});
