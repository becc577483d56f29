/**
 * Plain JSON Schema parameters: the argument type a handler gets (computed from the schema's
 * literal type) and the run-time check of arguments against a normalised {@link ToolSpec}.
 */
import { checkArgs, type ParameterSchema, type ParametersSchema } from "@rtool/contract/calls";
import type { CallIssue } from "../calls/map-heads";
import type { ToolSpec } from "../prompt/tools";

/** A JSON Schema property as the heads support it (the call contract's `ParameterSchema`). */
export type JsonParameterSchema = ParameterSchema;

/** An object schema with properties in parameter order, `argI` the I-th key (the call contract's `ParametersSchema`). */
export type JsonObjectSchema = ParametersSchema;

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
 * Checks arguments against a normalised tool with the call contract's `checkArgs` (the one call
 * validator the plugin and the worlds use too): known names only, required ones present, each
 * value of its parameter's type (integers whole, enums one of their values). `null` counts as
 * absent, as the `<|null|>` head does.
 *
 * @example
 * checkJsonArgs(spec, { direction: "up" }); // { ok: true, value: { direction: "up" } }
 *
 * The value has no prototype, so any parameter name (`__proto__` included) is a plain key.
 */
export function checkJsonArgs(spec: ToolSpec, args: unknown): ArgsCheck<Record<string, unknown>> {
  const checked = checkArgs(spec.name, spec.parameters, args);
  return checked.ok
    ? { ok: true, value: checked.args }
    : { ok: false, issues: checked.issues.map(({ path, message }) => ({ path, message })) };
}
