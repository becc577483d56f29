import { describe, expect, test } from "bun:test";
import { MOVE_TO_TOOL } from "@rtool/contract/testing";
import { normalizeTools } from "../../prompt/tools";
import { buildHeadConstraints, parameterConstraint } from "./build";
import { enumConstraint, functionNameConstraint } from "./choice";
import { freeTextConstraint } from "./free-text";
import { integerConstraint, numberConstraint } from "./numeric";

const towerDefense = normalizeTools(
  ["move", "use_skill", "retreat", "retreat_all", "set_stance", "pass"].map((name, i) => ({
    name,
    parameters: {
      type: "object",
      properties: Object.fromEntries(
        ["unit_id", "target"]
          .slice(0, i < 2 ? 2 : i === 4 ? 2 : i === 2 ? 1 : 0)
          .map((p) => [p, { type: "string" }]),
      ),
      required: i === 0 ? ["unit_id", "target"] : [],
    },
  })),
);

describe("function name constraint", () => {
  const fn = functionNameConstraint(towerDefense.map((t) => t.name));

  test("accepts prefixes of tool names only", () => {
    for (const text of ["", "m", "use_", "retreat", "retreat_a", " pass", "pass "])
      expect(fn.accepts(text)).toBe(true);
    for (const text of ["x", "Move", "passx", "  pass", "pass  ", "retreat_all_"])
      expect(fn.accepts(text)).toBe(false);
    expect(fn.allowsNull).toBe(false);
  });

  test("forces the rest of a name once it is unique, and the stop once complete", () => {
    expect(fn.forcedContinuation("")).toBeNull();
    expect(fn.forcedContinuation("u")).toBe("se_skill");
    expect(fn.forcedContinuation("m")).toBe("ove");
    expect(fn.forcedContinuation("r")).toBeNull();
    expect(fn.forcedContinuation("s")).toBe("et_stance");
    expect(fn.forcedContinuation("retreat")).toBeNull();
    expect(fn.forcedContinuation("retreat_")).toBe("all");
    expect(fn.forcedContinuation("pass")).toBe("");
    expect(fn.forcedContinuation(" pass ")).toBe("");
    expect(fn.forcedContinuation("x")).toBeNull();
  });

  test("complete names, with tokenizer spaces", () => {
    expect(fn.isComplete("retreat")).toBe(true);
    expect(fn.isComplete(" retreat ")).toBe(true);
    expect(fn.isComplete("retrea")).toBe(false);
  });
});

describe("enum constraint", () => {
  const emotion = enumConstraint(["happy", "sad", "surprised", "Neutral"], false);

  test("ignores ASCII case as the mapping does and completes to the canonical spelling", () => {
    expect(emotion.accepts("HA")).toBe(true);
    expect(emotion.forcedContinuation("HA")).toBe("ppy");
    expect(emotion.forcedContinuation("s")).toBeNull();
    expect(emotion.forcedContinuation("su")).toBe("rprised");
    expect(emotion.isComplete("neutral")).toBe(true);
    expect(emotion.accepts("angry")).toBe(false);
  });

  test("number enums are matched as written", () => {
    const level = enumConstraint([1, 10, 2.5], true);
    expect(level.forcedContinuation("1")).toBeNull();
    expect(level.forcedContinuation("2")).toBe(".5");
    expect(level.isComplete("10")).toBe(true);
    expect(level.accepts("1.0")).toBe(false);
    expect(level.allowsNull).toBe(true);
  });
});

describe("numeric constraints", () => {
  const number = numberConstraint(false);
  const integer = integerConstraint(true);

  test("number prefixes", () => {
    for (const text of ["", "-", "1", "-12.", "3.25", "1e", "1e-", "2.5E+1", " 7", "7 "])
      expect(number.accepts(text)).toBe(true);
    for (const text of ["+", ".", "-.", "1..", "1.e", "1e1.5", "abc", "1e999", "7  ", "7 1"])
      expect(number.accepts(text)).toBe(false);
    expect(number.isComplete("-12.")).toBe(false);
    expect(number.isComplete("-12.5")).toBe(true);
    expect(number.forcedContinuation("12")).toBeNull();
    expect(number.forcedContinuation("12 ")).toBe("");
  });

  test("integer prefixes", () => {
    expect(integer.accepts("-")).toBe(true);
    expect(integer.accepts("12")).toBe(true);
    expect(integer.accepts("1.")).toBe(false);
    expect(integer.accepts("99999999999999999")).toBe(false);
    expect(integer.isComplete("-")).toBe(false);
    expect(integer.isComplete("-4")).toBe(true);
  });
});

