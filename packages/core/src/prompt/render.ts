/**
 * Rendering of the pieces the prompt formats share: tool lines, history and environment,
 * byte for byte as the reference server (Python, `json.dumps(..., ensure_ascii=False)`)
 * writes them.
 */
import { toPythonJson } from "./python-json";
import { isToolSpec, type ToolInput, type ToolSpec } from "./tools";

/** History entries the reference keeps in the prompt (the most recent ones). */
export const MAX_HISTORY = 6;

/**
 * One tool as the single JSON line the prompt lists it on (also the prefix-cache key part).
 * A tool given in the bare `{name, parameters}` form is wrapped as
 * `{"type": "function", "function": {...}}`, the form the reference models were trained on.
 *
 * @example
 * renderToolJson({ type: "function", function: { name: "pass" } });
 * // '{"type": "function", "function": {"name": "pass"}}'
 */
export function renderToolJson(tool: ToolSpec | ToolInput): string {
  const original: object = isToolSpec(tool) ? tool.original : tool;
  const wrapped = "function" in original ? original : { type: "function", function: original };
  return toPythonJson(wrapped);
}

/** All tools, one JSON line each, joined by newlines (the `{tools}` slot). */
export function renderToolsBlock(tools: readonly (ToolSpec | ToolInput)[]): string {
  return tools.map(renderToolJson).join("\n");
}

/** The `{hist}` slot: the last {@link MAX_HISTORY} entries joined by `", "` (empty when none). */
export function renderHistory(history: readonly string[] | undefined): string {
  return (history ?? []).slice(-MAX_HISTORY).join(", ");
}

/** The environment as a JSON list, e.g. `["hp: 3", "enemy: left"]`; `[]` when none. */
export function renderEnvironment(environment: readonly string[] | undefined): string {
  return toPythonJson(environment ?? []);
}
