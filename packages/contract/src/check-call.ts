/**
 * The one call validator: checks a call's arguments against its tool's parameters (known names
 * only, required ones present, each value of its type, in its enum and within its bounds),
 * coercing nothing (`"50"` is not a number). Core's tool executor, the plugin (before any game
 * handler runs) and the simulated worlds all check calls with it, so a call means the same
 * thing everywhere. It has no dependencies, so the plugin stays light.
 */
import type { ParameterType } from "./tools";

/** What is wrong with a call. */
export type CallCheckCode =
  | "unknown_tool"
  | "bad_args"
  | "unknown_arg"
  | "missing_arg"
  | "bad_type"
  | "bad_enum"
  | "out_of_range";

/** One problem with a call: `path` is `function`, `args` or `args.<name>`; `field` the parameter or that key. */
export interface CallCheckIssue {
  code: CallCheckCode;
  field: string;
  path: string;
  message: string;
}

/** A parameter as the validator reads it: a tool's JSON Schema property, normalised. */
export interface CheckedParameter {
  name: string;
  /** Anything but the four head types is not type-checked. */
  type?: ParameterType | string;
  enum?: readonly (string | number | boolean)[];
  minimum?: number;
  maximum?: number;
  required: boolean;
}

/**
 * What the validator reads of a tool: its name and its parameters' JSON Schema (a contract
 * `FunctionTool`, a scenario file's tool, a plugin's normalised tool all fit).
 */
export interface CheckableTool {
  function: {
    name: string;
    parameters?: {
      properties?: Readonly<
        Record<
          string,
          {
            type?: string | readonly string[];
            enum?: readonly unknown[];
            minimum?: unknown;
            maximum?: unknown;
          }
        >
      >;
      required?: readonly string[];
    };
  };
}

/** The checked arguments (given ones only, `null` meaning absent), or every problem found. */
export type ArgsCheckResult =
  | { ok: true; args: Record<string, string | number | boolean> }
  | { ok: false; issues: CallCheckIssue[] };

const issue = (code: CallCheckCode, field: string, path: string, message: string): CallCheckIssue => ({
  code,
  field,
  path,
  message,
});

function typeProblem(type: CheckedParameter["type"], value: unknown): string | null {
  switch (type) {
    case "string":
      return typeof value === "string" ? null : `must be a string, got ${typeof value}`;
    case "boolean":
      return typeof value === "boolean" ? null : `must be a boolean, got ${typeof value}`;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? null : "must be a finite number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value) ? null : "must be an integer";
    default:
      return null;
  }
}

function valueIssue(parameter: CheckedParameter, value: unknown): CallCheckIssue | null {
  const { name } = parameter;
  const path = `args.${name}`;
  const wrongType = typeProblem(parameter.type, value);
  if (wrongType) return issue("bad_type", name, path, wrongType);
  if (parameter.enum && !parameter.enum.includes(value as string | number | boolean)) {
    const allowed = parameter.enum.map((v) => JSON.stringify(v)).join(", ");
    return issue("bad_enum", name, path, `${JSON.stringify(value)} is not one of ${allowed}`);
  }
  if (typeof value === "number") {
    if (parameter.minimum !== undefined && value < parameter.minimum)
      return issue("out_of_range", name, path, `must be >= ${parameter.minimum}, got ${value}`);
    if (parameter.maximum !== undefined && value > parameter.maximum)
      return issue("out_of_range", name, path, `must be <= ${parameter.maximum}, got ${value}`);
  }
  return null;
}

/**
 * Checks `args` against a tool's parameters and lists every problem. `null` and `undefined`
 * count as absent (as the `<|null|>` head does). The arguments object has no prototype, so any
 * parameter name (`__proto__` included) is a plain key, and only own keys are arguments.
 *
 * @example
 * checkArgs("move", [{ name: "direction", type: "string", enum: ["up", "down"], required: true }], { direction: "up" });
 * // { ok: true, args: { direction: "up" } }
 */
export function checkArgs(
  tool: string,
  parameters: readonly CheckedParameter[],
  args: unknown,
): ArgsCheckResult {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return { ok: false, issues: [issue("bad_args", "args", "args", "must be an object")] };
  }
  const given = args as Record<string, unknown>;
  const issues: CallCheckIssue[] = [];
  const known = new Set(parameters.map((p) => p.name));
  for (const name of Object.keys(given)) {
    if (!known.has(name))
      issues.push(issue("unknown_arg", name, `args.${name}`, `${tool} has no parameter "${name}"`));
  }
  const checked: Record<string, string | number | boolean> = Object.create(null);
  for (const parameter of parameters) {
    const value = Object.hasOwn(given, parameter.name) ? given[parameter.name] : undefined;
    if (value === undefined || value === null) {
      if (parameter.required) {
        const message = `missing required parameter "${parameter.name}"`;
        issues.push(issue("missing_arg", parameter.name, `args.${parameter.name}`, message));
      }
      continue;
    }
    const problem = valueIssue(parameter, value);
    if (problem) issues.push(problem);
    else checked[parameter.name] = value as string | number | boolean;
  }
  return issues.length === 0 ? { ok: true, args: checked } : { ok: false, issues };
}

/**
 * A tool's parameters in declaration order, from its JSON Schema (`["integer", "null"]` reads as
 * `integer`).
 */
export function parametersOf(schema: CheckableTool["function"]["parameters"]): CheckedParameter[] {
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => {
    const types = Array.isArray(property.type) ? property.type : [property.type];
    const type = types.find((t) => t !== "null") as string | undefined;
    return {
      name,
      ...(type !== undefined ? { type } : {}),
      ...(property.enum ? { enum: property.enum as readonly (string | number | boolean)[] } : {}),
      ...(typeof property.minimum === "number" ? { minimum: property.minimum } : {}),
      ...(typeof property.maximum === "number" ? { maximum: property.maximum } : {}),
      required: required.has(name),
    };
  });
}

/** A call that passed: its tool and typed arguments. */
export interface CheckedCall<T extends CheckableTool = CheckableTool> {
  ok: true;
  tool: T;
  args: Record<string, string | number | boolean>;
}

/**
 * Checks a whole call (`function` and `args`, as a reply carries them) against a tool set:
 * the function must name one of the tools, then {@link checkArgs} runs on its parameters
 * (missing `args` count as `{}`).
 *
 * @example
 * checkCall(tools, "move", { direction: "north" });
 * // { ok: false, issues: [{ code: "bad_enum", field: "direction", path: "args.direction", ... }] }
 */
export function checkCall<T extends CheckableTool>(
  tools: Iterable<T> | ReadonlyMap<string, T>,
  functionName: unknown,
  args: unknown,
): CheckedCall<T> | { ok: false; issues: CallCheckIssue[] } {
  if (typeof functionName !== "string" || functionName.length === 0) {
    return {
      ok: false,
      issues: [issue("unknown_tool", "function", "function", "the call names no function")],
    };
  }
  const list = tools instanceof Map ? [...tools.values()] : [...(tools as Iterable<T>)];
  const tool = list.find((candidate) => candidate.function.name === functionName);
  if (!tool) {
    const known = list.map((candidate) => candidate.function.name).join(", ");
    const message = `unknown tool ${JSON.stringify(functionName)}; the tools are ${known}`;
    return { ok: false, issues: [issue("unknown_tool", "function", "function", message)] };
  }
  const checked = checkArgs(functionName, parametersOf(tool.function.parameters), args ?? {});
  return checked.ok ? { ok: true, tool, args: checked.args } : checked;
}
