/**
 * Type tests, checked by `tsc -p .` (the package's `typecheck`; `define-tool.types.test.ts` runs
 * it on this file): handler arguments are typed from zod and from JSON Schema literals, and
 * misuse fails to compile (each `@ts-expect-error` must meet an error, or tsc fails).
 */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "./define-tool";
import type { JsonSchemaArgs } from "./json-schema-args";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_proof?: T): void {}

// zod: required, optional, defaulted (present after parsing), enums and numbers.
const move = defineTool({
  name: "move",
  parameters: z.object({
    direction: z.enum(["up", "down"]),
    steps: z.number().int().optional(),
    speed: z.enum(["slow", "fast"]).default("slow"),
  }),
  handler: (args, context) => {
    assertType<Equal<typeof args.direction, "up" | "down">>();
    assertType<Equal<typeof args.steps, number | undefined>>();
    assertType<Equal<typeof args.speed, "slow" | "fast">>();
    assertType<Equal<typeof context.signal, AbortSignal>>();
    // @ts-expect-error: no such parameter
    args.power;
    return args.direction.length;
  },
});
assertType<
  Equal<
    typeof move,
    ToolDefinition<{ direction: "up" | "down"; steps?: number; speed: "slow" | "fast" }, number>
  >
>();

// JSON Schema: literal types without `as const`; required keys required, the rest optional.
const fire = defineTool({
  name: "fire",
  parameters: {
    type: "object",
    properties: {
      target: { type: "string", enum: ["boss", "minion"] },
      power: { type: "integer" },
      loud: { type: "boolean" },
      note: { type: ["string", "null"] },
    },
    required: ["target"],
  },
  handler: async (args) => {
    assertType<Equal<typeof args.target, "boss" | "minion">>();
    assertType<Equal<typeof args.power, number | undefined>>();
    assertType<Equal<typeof args.loud, boolean | undefined>>();
    assertType<Equal<typeof args.note, string | null | undefined>>();
    return { hit: true };
  },
});
assertType<Equal<Awaited<ReturnType<typeof fire.handler>>, { hit: boolean }>>();

// No parameters: an empty argument object.
defineTool({
  name: "pass",
  parameters: { type: "object", properties: {}, required: [] },
  handler: (args) => {
    assertType<Equal<keyof typeof args, never>>();
  },
});

assertType<
  Equal<
    JsonSchemaArgs<{ type: "object"; properties: { n: { type: "number" } }; required: ["n"] }>,
    { n: number }
  >
>();

defineTool({
  name: "typo",
  parameters: z.object({ direction: z.enum(["up", "down"]) }),
  // @ts-expect-error: "left" is not a direction
  handler: (args) => (args.direction === "left" ? 1 : 0),
});

defineTool({
  name: "wrong",
  parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  // @ts-expect-error: n is a number, not a string
  handler: (args: { n: string }) => args.n,
});
