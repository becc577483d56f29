/**
 * Tool definitions as a scene registers them: OpenAI-style function tools with a JSON Schema for
 * their parameters (the form rtool-server and the scenario files use), or the bare inner
 * `{ name, description, parameters }` object, normalised to one shape.
 */

/** Types a tool parameter may have; the multi-head decoder fills one head per parameter. */
export type ParameterType = "string" | "number" | "integer" | "boolean";

/** One parameter's JSON Schema. */
export interface ParameterSchema {
  type: ParameterType;
  description?: string;
  enum?: ReadonlyArray<string | number | boolean>;
  minimum?: number;
  maximum?: number;
}

/** The `parameters` object of a tool: an object schema with ordered properties. */
export interface ParametersSchema {
  type: "object";
  properties: Record<string, ParameterSchema>;
  required?: readonly string[];
}

/** The inner function of an OpenAI-style tool. */
export interface FunctionDefinition {
  name: string;
  description?: string;
  parameters?: ParametersSchema;
}

/** An OpenAI-style function tool, exactly as rtool-server takes it. */
export interface FunctionTool {
  type: "function";
  function: FunctionDefinition;
}

/** What `tool(def, handler)` accepts: a full function tool or its bare function definition. */
export type ToolDefinition = FunctionTool | FunctionDefinition;

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
export const MAX_PARAMETERS = 6;

/**
 * Checks a tool definition and returns it as a full OpenAI-style function tool with an explicit
 * (possibly empty) parameter object.
 *
 * @example
 * normalizeTool({ name: "flap", description: "Flap once." });
 * // { type: "function", function: { name: "flap", description: "Flap once.",
 * //   parameters: { type: "object", properties: {}, required: [] } } }
 */
export function normalizeTool(definition: ToolDefinition): FunctionTool {
  const fn: FunctionDefinition | undefined =
    "function" in definition && (definition as FunctionTool).type === "function"
      ? (definition as FunctionTool).function
      : (definition as FunctionDefinition);
  if (!fn || typeof fn !== "object") throw new ToolDefinitionError(null, "function", "missing");
  const name = fn.name;
  if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
    throw new ToolDefinitionError(typeof name === "string" ? name : null, "name", "must be an identifier");
  }
  const parameters = fn.parameters ?? { type: "object", properties: {}, required: [] };
  if (parameters.type !== "object" || typeof parameters.properties !== "object" || !parameters.properties) {
    throw new ToolDefinitionError(name, "parameters", 'must be {type: "object", properties: {...}}');
  }
  const keys = Object.keys(parameters.properties);
  if (keys.length > MAX_PARAMETERS) {
    throw new ToolDefinitionError(name, "parameters.properties", `at most ${MAX_PARAMETERS} parameters`);
  }
  for (const key of keys) {
    const schema = parameters.properties[key];
    if (!schema || !PARAMETER_TYPES.has(schema.type)) {
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
  const tool: FunctionDefinition = {
    name,
    ...(fn.description !== undefined ? { description: fn.description } : {}),
    parameters: { type: "object", properties: { ...parameters.properties }, required },
  };
  return { type: "function", function: tool };
}
