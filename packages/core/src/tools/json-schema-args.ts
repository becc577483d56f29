/**
 * Plain JSON Schema parameters: the argument type a handler gets (computed from the schema's
 * literal type) and the run-time check of arguments against a normalised {@link ToolSpec}.
 */
import type { CallIssue } from "../calls/map-heads";
import type { ToolParameter, ToolSpec } from "../prompt/tools";

/** A JSON Schema property as the heads support it. */
export interface JsonParameterSchema {
  type?: string | readonly string[];
  description?: string;
  enum?: readonly (string | number)[];
  [keyword: string]: unknown;
}

/** An object schema with properties in parameter order (`argI` is the I-th key). */
export interface JsonObjectSchema {
  type: "object";
  properties?: Readonly<Record<string, JsonParameterSchema>>;
  required?: readonly string[];
  [keyword: string]: unknown;
}

/** The TypeScript type of a JSON Schema scalar type name. */
export type ScalarOf<T> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : unknown;

/** The TypeScript type of one JSON Schema property: its enum's literals, else its type. */
export type JsonValueOf<P> = P extends { enum: readonly (infer E)[] }
  ? E
  : P extends { type: infer T }
    ? T extends readonly (infer U)[]
      ? ScalarOf<U>
      : ScalarOf<T>
    : unknown;

/** The names a JSON object schema lists as required. */
export type RequiredOf<S> = S extends { required: readonly (infer R)[] } ? R : never;
/** An intersection shown as one object type. */
export type Flatten<T> = { [K in keyof T]: T[K] } & {};

/**
 * Handler arguments of a JSON Schema tool: required properties as required keys, the others
 * optional, each typed by {@link JsonValueOf}.
 *
 * @example
 * type Args = JsonSchemaArgs<{ type: "object"; properties: { d: { type: "string"; enum: ["up", "down"] } }; required: ["d"] }>;
 * // { d: "up" | "down" }
 */
export type JsonSchemaArgs<S> = S extends { properties: infer P }
  ? Flatten<
      { -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: JsonValueOf<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: JsonValueOf<P[K]>;
      }
    >
  : Record<string, never>;

/** Arguments checked against a tool's parameters, or every problem found. */
export type ArgsCheck<T> = { ok: true; value: T } | { ok: false; issues: CallIssue[] };

/**
 * Checks arguments against a normalised tool: known names only, required ones present, each
 * value of its parameter's type (integers whole, enums one of their values). `null` counts as
 * absent, as the `<|null|>` head does.
 *
 * @example
 * checkJsonArgs(spec, { direction: "up" }); // { ok: true, value: { direction: "up" } }
 *
 * The value has no prototype, so any parameter name (`__proto__` included) is a plain key.
 */
export function checkJsonArgs(spec: ToolSpec, args: unknown): ArgsCheck<Record<string, unknown>> {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return { ok: false, issues: [{ path: "args", message: "must be an object" }] };
  }
  const given = args as Record<string, unknown>;
  const issues: CallIssue[] = [];
  const known = new Set(spec.parameters.map((p) => p.name));
  for (const name of Object.keys(given)) {
    if (!known.has(name))
      issues.push({ path: `args.${name}`, message: `${spec.name} has no parameter "${name}"` });
  }
  // No prototype, as in calls/map-heads.ts: a parameter named `__proto__` is stored as a key,
  // not taken as the object's prototype, and `constructor` is absent until given.
  const value: Record<string, unknown> = Object.create(null);
  for (const parameter of spec.parameters) {
    const path = `args.${parameter.name}`;
    // Own keys only: an inherited `constructor` or `__proto__` of `{}` is not an argument.
    const item = Object.hasOwn(given, parameter.name) ? given[parameter.name] : undefined;
    if (item === undefined || item === null) {
      if (parameter.required)
        issues.push({ path, message: `missing required parameter "${parameter.name}"` });
      continue;
    }
    const problem = valueProblem(parameter, item);
    if (problem) issues.push({ path, message: problem });
    else value[parameter.name] = item;
  }
  return issues.length === 0 ? { ok: true, value } : { ok: false, issues };
}

function valueProblem(parameter: ToolParameter, value: unknown): string | null {
  if (parameter.enum && !parameter.enum.includes(value as string | number)) {
    return `${JSON.stringify(value)} is not one of ${parameter.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  switch (parameter.type) {
    case "string":
      return typeof value === "string" ? null : `must be a string, got ${typeof value}`;
    case "boolean":
      return typeof value === "boolean" ? null : `must be a boolean, got ${typeof value}`;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? null : "must be a finite number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value) ? null : "must be an integer";
  }
}
