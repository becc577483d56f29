/**
 * Turns a raw call into a handler invocation: finds the tool, checks every argument against the
 * tool's JSON Schema (known name, required present, type, enum) without coercing anything, runs
 * the world's handler and, when the world accepts, records the call in the reference's
 * `name(arg1,arg2)` history form.
 */
import { checkCall } from "@rtool/contract/calls";
import { type ApplyResult, type Rejection, reject, type ScenarioTool, type ToolCall } from "./world";

/** Arguments after validation: absent (null/undefined) ones are dropped, the rest are typed. */
export type ValidArgs = Record<string, string | number | boolean>;

/** A world rule for one tool, given validated arguments. */
export type WorldToolHandler = (args: ValidArgs) => ApplyResult;

/**
 * Checks a call against its tool's schema with the call contract's `checkCall` (the validator
 * the plugin and core use too). Returns the validated arguments, or a rejection naming the
 * first offending field.
 *
 * @example
 * validateWorldCall(tools, { function: "grip", args: { force: "50" } });
 * // { ok: false, code: "bad_type", field: "force", reason: "grip.force: must be a finite number" }
 */
export function validateWorldCall(
  tools: readonly ScenarioTool[],
  call: ToolCall,
): { ok: true; tool: ScenarioTool; args: ValidArgs } | Rejection {
  const checked = checkCall(tools, call?.function, call?.args);
  if (checked.ok) return { ok: true, tool: checked.tool, args: { ...checked.args } };
  const [first] = checked.issues;
  const reason = first.path.startsWith("args.")
    ? `${call.function}.${first.field}: ${first.message}`
    : first.message;
  return reject(first.code === "bad_args" ? "bad_type" : first.code, reason, first.field);
}

/**
 * Writes a call the way the reference's history does: the given arguments' values in declaration
 * order, joined by commas, strings unquoted, absent ones left out (as @rtool/core's
 * `formatCallForHistory` writes it, so a world's history can go straight back into a prompt).
 *
 * @example
 * formatHistoryEntry(moveTo, { x: 300, y: 150, z: 50 }); // "move_to(300,150,50)"
 */
export function formatHistoryEntry(tool: ScenarioTool, args: ValidArgs): string {
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
  tools: readonly ScenarioTool[],
  handlers: Record<string, WorldToolHandler>,
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
