/**
 * Checks a call against the registered tool's schema before any handler runs: the server has
 * its own checks, but a game must never act on a call its own schema would refuse (a server
 * from another version, a different tool set, a proxy that rewrote the body).
 */
import type { FunctionTool, ParameterSchema } from "./tool-schema";

/** Arguments that passed validation: given values only, typed by the schema. */
export type CallArgs = Record<string, string | number | boolean>;

/** Why a call was refused before its handler ran. */
export type RejectionCode =
  | "unknown_tool"
  | "unknown_arg"
  | "missing_arg"
  | "bad_type"
  | "bad_enum"
  | "out_of_range"
  | "server_invalid"
  | "handler";

/** A refused call: the code, a sentence, and the argument concerned when there is one. */
export interface CallRejection {
  ok: false;
  code: RejectionCode;
  reason: string;
  field?: string;
}

/** A call that passed validation. */
export interface ValidCall {
  ok: true;
  function: string;
  args: CallArgs;
}

const refuse = (code: RejectionCode, reason: string, field?: string): CallRejection =>
  field === undefined ? { ok: false, code, reason } : { ok: false, code, reason, field };

function checkValue(key: string, schema: ParameterSchema, value: unknown): CallRejection | null {
  const shown = JSON.stringify(value);
  switch (schema.type) {
    case "string":
      if (typeof value !== "string") return refuse("bad_type", `${key} must be a string, got ${shown}`, key);
      break;
    case "boolean":
      if (typeof value !== "boolean")
        return refuse("bad_type", `${key} must be a boolean, got ${shown}`, key);
      break;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) {
        return refuse("bad_type", `${key} must be a number, got ${shown}`, key);
      }
      break;
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) {
        return refuse("bad_type", `${key} must be an integer, got ${shown}`, key);
      }
      break;
  }
  if (schema.enum && !schema.enum.includes(value as string | number | boolean)) {
    return refuse("bad_enum", `${key} must be one of ${schema.enum.join(", ")}, got ${shown}`, key);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) {
      return refuse("out_of_range", `${key} must be >= ${schema.minimum}, got ${value}`, key);
    }
    if (schema.maximum !== undefined && value > schema.maximum) {
      return refuse("out_of_range", `${key} must be <= ${schema.maximum}, got ${value}`, key);
    }
  }
  return null;
}

/**
 * Validates `args` for `functionName` against the registered tools. `null` and `undefined`
 * values mean "not given" and are dropped; nothing is coerced (`"50"` is not a number).
 *
 * @example
 * validateCall(tools, "move", { direction: "up" }); // { ok: true, function: "move", args: { direction: "up" } }
 * validateCall(tools, "move", { direction: "north" }); // { ok: false, code: "bad_enum", field: "direction", ... }
 */
export function validateCall(
  tools: ReadonlyMap<string, FunctionTool>,
  functionName: string | null | undefined,
  args: Record<string, unknown> | null | undefined,
): ValidCall | CallRejection {
  if (typeof functionName !== "string" || functionName.length === 0) {
    return refuse("unknown_tool", "the reply names no function");
  }
  const tool = tools.get(functionName);
  if (!tool) {
    return refuse("unknown_tool", `${JSON.stringify(functionName)} is not a registered tool`);
  }
  const properties = tool.function.parameters?.properties ?? {};
  const required = tool.function.parameters?.required ?? [];
  const given: CallArgs = {};
  for (const [key, value] of Object.entries(args ?? {})) {
    if (value === null || value === undefined) continue;
    const schema = properties[key];
    if (!schema) return refuse("unknown_arg", `${functionName} has no parameter ${JSON.stringify(key)}`, key);
    const problem = checkValue(key, schema, value);
    if (problem) return problem;
    given[key] = value as string | number | boolean;
  }
  for (const key of required) {
    if (!(key in given)) return refuse("missing_arg", `${functionName} needs ${key}`, key);
  }
  return { ok: true, function: functionName, args: given };
}
