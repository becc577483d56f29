import { describe, expect, test } from "bun:test";
import { TIMER_TOOL } from "@rtool/contract/testing";
import { dispatchCall, formatHistoryEntry, validateWorldCall } from "./call-dispatch";
import { accept, type ScenarioTool } from "./world";

const tool: ScenarioTool = TIMER_TOOL;

describe("validateWorldCall", () => {
  test("accepts typed args and drops null ones as not given", () => {
    const result = validateWorldCall([tool], {
      function: "set_timer",
      args: { minutes: 5, loud: true, label: null },
    });
    expect(result.ok && result.args).toEqual({ minutes: 5, loud: true });
  });

  test("never coerces: integer, boolean and number types are checked as given", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ minutes: 2.5 }, "minutes"],
      [{ minutes: "5" }, "minutes"],
      [{ minutes: 5, loud: "yes" }, "loud"],
      [{ minutes: 5, label: 7 }, "label"],
    ];
    for (const [args, field] of cases) {
      const result = validateWorldCall([tool], { function: "set_timer", args });
      expect(!result.ok && [result.code, result.field]).toEqual(["bad_type", field]);
    }
  });

  test("rejects non-finite numbers and non-object args", () => {
    const numberTool: ScenarioTool = structuredClone(tool);
    numberTool.function.parameters.properties.minutes.type = "number";
    const infinite = validateWorldCall([numberTool], { function: "set_timer", args: { minutes: Infinity } });
    expect(!infinite.ok && infinite.code).toBe("bad_type");
    const listArgs = validateWorldCall([tool], {
      function: "set_timer",
      args: [] as unknown as Record<string, unknown>,
    });
    expect(!listArgs.ok && listArgs.field).toBe("args");
  });
});

describe("formatHistoryEntry", () => {
  test("given values in declaration order, absent ones left out", () => {
    expect(formatHistoryEntry(tool, { minutes: 5 })).toBe("set_timer(5)");
    expect(formatHistoryEntry(tool, { mode: "daily", minutes: 5, label: "tea" })).toBe(
      "set_timer(tea,5,daily)",
    );
  });
});

describe("dispatchCall", () => {
  test("records accepted calls only", () => {
    const history: string[] = [];
    const handlers = { set_timer: () => accept() };
    dispatchCall([tool], handlers, { function: "set_timer", args: { minutes: 1 } }, history);
    dispatchCall([tool], handlers, { function: "set_timer", args: {} }, history);
    expect(history).toEqual(["set_timer(1)"]);
  });
});
