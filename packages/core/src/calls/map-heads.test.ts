import { describe, expect, test } from "bun:test";
import { MOVE_TO_TOOL } from "@rtool/contract/testing";
import { normalizeTools } from "../prompt/tools";
import { formatCallForHistory } from "./history";
import { mapHeadsToCall } from "./map-heads";

const tools = normalizeTools([
  MOVE_TO_TOOL,
  {
    type: "function",
    function: {
      name: "speak",
      parameters: {
        type: "object",
        properties: {
          tone: { type: "string", enum: ["cheerful", "calm"] },
          text: { type: "string" },
        },
        required: ["text"],
      },
    },
  },
  {
    name: "configure",
    parameters: {
      type: "object",
      properties: {
        retries: { type: "integer" },
        verbose: { type: "boolean" },
        level: { type: "integer", enum: [1, 2, 3] },
        ratio: { enum: [0.5, 1.5] },
      },
    },
  },
  { name: "pass" },
]);

describe("mapHeadsToCall", () => {
  test("numbers map to the chosen tool's parameters in declaration order", () => {
    const call = mapHeadsToCall(
      { function: "move_to", arg1: "300", arg2: "-1.5", arg3: "2e2", arg4: "<|null|>" },
      tools,
    );
    expect(call).toEqual({
      function: "move_to",
      args: { x: 300, y: -1.5, z: 200 },
      valid: true,
      errors: [],
      warnings: [],
    });
    expect(Object.keys(call.args)).toEqual(["x", "y", "z"]);
  });

  test("another tool's order: arg1 is its first parameter, not move_to's", () => {
    const call = mapHeadsToCall(
      { function: "speak", arg1: "Calm", arg2: "Hello THERE,  friend!", arg3: null },
      tools,
    );
    expect(call.args).toEqual({ tone: "calm", text: "Hello THERE,  friend!" });
    expect(call.valid).toBe(true);
  });

  test("strings keep case and inner whitespace; one tokenizer space is trimmed at each end", () => {
    const call = mapHeadsToCall({ function: " speak", arg2: "  Mixed Case text  " }, tools);
    expect(call.args).toEqual({ text: " Mixed Case text " });
  });

  test("Chinese text passes through unchanged", () => {
    const call = mapHeadsToCall({ function: "speak", arg1: "cheerful", arg2: "你好，今天天气不错！" }, tools);
    expect(call.args).toEqual({ tone: "cheerful", text: "你好，今天天气不错！" });
  });

  test("integers, booleans and number enums", () => {
    const call = mapHeadsToCall(
      { function: "configure", arg1: "3", arg2: "TRUE", arg3: "2", arg4: "0.5" },
      tools,
    );
    expect(call.args).toEqual({ retries: 3, verbose: true, level: 2, ratio: 0.5 });
    expect(call.valid).toBe(true);
    expect(mapHeadsToCall({ function: "configure", arg2: "false" }, tools).args).toEqual({ verbose: false });
  });

  test("wrong types are errors with the parameter's path", () => {
    const call = mapHeadsToCall(
      { function: "configure", arg1: "2.5", arg2: "yes", arg3: "4", arg4: "1.0" },
      tools,
    );
    expect(call.valid).toBe(false);
    expect(call.args).toEqual({});
    expect(call.errors.map((e) => e.path)).toEqual([
      "args.retries",
      "args.verbose",
      "args.level",
      "args.ratio",
    ]);
    expect(call.errors[0]!.message).toContain("expected an integer");
    expect(call.errors[2]!.message).toContain("is not one of 1, 2, 3");
    const notNumber = mapHeadsToCall({ function: "move_to", arg1: "ten", arg2: "1", arg3: "1" }, tools);
    expect(notNumber.errors).toEqual([{ path: "args.x", message: 'expected a number, got "ten"' }]);
  });

  test("out-of-enum strings are errors", () => {
    const call = mapHeadsToCall(
      { function: "move_to", arg1: "1", arg2: "2", arg3: "3", arg4: "warp" },
      tools,
    );
    expect(call.valid).toBe(false);
    expect(call.errors).toEqual([
      { path: "args.speed", message: '"warp" is not one of "slow", "normal", "fast"' },
    ]);
    expect(call.args).toEqual({ x: 1, y: 2, z: 3 });
  });

  test("missing required parameters are errors; optional ones are simply absent", () => {
    const call = mapHeadsToCall({ function: "move_to", arg1: "1", arg2: "", arg3: "<|null|>" }, tools);
    expect(call.errors).toEqual([
      { path: "args.y", message: 'missing required parameter "y"' },
      { path: "args.z", message: 'missing required parameter "z"' },
    ]);
    expect(mapHeadsToCall({ function: "configure" }, tools)).toEqual({
      function: "configure",
      args: {},
      valid: true,
      errors: [],
      warnings: [],
    });
  });

  test("unknown function and no function", () => {
    const unknown = mapHeadsToCall({ function: "teleport", arg1: "1" }, tools);
    expect(unknown.function).toBeNull();
    expect(unknown.valid).toBe(false);
    expect(unknown.errors[0]!.path).toBe("function");
    expect(unknown.errors[0]!.message).toContain('unknown function "teleport"');
    for (const empty of [null, "", "<|null|>", undefined]) {
      const none = mapHeadsToCall({ function: empty }, tools);
      expect(none.errors).toEqual([{ path: "function", message: "no function was called" }]);
    }
  });

  test("values in arg heads the chosen tool does not have are ignored with a warning", () => {
    const call = mapHeadsToCall({ function: "pass", arg1: "north", arg2: "<|null|>" }, tools);
    expect(call.valid).toBe(true);
    expect(call.args).toEqual({});
    expect(call.warnings).toEqual([{ path: "arg1", message: 'ignored "north": pass takes 0 parameter(s)' }]);
  });

  test("accepts raw OpenAI tools too", () => {
    const call = mapHeadsToCall({ function: "flap" }, [{ type: "function", function: { name: "flap" } }]);
    expect(call.valid).toBe(true);
  });
});

describe("formatCallForHistory", () => {
  test("writes name(v1,v2) in parameter order", () => {
    expect(formatCallForHistory({ function: "move_to", args: { x: 300, y: 150, z: 50 } })).toBe(
      "move_to(300,150,50)",
    );
    expect(formatCallForHistory({ function: "fire", args: { direction: "left" } })).toBe("fire(left)");
    expect(formatCallForHistory({ function: "pass", args: {} })).toBe("pass()");
    expect(formatCallForHistory({ function: "move_to", args: { z: 3, x: 1, y: 2 } }, tools[0])).toBe(
      "move_to(1,2,3)",
    );
  });

  test("round-trips a mapped call", () => {
    const call = mapHeadsToCall({ function: "configure", arg1: "3", arg3: "1" }, tools);
    expect(formatCallForHistory({ function: call.function!, args: call.args })).toBe("configure(3,1)");
  });
});
