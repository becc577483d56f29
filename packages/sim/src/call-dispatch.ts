/**
 * Turns a raw call into a handler invocation: finds the tool, checks every argument against the
 * tool's JSON Schema (known name, required present, type, enum) without coercing anything, runs
 * the world's handler and, when the world accepts, records the call in the reference's
 * `name(arg1,arg2)` history form.
 */
import { type ApplyResult, type FunctionTool, type Rejection, reject, type ToolCall } from "./world";

/** Arguments after validation: absent (null/undefined) ones are dropped, the rest are typed. */
export type ValidArgs = Record<string, string | number | boolean>;

/** A world rule for one tool, given validated arguments. */
export type ToolHandler = (args: ValidArgs) => ApplyResult;

/**
 * Checks a call against its tool's schema. Returns the validated arguments, or a rejection
 * naming the first offending field.
 *
 * @example
 * validateWorldCall(tools, { function: "grip", args: { force: "50" } });
 * // { ok: false, code: "bad_type", field: "force", reason: "grip.force must be a number, got string" }
 */
export function validateWorldCall(
  tools: readonly FunctionTool[],
  call: ToolCall,
): { ok: true; tool: FunctionTool; args: ValidArgs } | Rejection {
  const name = call?.function;
  const tool = tools.find((candidate) => candidate.function.name === name);
  if (!tool) {
    const known = tools.map((candidate) => candidate.function.name).join(", ");
    return reject(
      "unknown_tool",
      `unknown tool ${JSON.stringify(name)}; this world has ${known}`,
      "function",
    );
  }
  const rawArgs = call.args ?? {};
  if (typeof rawArgs !== "object" || Array.isArray(rawArgs)) {
    return reject("bad_type", `${name}: args must be an object`, "args");
  }
  const { properties, required } = tool.function.parameters;
  const args: ValidArgs = {};
  for (const [key, value] of Object.entries(rawArgs)) {
    if (!(key in properties)) {
      return reject("unknown_arg", `${name} has no parameter ${JSON.stringify(key)}`, key);
    }
    if (value === null || value === undefined) continue;
    const schema = properties[key];
    const typeError = checkType(value, schema.type);
    if (typeError) return reject("bad_type", `${name}.${key} must be ${typeError}, got ${typeof value}`, key);
    if (schema.enum && !schema.enum.includes(value as string | number | boolean)) {
      return reject(
        "bad_enum",
        `${name}.${key} must be one of ${schema.enum.join(", ")}, got ${JSON.stringify(value)}`,
        key,
      );
    }
    args[key] = value as string | number | boolean;
  }
  for (const key of required) {
    if (!(key in args)) return reject("missing_arg", `${name} needs ${key}`, key);
  }
  return { ok: true, tool, args };
}

function checkType(value: unknown, type: string): string | null {
  switch (type) {
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? null : "a finite number";
    case "integer":
      return Number.isInteger(value) ? null : "an integer";
    case "boolean":
      return typeof value === "boolean" ? null : "a boolean";
    default:
      return typeof value === "string" ? null : "a string";
  }
}

/**
 * Writes a call the way the reference's history does: the given arguments' values in declaration
 * order, joined by commas, strings unquoted, absent ones left out (as @rtool/core's
 * `formatCallForHistory` writes it, so a world's history can go straight back into a prompt).
 *
 * @example
 * formatHistoryEntry(moveTo, { x: 300, y: 150, z: 50 }); // "move_to(300,150,50)"
 */
export function formatHistoryEntry(tool: FunctionTool, args: ValidArgs): string {
  const values = Object.keys(tool.function.parameters.properties)
    .filter((key) => key in args)
    .map((key) => String(args[key]));
  return `${tool.function.name}(${values.join(",")})`;
}

/**
 * Validates a call, runs the handler of its tool and appends the call to `history` when the
 * world accepts it. Rejected calls leave the history alone.
 */
export function dispatchCall(
  tools: readonly FunctionTool[],
  handlers: Record<string, ToolHandler>,
  call: ToolCall,
  history: string[],
): ApplyResult {
  const checked = validateWorldCall(tools, call);
  if (!checked.ok) return checked;
  const handler = handlers[checked.tool.function.name];
  const result = handler(checked.args);
  if (result.ok) history.push(formatHistoryEntry(checked.tool, checked.args));
  return result;
}
