/**
 * Parameters named like prototype keys (`__proto__`, `constructor`, `prototype`) are ordinary
 * parameters: listed in the prompt, mapped into the call's arguments, never dropped while the
 * call is reported valid. Duplicate enum values are refused with their path.
 */
import { describe, expect, test } from "bun:test";
import { renderToolJson } from "../prompt/render";
import { normalizeTools, ToolSchemaError } from "../prompt/tools";
import { mapHeadsToCall } from "./map-heads";

const NAMES = ["__proto__", "constructor", "prototype"] as const;
// JSON.parse, as a server reads a body: `__proto__` becomes an own key.
const tool = JSON.parse(
  JSON.stringify({
    type: "function",
    function: { name: "set", parameters: { type: "object", properties: {}, required: [] } },
  }).replace('"properties":{}', `"properties":{${NAMES.map((n) => `"${n}":{"type":"string"}`).join(",")}}`),
);
tool.function.parameters.required = [...NAMES];

describe("prototype keys as parameter names", () => {
  test("normalizeTools keeps all three, in order", () => {
    expect(normalizeTools([tool])[0]!.parameters.map((p) => p.name)).toEqual([...NAMES]);
  });

  test("the prompt lists all three", () => {
    const line = renderToolJson(tool);
    for (const name of NAMES) expect(line).toContain(`"${name}": {"type": "string"}`);
  });

  test("mapHeadsToCall maps all three as own keys and the call is valid", () => {
    const call = mapHeadsToCall({ function: "set", arg1: "a", arg2: "b", arg3: "c" }, [tool]);
    expect(call.valid).toBe(true);
    expect(Object.keys(call.args)).toEqual([...NAMES]);
    expect(JSON.parse(JSON.stringify(call.args))).toEqual(
      JSON.parse('{"__proto__":"a","constructor":"b","prototype":"c"}'),
    );
    expect(Object.getPrototypeOf(call.args)).toBeNull();
  });

  test("a missing __proto__ argument is reported, not silently valid", () => {
    const call = mapHeadsToCall({ function: "set", arg2: "b", arg3: "c" }, [tool]);
    expect(call.valid).toBe(false);
    expect(call.errors[0]!.path).toBe("args.__proto__");
  });
});

describe("enum values", () => {
  test("a duplicate is refused with the path of the second", () => {
    const withDuplicate = {
      type: "function",
      function: {
        name: "go",
        parameters: { type: "object", properties: { dir: { type: "string", enum: ["up", "down", "up"] } } },
      },
    };
    let error: unknown;
    try {
      normalizeTools([withDuplicate]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolSchemaError);
    expect((error as ToolSchemaError).path).toBe("tools[0].function.parameters.properties.dir.enum[2]");
    expect((error as ToolSchemaError).reason).toContain("[0]");
  });
});
