/**
 * `defineTool`: a tool declared once (name, description, parameters as a zod 4 schema or a plain
 * JSON Schema, handler) gives the OpenAI-style tool the model sees, the normalised spec the
 * decoder and the call mapping use, an argument check, and a handler typed from the schema.
 */
import type { z } from "zod";
import type { CallIssue } from "../calls/map-heads";
import { type FunctionSchema, normalizeTools, ToolSchemaError, type ToolSpec } from "../prompt/tools";
import {
  type ArgsCheck,
  checkJsonArgs,
  type JsonObjectSchema,
  type JsonSchemaArgs,
} from "./json-schema-args";
import { isZodSchema, type ZodSchemaLike, zodToParameters } from "./zod-parameters";

/** Marks tool definitions across module copies (the worker imports the app's module afresh). */
export const TOOL_DEFINITION = Symbol.for("rtool.toolDefinition");

/** What a handler gets besides its arguments. */
export interface ToolContext {
  /** Aborts when the call times out or its caller gives up; long handlers should honour it. */
  signal: AbortSignal;
  /** The tool's name. */
  tool: string;
  /** Id of this execution, as in the audit log. */
  callId: string;
}

/** A tool's handler: typed arguments in, any result (or a promise of one) out. */
export type ToolHandler<Args, Result> = (args: Args, context: ToolContext) => Result | Promise<Result>;

/**
 * A declared tool as sent to the model and the server: the contract's `DeclaredTool` with its
 * parameters always present (a distinct name, since it is narrower).
 */
export interface DeclaredTool {
  type: "function";
  function: FunctionSchema & { parameters: JsonObjectSchema };
}

/** A declared tool. `Args` is what the handler receives (after zod's parsing, defaults applied). */
export interface ToolDefinition<Args = Record<string, unknown>, Result = unknown> {
  readonly [TOOL_DEFINITION]: true;
  readonly name: string;
  readonly description?: string;
  /** The tool as the prompt renders it. */
  readonly tool: DeclaredTool;
  /** The normalised tool (parameter order, types, enums, required). */
  readonly spec: ToolSpec;
  /** The zod schema, when the parameters were given as one. */
  readonly zod: ZodSchemaLike | null;
  readonly handler: ToolHandler<Args, Result>;
  /** Checks (and with zod, parses) arguments for the handler. */
  parseArgs(args: unknown): ArgsCheck<Args>;
}

/** What the implementation of {@link defineTool} receives, before the overloads' types. */
interface DefineToolOptions {
  name: string;
  description?: string;
  parameters: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: checked by the overloads.
  handler: ToolHandler<any, unknown>;
}

/** Options of {@link defineTool} with zod parameters. */
export interface ZodToolOptions<S extends z.ZodObject, Result> {
  name: string;
  description?: string;
  parameters: S;
  handler: ToolHandler<z.output<S>, Result>;
}

/** Options of {@link defineTool} with JSON Schema parameters. */
export interface JsonToolOptions<S extends JsonObjectSchema, Result> {
  name: string;
  description?: string;
  parameters: S;
  handler: ToolHandler<JsonSchemaArgs<S>, Result>;
}

/**
 * Declares a tool. Parameter order is the schema's key order (`argI` is the I-th key); at most
 * 6 parameters of type string, number, integer, boolean or enum.
 *
 * @throws {ToolSchemaError} naming the field when the heads cannot serve the schema.
 * @example
 * ```ts
 * const move = defineTool({
 *   name: "move",
 *   description: "Move the ship one step.",
 *   parameters: z.object({ direction: z.enum(["up", "down", "left", "right"]) }),
 *   handler: ({ direction }) => ship.move(direction), // direction: "up" | "down" | "left" | "right"
 * });
 * const fire = defineTool({
 *   name: "fire",
 *   parameters: { type: "object", properties: { power: { type: "integer" } }, required: [] },
 *   handler: ({ power }) => ship.fire(power ?? 1), // power: number | undefined
 * });
 * ```
 */
export function defineTool<S extends z.ZodObject, Result>(
  options: ZodToolOptions<S, Result>,
): ToolDefinition<z.output<S>, Result>;
export function defineTool<const S extends JsonObjectSchema, Result>(
  options: JsonToolOptions<S, Result>,
): ToolDefinition<JsonSchemaArgs<S>, Result>;
// biome-ignore lint/suspicious/noExplicitAny: the overloads above carry the types.
export function defineTool(options: DefineToolOptions): ToolDefinition<any, unknown> {
  const zod = isZodSchema(options.parameters) ? options.parameters : null;
  const where = `defineTool(${JSON.stringify(options.name)})`;
  const parameters = zod
    ? zodToParameters(zod, `${where}.parameters`)
    : (options.parameters as JsonObjectSchema);
  const fn: DeclaredTool["function"] =
    options.description !== undefined
      ? { name: options.name, description: options.description, parameters }
      : { name: options.name, parameters };
  const tool: DeclaredTool = { type: "function", function: fn };
  let spec: ToolSpec;
  try {
    [spec] = normalizeTools([tool]);
  } catch (error) {
    // normalizeTools names fields of a tool list; here there is one tool, named by the caller.
    if (error instanceof ToolSchemaError) {
      throw new ToolSchemaError(error.path.replace(/^tools\[0\](\.function)?/, where), error.reason);
    }
    throw error;
  }
  if (typeof options.handler !== "function") {
    throw new TypeError(`defineTool("${options.name}"): handler must be a function`);
  }
  const parseArgs = zod
    ? (args: unknown) => parseWithZod(zod, args)
    : (args: unknown) => checkJsonArgs(spec, args);
  return {
    [TOOL_DEFINITION]: true,
    name: spec.name,
    ...(spec.description !== undefined ? { description: spec.description } : {}),
    tool,
    spec,
    zod,
    handler: options.handler,
    parseArgs,
  };
}

/** True for a value made by {@link defineTool} (in this or another copy of the module). */
// biome-ignore lint/suspicious/noExplicitAny: a found tool may take any arguments.
export function isToolDefinition(value: unknown): value is ToolDefinition<any, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[TOOL_DEFINITION] === true
  );
}

function parseWithZod(schema: ZodSchemaLike, args: unknown): ArgsCheck<Record<string, unknown>> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
  const issues: CallIssue[] = parsed.error.issues.map((issue) => ({
    path: ["args", ...issue.path.map(String)].join("."),
    message: issue.message,
  }));
  return { ok: false, issues };
}
