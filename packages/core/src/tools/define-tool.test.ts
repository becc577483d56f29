/**
 * defineTool and ToolRegistry: zod and JSON Schema tools give byte-identical prompts (against
 * tools written as the reference scenarios write them), schema problems are refused with the
 * field, and arguments are checked (JSON Schema) or parsed (zod) for the handler.
 */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { buildPrompt, systemPrefix } from "../prompt/build";
import { ToolSchemaError } from "../prompt/tools";
import { defineTool, isToolDefinition } from "./define-tool";
import { ToolRegistry } from "./registry";

/** Tools as `scenarios/` writes them (robot arm, avatar, flappy bird). */
const SCENARIO_TOOLS = [
  {
    type: "function",
    function: {
      name: "move_to",
      description: "Move the tool tip to a point in the base frame along a collision-free path.",
      parameters: {
        type: "object",
        properties: {
          x: { type: "number", description: "X in mm, forward from the base, about -800..800." },
          y: { type: "number", description: "Y in mm, to the left of the base, about -800..800." },
          z: { type: "number", description: "Z in mm above the table; never below 0." },
          speed: {
            type: "string",
            description: "slow, normal or fast; default normal.",
            enum: ["slow", "normal", "fast"],
          },
        },
        required: ["x", "y", "z"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "set_expression",
      description: "Show a facial expression until another one replaces it.",
      parameters: {
        type: "object",
        properties: {
          emotion: {
            type: "string",
            description: "happy, sad, surprised, angry, neutral or thinking.",
            enum: ["happy", "sad", "surprised", "angry", "neutral", "thinking"],
          },
          intensity: { type: "number", description: "0.0 subtle .. 1.0 full." },
        },
        required: ["emotion", "intensity"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "flap",
      description: "Make the bird flap once.",
      parameters: { type: "object", properties: {}, required: [] },
    },
  },
] as const;

const noop = () => undefined;

function zodTools() {
  return [
    defineTool({
      name: "move_to",
      description: "Move the tool tip to a point in the base frame along a collision-free path.",
      parameters: z.object({
        x: z.number().describe("X in mm, forward from the base, about -800..800."),
        y: z.number().describe("Y in mm, to the left of the base, about -800..800."),
        z: z.number().min(0).describe("Z in mm above the table; never below 0."),
        speed: z
          .enum(["slow", "normal", "fast"])
          .default("normal")
          .describe("slow, normal or fast; default normal."),
      }),
      handler: noop,
    }),
    defineTool({
      name: "set_expression",
      description: "Show a facial expression until another one replaces it.",
      parameters: z.object({
        emotion: z
          .enum(["happy", "sad", "surprised", "angry", "neutral", "thinking"])
          .describe("happy, sad, surprised, angry, neutral or thinking."),
        intensity: z.number().min(0).max(1).describe("0.0 subtle .. 1.0 full."),
      }),
      handler: noop,
    }),
    defineTool({
      name: "flap",
      description: "Make the bird flap once.",
      parameters: z.object({}),
      handler: noop,
    }),
  ];
}

function jsonTools() {
  return SCENARIO_TOOLS.map((tool) =>
    defineTool({
      name: tool.function.name,
      description: tool.function.description,
      parameters: tool.function.parameters,
      handler: noop,
    }),
  );
}

describe("prompts", () => {
  const request = { query: "move to 300 150 50", environment: ["holding: nothing"], history: ["grip(50)"] };

  test("zod tools, JSON Schema tools and the raw scenario tools give byte-identical prompts (v1, v2)", () => {
    const fromZod = new ToolRegistry(zodTools());
    const fromJson = new ToolRegistry(jsonTools());
    for (const format of ["v1", "v2"] as const) {
      const raw = buildPrompt(format, { ...request, tools: SCENARIO_TOOLS as never, system: "Robot." });
      expect(fromZod.buildPrompt(format, { ...request, system: "Robot." })).toBe(raw);
      expect(fromJson.buildPrompt(format, { ...request, system: "Robot." })).toBe(raw);
      expect(fromZod.systemPrefix(format, "Robot.")).toBe(
        systemPrefix(format, { tools: SCENARIO_TOOLS as never, system: "Robot." }),
      );
    }
  });

  test("registry lists tools in the order added; tools() is the request form", () => {
    const registry = new ToolRegistry(zodTools());
    expect(registry.names()).toEqual(["move_to", "set_expression", "flap"]);
    expect(registry.size).toBe(3);
    expect(JSON.parse(JSON.stringify(registry.tools()))).toEqual(JSON.parse(JSON.stringify(SCENARIO_TOOLS)));
    expect(registry.specs()[0].parameters.map((p) => [p.name, p.type, p.required])).toEqual([
      ["x", "number", true],
      ["y", "number", true],
      ["z", "number", true],
      ["speed", "string", false],
    ]);
    expect(registry.get("flap")?.name).toBe("flap");
    expect(registry.has("jump")).toBe(false);
  });

  test("zod integers, booleans, literals and optional fields map to the head types", () => {
    const tool = defineTool({
      name: "fire",
      parameters: z.object({ n: z.number().int(), loud: z.boolean().optional(), mode: z.literal("burst") }),
      handler: noop,
    });
    expect(tool.tool.function.parameters).toEqual({
      type: "object",
      properties: {
        n: { type: "integer" },
        loud: { type: "boolean" },
        mode: { type: "string", enum: ["burst"] },
      },
      required: ["n", "mode"],
    });
  });
});

describe("refusals", () => {
  test("duplicate names, with the index of the first", () => {
    const [move] = zodTools();
    expect(() => new ToolRegistry([move, move])).toThrow(/duplicate tool name "move_to" \(also tools\[0\]\)/);
    const registry = new ToolRegistry([move]);
    expect(() => registry.add(move)).toThrow(ToolSchemaError);
    expect(registry.size).toBe(1);
  });

  test("more than 6 parameters", () => {
    const shape = Object.fromEntries(["a", "b", "c", "d", "e", "f", "g"].map((k) => [k, z.string()]));
    const error = (() => {
      try {
        defineTool({ name: "many", parameters: z.object(shape), handler: noop });
      } catch (e) {
        return e as ToolSchemaError;
      }
    })();
    expect(error).toBeInstanceOf(ToolSchemaError);
    expect(error?.path).toBe('defineTool("many").parameters.properties');
    expect(error?.reason).toContain("at most 6");
  });

  test("unsupported zod features: arrays, nested objects, unions, dates, non-objects", () => {
    const cases: [string, unknown, RegExp][] = [
      ["list", z.object({ items: z.array(z.string()) }), /properties\.items\.type.*unsupported type "array"/],
      [
        "nest",
        z.object({ at: z.object({ x: z.number() }) }),
        /properties\.at\.type.*unsupported type "object"/,
      ],
      [
        "either",
        z.object({ v: z.union([z.string(), z.number()]) }),
        /properties\.v\.type: unsupported type \["string","number"\]/,
      ],
      ["maybe", z.object({ v: z.enum(["a", "b"]).nullable() }), /properties\.v\.anyOf: is not supported/],
      ["when", z.object({ at: z.date() }), /zod cannot express/],
      ["bare", z.string(), /must be a zod object schema/],
    ];
    for (const [name, parameters, message] of cases) {
      expect(() => defineTool({ name, parameters: parameters as z.ZodObject, handler: noop })).toThrow(
        message,
      );
    }
  });

  test("unsupported JSON Schema features and bad names", () => {
    expect(() =>
      defineTool({
        name: "bad",
        parameters: { type: "object", properties: { a: { type: "string" } }, required: ["b"] },
        handler: noop,
      }),
    ).toThrow(/defineTool\("bad"\)\.parameters\.required\[0\]: names unknown property "b"/);
    expect(() => defineTool({ name: "has space", parameters: { type: "object" }, handler: noop })).toThrow(
      ToolSchemaError,
    );
    expect(() => new ToolRegistry([{ name: "fake" } as never])).toThrow(/defineTool/);
  });
});

describe("arguments", () => {
  test("zod parses: defaults filled, bounds enforced with the args path", () => {
    const [moveTo, setExpression] = zodTools();
    expect(moveTo.parseArgs({ x: 1, y: 2, z: 3 })).toEqual({
      ok: true,
      value: { x: 1, y: 2, z: 3, speed: "normal" },
    });
    const bad = setExpression.parseArgs({ emotion: "happy", intensity: 3 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues[0].path).toBe("args.intensity");
  });

  test("JSON Schema checks types, enums, required and unknown names; null is absent", () => {
    const [moveTo] = jsonTools();
    expect(moveTo.parseArgs({ x: 1, y: 2, z: 3, speed: null })).toEqual({
      ok: true,
      value: { x: 1, y: 2, z: 3 },
    });
    const bad = moveTo.parseArgs({ x: "1", y: 2, speed: "warp", w: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.issues.map((i) => i.path).sort()).toEqual(["args.speed", "args.w", "args.x", "args.z"]);
    }
    const fire = defineTool({
      name: "fire",
      parameters: { type: "object", properties: { n: { type: "integer" } } },
      handler: noop,
    });
    expect(fire.parseArgs({ n: 1.5 }).ok).toBe(false);
    expect(fire.parseArgs([]).ok).toBe(false);
  });

  test("definitions are recognised by brand", () => {
    expect(isToolDefinition(zodTools()[0])).toBe(true);
    expect(isToolDefinition({ name: "x" })).toBe(false);
  });
});