describe("free-text constraint", () => {
  const text = freeTextConstraint(true);

  test("accepts any text, Chinese, markup and angle brackets included", () => {
    for (const t of ["", "Welcome back!", "和设计组开会", "a < b > c", "<b>bold</b>", "<argument>", "<arg7>"])
      expect(text.accepts(t)).toBe(true);
  });

  test("refuses a head's opening tag anywhere in the value, and every extension of it", () => {
    for (const t of [
      "<arg1>",
      "<arg1><arg1>见小王",
      "Daip<arg3>center",
      "x<function>",
      "<content>hi",
      "<arg6>",
    ]) {
      expect(text.accepts(t)).toBe(false);
      expect(text.accepts(`${t} more`)).toBe(false);
    }
    // a prefix of a tag is still open: it may become other text
    expect(text.accepts("Daip<arg")).toBe(true);
  });
});

describe("buildHeadConstraints", () => {
  const arm = normalizeTools([
    MOVE_TO_TOOL,
    {
      name: "rotate",
      parameters: {
        type: "object",
        properties: { axis: { enum: ["roll", "pitch", "yaw"] }, angle: { type: "number" } },
        required: ["axis", "angle"],
      },
    },
    {
      name: "grip",
      parameters: { type: "object", properties: { force: { type: "integer" } }, required: ["force"] },
    },
    { name: "home" },
  ]);

  test("one arg head per position of the largest tool, plus content when asked", () => {
    const constraints = buildHeadConstraints(arm, null, { includeContent: true });
    expect(Object.keys(constraints)).toEqual(["function", "arg1", "arg2", "arg3", "arg4", "content"]);
    expect(constraints.content!.allowsNull).toBe(true);
  });

  test("before the function is known, arg heads allow every tool's parameter at their position", () => {
    const { arg1, arg2, arg4 } = buildHeadConstraints(arm, null);
    expect(arg1!.kind).toBe("union");
    for (const text of ["12.5", "pitch", "3"]) expect(arg1!.isComplete(text)).toBe(true);
    expect(arg1!.accepts("flat")).toBe(false);
    expect(arg1!.forcedContinuation("pi")).toBe("tch");
    expect(arg1!.forcedContinuation("1")).toBeNull();
    expect(arg1!.allowsNull).toBe(true);
    expect(arg2!.isComplete("-3")).toBe(true);
    expect(arg4!.kind).toBe("enum");
    expect(arg4!.allowsNull).toBe(true);
  });

  test("after the function is known, arg heads follow the chosen tool and extra heads say null", () => {
    const rotate = buildHeadConstraints(arm, "rotate");
    expect(rotate.arg1!.kind).toBe("enum");
    expect(rotate.arg1!.allowsNull).toBe(false);
    expect(rotate.arg1!.isComplete("12")).toBe(false);
    expect(rotate.arg2!.kind).toBe("number");
    expect(rotate.arg3!.kind).toBe("null");
    expect(rotate.arg3!.accepts("")).toBe(true);
    expect(rotate.arg3!.accepts("1")).toBe(false);
    const home = buildHeadConstraints(arm, "home");
    expect([home.arg1, home.arg2, home.arg3, home.arg4].map((c) => c!.kind)).toEqual([
      "null",
      "null",
      "null",
      "null",
    ]);
  });

  test("an unknown function name keeps the union", () => {
    expect(buildHeadConstraints(arm, "fly").arg1!.kind).toBe("union");
  });

  test("a string parameter at a position makes that head free text", () => {
    const constraints = buildHeadConstraints(towerDefense, null);
    expect(constraints.arg1!.kind).toBe("string");
    expect(constraints.arg1!.accepts("Ch3n 陈 !")).toBe(true);
    expect(constraints.arg1!.forcedContinuation("a")).toBeNull();
    expect(parameterConstraint(towerDefense[0]!.parameters[0]!).allowsNull).toBe(false);
  });
});

describe("what an arg head's constraint tells the decoder's nudges", () => {
  const tools = normalizeTools([
    {
      name: "set_alarm",
      parameters: {
        type: "object",
        properties: {
          time: { type: "string", description: "Time as HH:MM, 24-hour." },
          repeat: { type: "string", enum: ["once", "daily"] },
        },
        required: ["time"],
      },
    },
    {
      name: "add_event",
      parameters: {
        type: "object",
        properties: { title: { type: "string" }, date: { type: "string", format: "date" } },
        required: ["title", "date"],
      },
    },
  ]);

  test("the chosen tool's other parameters and a time or date form", () => {
    const alarm = buildHeadConstraints(tools, "set_alarm");
    expect(alarm.arg1?.parameters).toEqual(["time"]);
    expect(alarm.arg1?.otherParameters).toEqual(["repeat"]);
    expect(alarm.arg1?.format).toEqual({ kind: "time", dayWords: false });
    expect(alarm.arg2?.format).toBeUndefined();
    expect(buildHeadConstraints(tools, "add_event").arg2?.format).toEqual({ kind: "date", dayWords: false });
  });

  test("before the function is known: every tool's parameters not at the head's position", () => {
    const union = buildHeadConstraints(tools, null);
    expect(union.arg1?.parameters).toEqual(["time", "title"]);
    expect(union.arg1?.otherParameters).toEqual(["repeat", "date"]);
  });
});
