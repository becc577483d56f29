/**
 * Tool normalisation: OpenAI-style function tools in, an ordered, typed {@link ToolSpec} out.
 *
 * Positional heads make parameter order part of the contract (`argI` is the I-th key of
 * `parameters.properties`), so the declaration order is kept, and every schema feature the
 * heads cannot express is refused here with the path of the offending field instead of
 * failing later inside the decoder.
 */

import { MAX_TOOL_PARAMETERS, type ParameterType } from "@rtool/contract/calls";

/** Scalar types a head can carry, and the most parameters a tool may have (the call contract's). */
export { MAX_TOOL_PARAMETERS, type ParameterType };

/** One parameter of a tool, in `properties` declaration order. */
export interface ToolParameter {
  name: string;
  type: ParameterType;
  /** Allowed values; strings for a string parameter, numbers for number/integer. */
  enum?: (string | number)[];
  description?: string;
  /** JSON Schema's `format` keyword as given (`date`, `time`): the decoder reads dates and times the order says into it. */
  format?: string;
  required: boolean;
}

/** A validated tool: what the prompt, the constraints and the call mapping work from. */
export interface ToolSpec {
  name: string;
  description?: string;
  parameters: ToolParameter[];
  /** The tool exactly as given (wrapped or bare form), for rendering into the prompt. */
  original: Record<string, unknown>;
}

