/**
 * Tools as they travel: OpenAI-style function tools whose parameters are a JSON Schema object,
 * one head per parameter. The wire schema takes any object (the server's `normalizeTools`
 * decides what the model can serve, with 422); these types say what a well-formed one holds.
 */

/** Prompt format of a function call, i.e. its route: `/v1/function_call` or `/v2/function_call`. */
export type PromptFormat = "v1" | "v2";

/** The prompt formats, in route order. */
export const PROMPT_FORMATS = ["v1", "v2"] as const satisfies readonly PromptFormat[];

/** Types a tool parameter may have; the multi-head decoder fills one head per parameter. */
export type ParameterType = "string" | "number" | "integer" | "boolean";

/** The largest number of parameters one tool may have (the decoder has six argument heads). */
export const MAX_TOOL_PARAMETERS = 6;

/** A JSON Schema property the heads can carry (string, number, integer, boolean, enum). */
export interface ParameterSchema {
  /** `string`, `number`, `integer` or `boolean` (or with `"null"` in a pair); the server refuses others with 422. */
  type?: string | readonly string[];
  description?: string;
  enum?: readonly (string | number | boolean)[];
  /** Inclusive bounds of a number or integer. */
  minimum?: number;
  maximum?: number;
  [keyword: string]: unknown;
}

/** The `parameters` of a function: an object schema whose `properties` key order is the parameter order. */
export interface ParametersSchema {
  type: "object";
  properties?: Readonly<Record<string, ParameterSchema>>;
  required?: readonly string[];
  [keyword: string]: unknown;
}

/** The function part of an OpenAI-style tool. */
export interface FunctionDefinition {
  name: string;
  description?: string;
  parameters?: ParametersSchema;
}

/** An OpenAI-style function tool, as rtool-server takes it. */
export interface FunctionTool {
  type: "function";
  function: FunctionDefinition;
}
