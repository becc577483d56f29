/**
 * A call as one history line, in the form rtool's prompts use: `name(arg1,arg2)` with the
 * arguments in the tool's declaration order and strings unquoted (`move(up)`, `fire(left)`).
 */
import type { FunctionTool } from "./tool-schema";
import type { CallArgs } from "./validate-call";

/**
 * @example
 * historyEntry(moveTool, { direction: "up" }); // "move(up)"
 */
export function historyEntry(tool: FunctionTool, args: CallArgs): string {
  const order = Object.keys(tool.function.parameters?.properties ?? {});
  const values = order.filter((key) => key in args).map((key) => String(args[key]));
  return `${tool.function.name}(${values.join(",")})`;
}
