import { describe, expect, test } from "bun:test";
import { normalizeTool, ToolDefinitionError } from "./tool-schema";
import { validateCall } from "./validate-call";

const tools = new Map(
  [
    normalizeTool({
      name: "move",
      parameters: {
        type: "object",
        properties: { direction: { type: "string", enum: ["up", "down", "left", "right"] } },
        required: ["direction"],
      },
    }),
    normalizeTool({
      name: "set_speed",
      parameters: {
        type: "object",
        properties: {
          speed: { type: "number", minimum: 0, maximum: 10 },
          steps: { type: "integer" },
          loud: { type: "boolean" },
        },
        required: ["speed"],
      },
    }),
  ].map((tool) => [tool.function.name, tool]),
);

describe("validateCall", () => {
  test("accepts a call that matches the schema and keeps only given arguments", () => {
    expect(validateCall(tools, "move", { direction: "up" })).toEqual({
      ok: true,
      function: "move",
      args: { direction: "up" },
    });
    expect(validateCall(tools, "set_speed", { speed: 2.5, steps: null, loud: undefined })).toEqual({
      ok: true,
      function: "set_speed",
      args: { speed: 2.5 },
    });
  });

  test("refuses unknown tools and arguments", () => {
    expect(validateCall(tools, "jump", {})).toMatchObject({ ok: false, code: "unknown_tool" });
    expect(validateCall(tools, null, {})).toMatchObject({ ok: false, code: "unknown_tool" });
    expect(validateCall(tools, "move", { direction: "up", speed: 3 })).toMatchObject({
      ok: false,
      code: "unknown_arg",
      field: "speed",
    });
  });

  test("refuses missing required arguments, wrong types and out-of-enum values without coercion", () => {
    expect(validateCall(tools, "move", {})).toMatchObject({ code: "missing_arg", field: "direction" });
    expect(validateCall(tools, "move", { direction: "north" })).toMatchObject({ code: "bad_enum" });
    expect(validateCall(tools, "set_speed", { speed: "5" })).toMatchObject({
      code: "bad_type",
      field: "speed",
    });
    expect(validateCall(tools, "set_speed", { speed: Number.NaN })).toMatchObject({ code: "bad_type" });
    expect(validateCall(tools, "set_speed", { speed: 1, steps: 1.5 })).toMatchObject({
      code: "bad_type",
      field: "steps",
    });
    expect(validateCall(tools, "set_speed", { speed: 1, loud: "yes" })).toMatchObject({ code: "bad_type" });
  });

  test("refuses numbers outside minimum/maximum", () => {
    expect(validateCall(tools, "set_speed", { speed: 11 })).toMatchObject({
      code: "out_of_range",
      field: "speed",
    });
    expect(validateCall(tools, "set_speed", { speed: -1 })).toMatchObject({ code: "out_of_range" });
  });
});

describe("normalizeTool", () => {
  test("wraps a bare function definition and fills an empty parameter object", () => {
    expect(normalizeTool({ name: "flap", description: "Flap once." })).toEqual({
      type: "function",
      function: {
        name: "flap",
        description: "Flap once.",
        parameters: { type: "object", properties: {}, required: [] },
      },
    });
  });

  test("writes name, description, parameters in that order (the JSON the server shows the model)", () => {
    const tool = normalizeTool({
      parameters: { type: "object", properties: {} },
      description: "Flap.",
      name: "flap",
    });
    expect(JSON.stringify(tool)).toBe(
      '{"type":"function","function":{"name":"flap","description":"Flap.",' +
        '"parameters":{"type":"object","properties":{},"required":[]}}}',
    );
  });

  test("keeps an OpenAI-style tool and its property order", () => {
    const tool = normalizeTool({
      type: "function",
      function: {
        name: "aim",
        parameters: {
          type: "object",
          properties: { y: { type: "number" }, x: { type: "number" } },
          required: [],
        },
      },
    });
    expect(Object.keys(tool.function.parameters!.properties)).toEqual(["y", "x"]);
  });

  test("names the field of a definition it cannot serve", () => {
    const bad = () =>
      normalizeTool({
        name: "grab",
        parameters: { type: "object", properties: { what: { type: "array" as "string" } } },
      });
    expect(bad).toThrow(ToolDefinitionError);
    expect(bad).toThrow("parameters.properties.what.type");
    expect(() => normalizeTool({ name: "has space" })).toThrow(ToolDefinitionError);
    expect(() =>
      normalizeTool({ name: "x", parameters: { type: "object", properties: {}, required: ["y"] } }),
    ).toThrow("parameters.required");
  });
});
