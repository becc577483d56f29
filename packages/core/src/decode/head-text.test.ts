import { describe, expect, test } from "bun:test";
import {
  classifyHeadText,
  forcedEnding,
  type HeadStops,
  type OpenText,
  type TextConstraint,
} from "./head-text";
import { choiceOf, onlyNull } from "./testing/choices";

const fnStops: HeadStops = { value: ["</function>", "<|im_end|>"], null: ["<|null|>"] };
const argStops: HeadStops = { value: ["</arg1>", "<|im_end|>"], null: ["<|null|>"] };
const names = choiceOf(["move", "use_skill", "retreat"]);

describe("classifyHeadText", () => {
  test("unconstrained: open until the first stop marker, whole or split over tokens", () => {
    expect(classifyHeadText("hello wor", null, argStops)).toEqual({
      kind: "open",
      value: "hello wor",
      forcedMarker: null,
    });
    expect(classifyHeadText("hi</arg1>junk", null, argStops)).toEqual({
      kind: "done",
      value: "hi",
      marker: "</arg1>",
      isNull: false,
    });
    expect(classifyHeadText("<|null|>", null, argStops)).toMatchObject({ kind: "done", isNull: true });
    expect(classifyHeadText("a<|im_end|>b</arg1>", null, argStops)).toMatchObject({
      marker: "<|im_end|>",
      value: "a",
    });
  });

  test("constrained: a value prefix is open, anything else is rejected", () => {
    expect(classifyHeadText("mo", names, fnStops)).toMatchObject({ kind: "open", value: "mo" });
    expect(classifyHeadText("mx", names, fnStops).kind).toBe("rejected");
  });

  test("constrained: a stop marker only after a complete value", () => {
    expect(classifyHeadText("move</function>", names, fnStops)).toMatchObject({
      kind: "done",
      value: "move",
    });
    expect(classifyHeadText("mov</function>", names, fnStops).kind).toBe("rejected");
    expect(classifyHeadText("move</fun", names, fnStops)).toEqual({
      kind: "open",
      value: "move",
      forcedMarker: "</function>",
    });
    expect(classifyHeadText("mov</fun", names, fnStops).kind).toBe("rejected");
  });

  test("constrained: <|null|> only when the constraint allows null and nothing was written", () => {
    expect(classifyHeadText("<|null|>", names, fnStops).kind).toBe("rejected");
    const optional = choiceOf(["s1", "s2"], true);
    expect(classifyHeadText("<|null|>", optional, argStops)).toMatchObject({ kind: "done", isNull: true });
    expect(classifyHeadText("s1<|null|>", optional, argStops).kind).toBe("rejected");
  });

  test("a partial marker is completed to the one marker it can still become", () => {
    const optional = choiceOf(["s1"], true);
    // "<|" begins both <|im_end|> (after a complete value) and <|null|> (after nothing)
    expect(classifyHeadText("<|", optional, argStops)).toMatchObject({
      kind: "open",
      forcedMarker: "<|null|>",
    });
    expect(classifyHeadText("s1<|", optional, argStops)).toMatchObject({
      kind: "open",
      forcedMarker: "<|im_end|>",
    });
  });
});

describe("marker starts under a constraint", () => {
  const freeText: TextConstraint = {
    allowsNull: true,
    accepts: () => true,
    isComplete: (text) => text.trim() !== "",
    forcedContinuation: () => null,
  };

  test("</ and <| only begin a stop marker, so the marker is known at once", () => {
    expect(classifyHeadText("Amiya</", freeText, argStops)).toEqual({
      kind: "open",
      value: "Amiya",
      forcedMarker: "</arg1>",
    });
    expect(classifyHeadText("Amiya<|", freeText, argStops)).toMatchObject({ forcedMarker: "<|im_end|>" });
    expect(classifyHeadText("<|", freeText, argStops)).toMatchObject({ value: "", forcedMarker: "<|null|>" });
    expect(classifyHeadText("<|n", freeText, argStops)).toMatchObject({ forcedMarker: "<|null|>" });
  });

  test("text that breaks a begun marker is rejected, also when a marker follows", () => {
    expect(classifyHeadText("Amiya</b", freeText, argStops).kind).toBe("rejected");
    expect(classifyHeadText("a</b>c</arg1>", freeText, argStops).kind).toBe("rejected");
    expect(classifyHeadText("</arg1>", freeText, argStops).kind).toBe("rejected"); // no value yet
    // a lone "<" is ordinary text
    expect(classifyHeadText("a<b", freeText, argStops)).toMatchObject({ kind: "open", value: "a<b" });
  });

  test("unconstrained heads are raw text", () => {
    expect(classifyHeadText("a</b", null, argStops)).toMatchObject({ kind: "open", value: "a</b" });
  });
});

describe("forcedEnding", () => {
  const open = (value: string): OpenText => ({ kind: "open", value, forcedMarker: null });

  test("the unique rest of a name and its closing tag", () => {
    expect(forcedEnding(open("us"), names, fnStops)).toEqual({
      kind: "done",
      value: "use_skill",
      marker: "</function>",
      isNull: false,
    });
    expect(forcedEnding(open(""), names, fnStops)).toBeNull();
    expect(forcedEnding(open("us"), null, fnStops)).toBeNull();
  });

  test("a single tool is forced whole before any forward pass", () => {
    expect(forcedEnding(open(""), choiceOf(["pass"]), fnStops)).toMatchObject({
      value: "pass",
    });
  });

  test("an arg head that can only be absent is forced to <|null|>", () => {
    expect(forcedEnding(open(""), onlyNull, argStops)).toEqual({
      kind: "done",
      value: "",
      marker: "<|null|>",
      isNull: true,
    });
    const kindNull = { ...onlyNull, kind: "null", accepts: (text: string) => text === "" };
    expect(forcedEnding(open(""), kindNull, argStops)).toMatchObject({ isNull: true, marker: "<|null|>" });
    // an optional enum may be absent or a value: the model chooses
    expect(forcedEnding(open(""), choiceOf(["s1"], true), argStops)).toBeNull();
  });

  test("the rest of a partly written marker", () => {
    const state = classifyHeadText("move</fun", names, fnStops) as OpenText;
    expect(forcedEnding(state, names, fnStops)).toMatchObject({ value: "move", marker: "</function>" });
  });
});