/** A function schema in the bare form `{name, description?, parameters?}`. */
export interface FunctionSchema {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

/** An OpenAI-style tool `{type: "function", function: {...}}`, or its bare function form. */
export type ToolInput = { type?: string; function: FunctionSchema } | FunctionSchema;

/** Names the model can spell as one head value: OpenAI's rule for function names. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Parameter names become object keys and error paths; no spaces or markup. */
const PARAMETER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const SUPPORTED_TYPES: readonly ParameterType[] = ["string", "number", "integer", "boolean"];
const SUPPORTED_TYPES_TEXT = 'one of "string", "number", "integer", "boolean" (optionally with an enum)';

/** A tool definition the heads cannot serve; `path` names the field, e.g. `tools[2].function.name`. */
export class ToolSchemaError extends Error {
  override readonly name = "ToolSchemaError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/**
 * Validates tools and returns them as {@link ToolSpec}s, parameters in declaration order.
 *
 * @throws {ToolSchemaError} for an empty list, duplicate or invalid names, more than 6
 *   parameters, a non-object `parameters` schema, unsupported property types (arrays,
 *   objects, anyOf...), bad enums, or `required` naming an unknown property.
 * @example
 * const [move] = normalizeTools([{ type: "function", function: { name: "move",
 *   parameters: { type: "object", properties: { direction: { type: "string", enum: ["up", "down"] } },
 *   required: ["direction"] } } }]);
 * move.parameters[0]; // { name: "direction", type: "string", enum: ["up", "down"], required: true }
 */
export function normalizeTools(tools: readonly unknown[]): ToolSpec[] {
  if (!Array.isArray(tools)) throw new ToolSchemaError("tools", "must be an array of function tools");
  if (tools.length === 0) throw new ToolSchemaError("tools", "must contain at least one tool");
  const seen = new Map<string, number>();
  return tools.map((tool, index) => {
    const spec = normalizeTool(tool, `tools[${index}]`);
    const first = seen.get(spec.name);
    if (first !== undefined) {
      throw new ToolSchemaError(
        `tools[${index}]`,
        `duplicate tool name "${spec.name}" (also tools[${first}])`,
      );
    }
    seen.set(spec.name, index);
    return spec;
  });
}

/** True for an already normalised tool, so builders accept either form. */
export function isToolSpec(tool: unknown): tool is ToolSpec {
  return isObject(tool) && Array.isArray(tool.parameters) && isObject(tool.original);
}

/** Normalises raw tools, passing {@link ToolSpec}s (already validated) through unchanged. */
export function toToolSpecs(tools: readonly (ToolInput | ToolSpec)[] | readonly unknown[]): ToolSpec[] {
  if (Array.isArray(tools) && tools.length > 0 && tools.every(isToolSpec)) return [...tools];
  return normalizeTools(tools);
}

/** Largest parameter count over the tools: the number of arg heads a request needs. */
export function maxParameterCount(tools: readonly ToolSpec[]): number {
  return tools.reduce((max, tool) => Math.max(max, tool.parameters.length), 0);
}

function normalizeTool(tool: unknown, path: string): ToolSpec {
  if (!isObject(tool)) throw new ToolSchemaError(path, "must be an object");
  let fn: Record<string, unknown>;
  let fnPath: string;
  if ("function" in tool) {
    if (tool.type !== undefined && tool.type !== "function") {
      throw new ToolSchemaError(`${path}.type`, `must be "function", got ${describe(tool.type)}`);
    }
    if (!isObject(tool.function)) throw new ToolSchemaError(`${path}.function`, "must be an object");
    fn = tool.function;
    fnPath = `${path}.function`;
  } else {
    fn = tool;
    fnPath = path;
  }
  const name = fn.name;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw new ToolSchemaError(
      `${fnPath}.name`,
      `must be 1-64 characters of letters, digits, "_" or "-", got ${describe(name)}`,
    );
  }
  if (fn.description !== undefined && typeof fn.description !== "string") {
    throw new ToolSchemaError(`${fnPath}.description`, "must be a string");
  }
  const parameters = normalizeParameters(fn.parameters, `${fnPath}.parameters`);
  const spec: ToolSpec = { name, parameters, original: tool };
  if (typeof fn.description === "string") spec.description = fn.description;
  return spec;
}

function normalizeParameters(schema: unknown, path: string): ToolParameter[] {
  if (schema === undefined) return [];
  if (!isObject(schema) || schema.type !== "object") {
    throw new ToolSchemaError(path, 'must be an object schema ({"type": "object", "properties": {...}})');
  }
  const properties = schema.properties ?? {};
  if (!isObject(properties)) throw new ToolSchemaError(`${path}.properties`, "must be an object");
  const names = Object.keys(properties);
  if (names.length > MAX_TOOL_PARAMETERS) {
    throw new ToolSchemaError(
      `${path}.properties`,
      `has ${names.length} parameters; at most ${MAX_TOOL_PARAMETERS} are supported (heads <arg1>..<arg6>)`,
    );
  }
  const required = normalizeRequired(schema.required, names, `${path}.required`);
  return names.map((name) =>
    normalizeProperty(name, properties[name], required.has(name), `${path}.properties.${name}`),
  );
}

function normalizeRequired(required: unknown, names: readonly string[], path: string): Set<string> {
  if (required === undefined) return new Set();
  if (!Array.isArray(required)) throw new ToolSchemaError(path, "must be an array of property names");
  required.forEach((entry, i) => {
    if (typeof entry !== "string" || !names.includes(entry)) {
      throw new ToolSchemaError(`${path}[${i}]`, `names unknown property ${describe(entry)}`);
    }
  });
  return new Set(required as string[]);
}

function normalizeProperty(name: string, schema: unknown, required: boolean, path: string): ToolParameter {
  if (!PARAMETER_NAME.test(name)) {
    throw new ToolSchemaError(
      path,
      'property names must be 1-64 characters of letters, digits, "_", "." or "-"',
    );
  }
  if (!isObject(schema)) throw new ToolSchemaError(path, "must be a schema object");
  for (const combinator of ["anyOf", "oneOf", "allOf", "$ref"]) {
    if (combinator in schema) {
      throw new ToolSchemaError(
        `${path}.${combinator}`,
        `is not supported; use a type ${SUPPORTED_TYPES_TEXT}`,
      );
    }
  }
  const enumValues = normalizeEnum(schema.enum, `${path}.enum`);
  const type = normalizeType(schema.type, enumValues, `${path}.type`);
  if (enumValues) checkEnumMatchesType(enumValues, type, `${path}.enum`);
  const parameter: ToolParameter = { name, type, required };
  if (enumValues) parameter.enum = enumValues;
  if (schema.description !== undefined) {
    if (typeof schema.description !== "string") {
      throw new ToolSchemaError(`${path}.description`, "must be a string");
    }
    parameter.description = schema.description;
  }
  if (typeof schema.format === "string") parameter.format = schema.format;
  return parameter;
}

function normalizeType(
  type: unknown,
  enumValues: (string | number)[] | undefined,
  path: string,
): ParameterType {
  // `["string", "null"]` is how JSON Schema spells an optional value; the null head covers it.
  const declared =
    Array.isArray(type) && type.length === 2 && type.includes("null") ? type.find((t) => t !== "null") : type;
  if (declared === undefined && enumValues) {
    return enumValues.every((v) => typeof v === "string") ? "string" : "number";
  }
  if (typeof declared === "string" && (SUPPORTED_TYPES as readonly string[]).includes(declared)) {
    return declared as ParameterType;
  }
  throw new ToolSchemaError(path, `unsupported type ${describe(type)}; supported: ${SUPPORTED_TYPES_TEXT}`);
}

function normalizeEnum(values: unknown, path: string): (string | number)[] | undefined {
  if (values === undefined) return undefined;
  if (!Array.isArray(values) || values.length === 0)
    throw new ToolSchemaError(path, "must be a non-empty array");
  values.forEach((value, i) => {
    // A head loses one edge space to tokenizer spacing, so such a value could never be produced.
    const badString = typeof value === "string" && (value.length === 0 || value.trim() !== value);
    const badNumber = typeof value !== "string" && (typeof value !== "number" || !Number.isFinite(value));
    if (badString || badNumber) {
      throw new ToolSchemaError(
        `${path}[${i}]`,
        `enum values must be non-empty strings without edge whitespace, or finite numbers; got ${describe(value)}`,
      );
    }
  });
  // A duplicate is a schema mistake, and constrained decoding would offer the value twice.
  const seen = new Map<string | number, number>();
  (values as (string | number)[]).forEach((value, i) => {
    const first = seen.get(value);
    if (first !== undefined) {
      throw new ToolSchemaError(
        `${path}[${i}]`,
        `duplicates ${describe(value)} (already at ${path}[${first}])`,
      );
    }
    seen.set(value, i);
  });
  return [...(values as (string | number)[])];
}

function checkEnumMatchesType(values: (string | number)[], type: ParameterType, path: string): void {
  values.forEach((value, i) => {
    const ok =
      type === "string"
        ? typeof value === "string"
        : type === "number"
          ? typeof value === "number"
          : type === "integer" && typeof value === "number" && Number.isInteger(value);
    if (!ok)
      throw new ToolSchemaError(`${path}[${i}]`, `${describe(value)} is not a valid ${type} enum value`);
  });
}

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}
