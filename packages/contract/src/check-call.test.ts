import { describe, expect, test } from "bun:test";
import { checkArgs, checkCall, parametersOf } from "./check-call";
import type { FunctionTool } from "./tools";

const move: FunctionTool = {
  function: {
    name: "move",
    parameters: {
      required: ["direction"],
      type: "object",
      properties: {
        direction: { type: "string", enum: ["up", "down"] },
        speed: { type: ["integer", "null"], minimum: 1, maximum: 10 },
        loud: { type: "boolean" },
      },
    },
  },
  type: "function",
};

describe("checkCall", () => {
  test("a good call gives its tool and only the given arguments, null counting as absent", () => {
    const checked = checkCall([move], "move", { direction: "up", speed: 3, loud: null });
    expect(checked.ok && checked.tool).toBe(move);
    expect(checked.ok && { ...checked.args }).toEqual({ direction: "up", speed: 3 });
  });

  test("each problem has its code, the parameter and the path", () => {
    const cases: [unknown, string, string][] = [
      [{}, "missing_arg", "direction"],
      [{ direction: "left" }, "bad_enum", "direction"],
      [{ direction: "up", speed: "3" }, "bad_type", "speed"],
      [{ direction: "up", speed: 2.5 }, "bad_type", "speed"],
      [{ direction: "up", speed: 11 }, "out_of_range", "speed"],
      [{ direction: "up", fly: true }, "unknown_arg", "fly"],
    ];
    for (const [args, code, field] of cases) {
      const checked = checkCall([move], "move", args);
      expect(checked.ok ? null : checked.issues[0]).toMatchObject({ code, field, path: `args.${field}` });
    }
  });

  test("an unknown or missing function, and args that are not an object", () => {
    const unknown = checkCall(new Map([["move", move]]), "jump", {});
    expect(unknown.ok ? null : unknown.issues[0]).toMatchObject({ code: "unknown_tool", path: "function" });
    expect(checkCall([move], null, {}).ok).toBe(false);
    const list = checkCall([move], "move", ["up"]);
    expect(list.ok ? null : list.issues[0]).toMatchObject({ code: "bad_args", path: "args" });
    // No args at all is an empty object: only the required parameter is missing.
    const none = checkCall([move], "move", undefined);
    expect(none.ok ? null : none.issues.map((i) => i.code)).toEqual(["missing_arg"]);
  });
});

describe("checkArgs", () => {
  test("lists every problem, in core's words", () => {
    const parameters = parametersOf(move.function.parameters);
    const checked = checkArgs("move", parameters, { direction: 5, loud: "yes", extra: 1 });
    expect(checked.ok ? [] : checked.issues).toEqual([
      { code: "unknown_arg", field: "extra", path: "args.extra", message: 'move has no parameter "extra"' },
      {
        code: "bad_type",
        field: "direction",
        path: "args.direction",
        message: "must be a string, got number",
      },
      { code: "bad_type", field: "loud", path: "args.loud", message: "must be a boolean, got string" },
    ]);
  });

  test("own keys only: an inherited constructor is not an argument, a __proto__ key is one", () => {
    const parameters = [{ name: "__proto__", type: "string", required: true }];
    const given = JSON.parse('{"__proto__": "x"}');
    const checked = checkArgs("t", parameters, given);
    expect(checked.ok && Object.hasOwn(checked.args, "__proto__")).toBe(true);
    expect(checkArgs("t", [{ name: "constructor", required: true }], {}).ok).toBe(false);
  });
});
