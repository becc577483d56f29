/**
 * zod 4 object schemas as tool parameters. zod's own JSON Schema output (`z.toJSONSchema`, input
 * side, so defaulted fields are optional) is reduced to the keys the prompt carries, in the
 * order the reference tool sets write them (`type`, `description`, `enum`), so a zod tool renders
 * byte for byte like the equivalent hand-written JSON Schema tool. Bounds, patterns and defaults
 * stay out of the prompt and are enforced by zod when the executor parses the arguments.
 */
import { z } from "zod";
import { ToolSchemaError } from "../prompt/tools";
import type { JsonObjectSchema, JsonParameterSchema } from "./json-schema-args";

/** What the registry needs of a zod schema (any zod 4 schema has these). */
export interface ZodSchemaLike {
  safeParse(data: unknown): { success: true; data: unknown } | { success: false; error: ZodErrorLike };
  readonly _zod: unknown;
}

/** What the executor reads of a zod error. */
export interface ZodErrorLike {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

/** Keys that describe structure the heads cannot carry; kept so `normalizeTools` names them. */
const STRUCTURAL_KEYS = ["anyOf", "oneOf", "allOf", "$ref", "not", "items", "properties", "prefixItems"];

/** True for a zod 4 schema (duck-typed, so a second copy of zod in an app still counts). */
export function isZodSchema(value: unknown): value is ZodSchemaLike {
  return (
    typeof value === "object" &&
    value !== null &&
    "_zod" in value &&
    typeof (value as { safeParse?: unknown }).safeParse === "function"
  );
}

/**
 * The JSON Schema `parameters` of a zod object schema, in prompt form.
 *
 * @throws {ToolSchemaError} when the schema is not an object or zod cannot express it as JSON Schema.
 * @example
 * zodToParameters(z.object({ direction: z.enum(["up", "down"]).describe("Where to.") }), "tools[0].function.parameters");
 * // { type: "object", properties: { direction: { type: "string", description: "Where to.", enum: ["up", "down"] } }, required: ["direction"] }
 */
export function zodToParameters(schema: ZodSchemaLike, path: string): JsonObjectSchema {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema as unknown as z.ZodType, {
      io: "input",
      unrepresentable: "throw",
    }) as Record<string, unknown>;
  } catch (error) {
    throw new ToolSchemaError(
      path,
      `zod cannot express this schema as JSON Schema: ${(error as Error).message}`,
    );
  }
  if (json.type !== "object" || typeof json.properties !== "object" || json.properties === null) {
    throw new ToolSchemaError(path, "must be a zod object schema (z.object({...}))");
  }
  const properties: Record<string, JsonParameterSchema> = {};
  for (const [name, property] of Object.entries(json.properties as Record<string, Record<string, unknown>>)) {
    properties[name] = promptProperty(property);
  }
  const required = Array.isArray(json.required) ? (json.required as string[]) : [];
  return { type: "object", properties, required };
}

function promptProperty(property: Record<string, unknown>): JsonParameterSchema {
  const out: JsonParameterSchema = {};
  if (property.type !== undefined) out.type = property.type as JsonParameterSchema["type"];
  if (typeof property.description === "string") out.description = property.description;
  if (Array.isArray(property.enum)) out.enum = property.enum as (string | number)[];
  else if ("const" in property) out.enum = [property.const as string | number];
  for (const key of STRUCTURAL_KEYS) if (key in property) out[key] = property[key];
  return out;
}
