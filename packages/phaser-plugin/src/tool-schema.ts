/**
 * Tool definitions as a scene registers them: OpenAI-style function tools with a JSON Schema for
 * their parameters (the form rtool-server and the scenario files use), or the bare inner
 * `{ name, description, parameters }` object, normalised to one shape.
 */
import {
  type FunctionDefinition,
  type FunctionTool,
  MAX_TOOL_PARAMETERS,
  type ParameterSchema,
  type ParametersSchema,
} from "@rtool/contract/calls";

/** The tool shapes are the call contract's (one definition for the server, the client and the plugin). */
export type {
  FunctionDefinition,
  FunctionTool,
  ParameterSchema,
  ParametersSchema,
  ParameterType,
} from "@rtool/contract/calls";

/** What `tool(def, handler)` accepts: a full function tool or its bare function definition. */
export type AgentToolDefinition = FunctionTool | FunctionDefinition;

/** A tool after {@link normalizeTool}: the contract's function tool with a complete parameter object. */
export interface NormalizedTool extends FunctionTool {
  function: FunctionDefinition & {
    parameters: ParametersSchema & { properties: Record<string, ParameterSchema>; required: string[] };
  };
}

/** Thrown when a tool definition cannot be served (bad name, unsupported parameter type, ...). */
export class ToolDefinitionError extends Error {
  /** The tool's name, when it has one. */
  readonly tool: string | null;
  /** The offending field, e.g. `parameters.properties.speed.type`. */
  readonly field: string;
  constructor(tool: string | null, field: string, message: string) {
    super(`tool ${tool === null ? "(unnamed)" : JSON.stringify(tool)}: ${field}: ${message}`);
    this.name = "ToolDefinitionError";
    this.tool = tool;
    this.field = field;
  }
}

const PARAMETER_TYPES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean"]);
const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** The largest number of parameters one tool may have (the decoder has six argument heads). */
export { MAX_TOOL_PARAMETERS as MAX_PARAMETERS };

/**
 * Checks a tool definition and returns it as a full OpenAI-style function tool with an explicit
 * (possibly empty) parameter object.
 *
 * @example
 * normalizeTool({ name: "flap", description: "Flap once." });
 * // { type: "function", function: { name: "flap", description: "Flap once.",
 * //   parameters: { type: "object", properties: {}, required: [] } } }
 */
export function normalizeTool(definition: AgentToolDefinition): NormalizedTool {
  const fn: FunctionDefinition | undefined =
    "function" in definition && (definition as FunctionTool).type === "function"
      ? (definition as FunctionTool).function
      : (definition as FunctionDefinition);
  if (!fn || typeof fn !== "object") throw new ToolDefinitionError(null, "function", "missing");
  const name = fn.name;
  if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
    throw new ToolDefinitionError(typeof name === "string" ? name : null, "name", "must be an identifier");
  }
  const parameters: ParametersSchema = fn.parameters ?? { type: "object", properties: {}, required: [] };
  if (parameters.type !== "object" || typeof parameters.properties !== "object" || !parameters.properties) {
    throw new ToolDefinitionError(name, "parameters", 'must be {type: "object", properties: {...}}');
  }
  const keys = Object.keys(parameters.properties);
  if (keys.length > MAX_TOOL_PARAMETERS) {
    throw new ToolDefinitionError(name, "parameters.properties", `at most ${MAX_TOOL_PARAMETERS} parameters`);
  }
  for (const key of keys) {
    const schema = parameters.properties[key];
    if (!schema || typeof schema.type !== "string" || !PARAMETER_TYPES.has(schema.type)) {
      throw new ToolDefinitionError(
        name,
        `parameters.properties.${key}.type`,
        "must be string, number, integer or boolean",
      );
    }
  }
  const required = [...(parameters.required ?? [])];
  for (const key of required) {
    if (!keys.includes(key)) {
      throw new ToolDefinitionError(
        name,
        "parameters.required",
        `names ${JSON.stringify(key)}, not a property`,
      );
    }
  }
  // The OpenAI key order (name, description, parameters), the order models read tools in.
  const tool: NormalizedTool["function"] = {
    name,
    ...(fn.description !== undefined ? { description: fn.description } : {}),
    parameters: { type: "object", properties: { ...parameters.properties }, required },
  };
  return { type: "function", function: tool };
}
