/**
 * Per-head constraints of a request. Called once before decoding (function unknown: each arg
 * head allows the union of the tools' parameters at its position) and again once the
 * function head has finished (each arg head held to the chosen tool's parameter; heads past
 * its parameter count may only say "not given").
 */

import type { HeadName } from "../../prompt/heads";
import {
  maxParameterCount,
  type ToolInput,
  type ToolParameter,
  type ToolSpec,
  toToolSpecs,
} from "../../prompt/tools";
import { valueFormatOf } from "../said-times";
import { booleanConstraint, enumConstraint, functionNameConstraint } from "./choice";
import { freeTextConstraint, nullOnlyConstraint } from "./free-text";
import { integerConstraint, numberConstraint } from "./numeric";
import type { HeadConstraint } from "./types";
import { unionConstraint } from "./union";

/** Constraints by head: `function`, `arg1`..`argK` (K = largest parameter count), `content`. */
export type HeadConstraints = { function: HeadConstraint } & Partial<Record<HeadName, HeadConstraint>>;

/** Options of {@link buildHeadConstraints}. */
export interface HeadConstraintOptions {
  /** Add a free-text `content` head. */
  includeContent?: boolean;
}

/**
 * The constraint of one parameter's head: enum values, number/integer/boolean grammars, or
 * free text; "not given" is allowed exactly when the parameter is optional.
 */
export function parameterConstraint(parameter: ToolParameter): HeadConstraint {
  const allowsNull = !parameter.required;
  if (parameter.enum) return enumConstraint(parameter.enum, allowsNull);
  switch (parameter.type) {
    case "number":
      return numberConstraint(allowsNull);
    case "integer":
      return integerConstraint(allowsNull);
    case "boolean":
      return booleanConstraint(allowsNull);
    case "string":
      return freeTextConstraint(allowsNull);
  }
}

/**
 * Builds the constraints of every head of a request.
 *
 * `functionName` is the finished function head's name, or null before it is known; a name
 * that is not one of the tools is treated as unknown (the call will be reported invalid).
 *
 * @example
 * let constraints = buildHeadConstraints(tools, null);
 * constraints.function.forcedContinuation("use_"); // "skill" when no other tool starts with "use_"
 * constraints = buildHeadConstraints(tools, "use_skill");
 * constraints.arg3?.kind; // "null" when use_skill has two parameters
 */
export function buildHeadConstraints(
  tools: readonly (ToolInput | ToolSpec)[],
  functionName: string | null,
  options: HeadConstraintOptions = {},
): HeadConstraints {
  const specs = toToolSpecs(tools);
  const chosen = functionName === null ? undefined : specs.find((t) => t.name === functionName);
  const constraints: HeadConstraints = { function: functionNameConstraint(specs.map((t) => t.name)) };
  const argCount = maxParameterCount(specs);
  for (let position = 0; position < argCount; position++) {
    const head = `arg${position + 1}` as HeadName;
    constraints[head] = chosen ? chosenArgConstraint(chosen, position) : unionArgConstraint(specs, position);
  }
  if (options.includeContent) constraints.content = freeTextConstraint(true);
  return constraints;
}

function chosenArgConstraint(tool: ToolSpec, position: number): HeadConstraint {
  const parameter = tool.parameters[position];
  if (!parameter) return nullOnlyConstraint;
  const otherParameters = tool.parameters.filter((p) => p !== parameter).map((p) => p.name);
  const constraint = { ...parameterConstraint(parameter), parameters: [parameter.name], otherParameters };
  const format = parameter.type === "string" && !parameter.enum ? valueFormatOf(parameter) : null;
  return format ? { ...constraint, format } : constraint;
}

function unionArgConstraint(tools: readonly ToolSpec[], position: number): HeadConstraint {
  const parameters = tools.flatMap((t) => (t.parameters[position] ? [t.parameters[position]] : []));
  const someToolLacksIt = parameters.length < tools.length;
  const names = [...new Set(parameters.map((p) => p.name))];
  const otherParameters = [...new Set(tools.flatMap((t) => t.parameters.map((p) => p.name)))].filter(
    (name) => !names.includes(name),
  );
  if (parameters.some((p) => p.type === "string" && !p.enum)) {
    // Free text already allows everything; only the null option can differ.
    return {
      ...freeTextConstraint(someToolLacksIt || parameters.some((p) => !p.required)),
      parameters: names,
      otherParameters,
    };
  }
  return {
    ...unionConstraint(parameters.map(parameterConstraint), someToolLacksIt),
    parameters: names,
    otherParameters,
  };
}
