/**
 * Rendering of the pieces the prompt formats share: tool lines, history and environment,
 * byte for byte as the reference server (Python, `json.dumps(..., ensure_ascii=False)`)
 * writes them.
 */
import { toPythonJson } from "./python-json";
import { isObject, isToolSpec, type ToolInput, type ToolSpec } from "./tools";

/** History entries the reference keeps in the prompt (the most recent ones). */
export const MAX_HISTORY = 6;

/**
 * One tool as the single JSON line the prompt lists it on (also the prefix-cache key part).
 * A tool given in the bare `{name, parameters}` form is wrapped as
 * `{"type": "function", "function": {...}}`, the form the reference models were trained on.
 *
 * The fields every tool has are written in the OpenAI order (`type, function`; `name,
 * description, parameters`; `type, properties, required`; per property `type, description,
 * enum`), other fields after them as given. JSON key order means nothing, but a model reads the
 * line as text: a client that builds `{name, parameters, description}` would otherwise show the
 * model a prompt it never saw in training (and miss the prefix cache of one that does not).
 * Tools already in that order, as the scenario files and OpenAI-style clients write them, render
 * byte for byte as the reference does; the order of the properties themselves (the argument
 * order) is always kept.
 *
 * @example
 * renderToolJson({ type: "function", function: { name: "pass" } });
 * // '{"type": "function", "function": {"name": "pass"}}'
 * renderToolJson({ function: { parameters: { properties: {}, type: "object" }, name: "pass" }, type: "function" });
 * // '{"type": "function", "function": {"name": "pass", "parameters": {"type": "object", "properties": {}}}}'
 */
export function renderToolJson(tool: ToolSpec | ToolInput): string {
  const original: object = isToolSpec(tool) ? tool.original : tool;
  const wrapped = "function" in original ? original : { type: "function", function: original };
  return toPythonJson(canonicalTool(wrapped));
}

const TOOL_KEYS = ["type", "function"];
const FUNCTION_KEYS = ["name", "description", "parameters"];
const PARAMETERS_KEYS = ["type", "properties", "required"];
const PROPERTY_KEYS = ["type", "description", "enum"];

/** `value` with `first` keys (those present) leading, the rest after in their own order. */
function withKeysFirst(value: Record<string, unknown>, first: readonly string[]): Record<string, unknown> {
  // No prototype: a property named `__proto__` must be rendered like any other.
  const out: Record<string, unknown> = Object.create(null);
  for (const key of first) if (Object.hasOwn(value, key)) out[key] = value[key];
  for (const key of Object.keys(value)) if (!Object.hasOwn(out, key)) out[key] = value[key];
  return out;
}

function canonicalTool(tool: object): Record<string, unknown> {
  const out = withKeysFirst(tool as Record<string, unknown>, TOOL_KEYS);
  if (!isObject(out.function)) return out;
  const fn = withKeysFirst(out.function, FUNCTION_KEYS);
  if (isObject(fn.parameters)) {
    const parameters = withKeysFirst(fn.parameters, PARAMETERS_KEYS);
    if (isObject(parameters.properties)) {
      const properties: Record<string, unknown> = Object.create(null);
      for (const [name, schema] of Object.entries(parameters.properties)) {
        properties[name] = isObject(schema) ? withKeysFirst(schema, PROPERTY_KEYS) : schema;
      }
      parameters.properties = properties;
    }
    fn.parameters = parameters;
  }
  out.function = fn;
  return out;
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
