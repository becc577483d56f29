import { describe, expect, test } from "bun:test";
import { maxParameterCount, normalizeTools, ToolSchemaError, toToolSpecs } from "./tools";

const moveTo = {
  type: "function",
  function: {
    name: "move_to",
    description: "Move the gripper.",
    parameters: {
      type: "object",
      properties: {
        x: { type: "number", description: "mm" },
        y: { type: "number" },
        speed: { type: "string", enum: ["slow", "fast"] },
        steps: { type: "integer" },
        dry_run: { type: "boolean" },
      },
      required: ["x", "y"],
    },
  },
};

function schemaError(run: () => unknown): ToolSchemaError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolSchemaError) return error;
    throw error;
  }
  throw new Error("expected a ToolSchemaError");
}

describe("normalizeTools", () => {
  test("keeps declaration order, types, enums, descriptions and required flags", () => {
    const [spec] = normalizeTools([moveTo]);
    expect(spec!.name).toBe("move_to");
    expect(spec!.description).toBe("Move the gripper.");
    expect(spec!.parameters).toEqual([
      { name: "x", type: "number", description: "mm", required: true },
      { name: "y", type: "number", required: true },
      { name: "speed", type: "string", enum: ["slow", "fast"], required: false },
      { name: "steps", type: "integer", required: false },
      { name: "dry_run", type: "boolean", required: false },
    ]);
    expect(spec!.original).toBe(moveTo);
  });

  test("accepts the bare form, missing parameters, typeless enums and nullable types", () => {
    const specs = normalizeTools([
      { name: "pass" },
      {
        name: "look",
        parameters: { type: "object", properties: { at: { enum: ["left", "right"] }, n: { enum: [1, 2] } } },
      },
      { name: "say", parameters: { type: "object", properties: { text: { type: ["string", "null"] } } } },
    ]);
    expect(specs.map((s) => s.parameters.map((p) => p.type))).toEqual([[], ["string", "number"], ["string"]]);
    expect(maxParameterCount(specs)).toBe(2);
  });

  test("passes already normalised tools through", () => {
    const specs = normalizeTools([moveTo]);
    expect(toToolSpecs(specs)).toEqual(specs);
  });

  const bad: [string, unknown[], string][] = [
    ["empty list", [], "tools"],
    ["duplicate names", [{ name: "a" }, { type: "function", function: { name: "a" } }], "tools[1]"],
    ["invalid name", [{ name: "move to" }], "tools[0].name"],
    ["missing name", [{ type: "function", function: {} }], "tools[0].function.name"],
    ["wrong tool type", [{ type: "retrieval", function: { name: "a" } }], "tools[0].type"],
    ["non-object schema", [{ name: "a", parameters: { type: "string" } }], "tools[0].parameters"],
    [
      "more than 6 parameters",
      [
        {
          name: "a",
          parameters: {
            type: "object",
            properties: Object.fromEntries("abcdefg".split("").map((k) => [k, { type: "string" }])),
          },
        },
      ],
      "tools[0].parameters.properties",
    ],
    [
      "array property",
      [
        { name: "ok" },
        {
          type: "function",
          function: { name: "a", parameters: { type: "object", properties: { x: { type: "array" } } } },
        },
      ],
      "tools[1].function.parameters.properties.x.type",
    ],
    [
      "object property",
      [{ name: "a", parameters: { type: "object", properties: { x: { type: "object" } } } }],
      "tools[0].parameters.properties.x.type",
    ],
    [
      "anyOf property",
      [{ name: "a", parameters: { type: "object", properties: { x: { anyOf: [{ type: "string" }] } } } }],
      "tools[0].parameters.properties.x.anyOf",
    ],
    [
      "required naming an unknown property",
      [
        {
          name: "a",
          parameters: { type: "object", properties: { x: { type: "string" } }, required: ["x", "y"] },
        },
      ],
      "tools[0].parameters.required[1]",
    ],
    [
      "enum not matching its type",
      [{ name: "a", parameters: { type: "object", properties: { x: { type: "integer", enum: [1, 1.5] } } } }],
      "tools[0].parameters.properties.x.enum[1]",
    ],
    [
      "enum value with edge whitespace",
      [{ name: "a", parameters: { type: "object", properties: { x: { enum: ["ok", " up"] } } } }],
      "tools[0].parameters.properties.x.enum[1]",
    ],
    [
      "empty enum",
      [{ name: "a", parameters: { type: "object", properties: { x: { type: "string", enum: [] } } } }],
      "tools[0].parameters.properties.x.enum",
    ],
  ];
  for (const [what, tools, path] of bad) {
    test(`rejects ${what} at ${path}`, () => {
      const error = schemaError(() => normalizeTools(tools));
      expect(error.path).toBe(path);
      expect(error.message.startsWith(`${path}: `)).toBe(true);
    });
  }

  test("says which types are supported", () => {
    const error = schemaError(() =>
      normalizeTools([{ name: "a", parameters: { type: "object", properties: { x: { type: "array" } } } }]),
    );
    expect(error.reason).toContain('"string", "number", "integer", "boolean"');
  });
});
