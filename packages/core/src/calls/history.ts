import type { ToolSpec } from "../prompt/tools";

/** What {@link formatCallForHistory} needs of a call. */
export interface HistoryCall {
  function: string;
  args: Record<string, unknown>;
}

/**
 * A call in the reference's history form `name(v1,v2)`: the given values in parameter order,
 * joined by commas without spaces or quotes (as in `move_to(300,150,50)`). Pass the tool to
 * order the values by its declaration; otherwise the args' own key order is used.
 *
 * @example
 * formatCallForHistory({ function: "move_to", args: { x: 300, y: 150, z: 50 } }); // "move_to(300,150,50)"
 */
export function formatCallForHistory(call: HistoryCall, tool?: ToolSpec): string {
  const names = tool ? tool.parameters.map((p) => p.name) : Object.keys(call.args);
  const values = names
    .filter((name) => call.args[name] !== undefined && call.args[name] !== null)
    .map((name) => String(call.args[name]));
  return `${call.function}(${values.join(",")})`;
}
