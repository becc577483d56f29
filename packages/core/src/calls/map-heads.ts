/**
 * Heads to a typed, validated call: `argI` is the I-th parameter of the chosen tool in
 * declaration order, each value parsed by its schema (see `head-value.ts` for the exact
 * rules). Every problem is reported as a `{path, message}` entry and makes the call
 * invalid; nothing is passed on silently.
 *
 * An arg head past the chosen tool's parameter count that still carries a value is
 * ignored with a warning, not an error: those heads exist only because another tool of the
 * request has more parameters, and the call itself is complete without them.
 */
import type { HeadName } from "../prompt/heads";
import { type ToolInput, type ToolSpec, toToolSpecs } from "../prompt/tools";
import { headValueText, parseParameterValue } from "./head-value";

/** Raw head texts, stop markers stripped; `null`, a missing key or `<|null|>` mean "not given". */
export type HeadTexts = Partial<Record<HeadName, string | null>>;

/** One problem with a call; `path` is `function` or `args.<parameter>` (warnings: `argN`). */
export interface CallIssue {
  path: string;
  message: string;
}

/** A call mapped from heads. `valid` is true exactly when `errors` is empty. */
export interface MappedCall {
  /** The chosen tool's name; null when the function head gave none or an unknown one. */
  function: string | null;
  /** Parsed values of the given parameters, in declaration order. */
  args: Record<string, unknown>;
  valid: boolean;
  errors: CallIssue[];
  /** Things ignored without invalidating the call (values in heads the tool does not have). */
  warnings: CallIssue[];
}

const ARG_HEADS = ["arg1", "arg2", "arg3", "arg4", "arg5", "arg6"] as const;

/**
 * Maps head texts to a call of one of `tools`.
 *
 * @example
 * const call = mapHeadsToCall({ function: "move_to", arg1: "300", arg2: "150", arg3: "50", arg4: "<|null|>" }, tools);
 * // { function: "move_to", args: { x: 300, y: 150, z: 50 }, valid: true, errors: [], warnings: [] }
 */
export function mapHeadsToCall(heads: HeadTexts, tools: readonly (ToolInput | ToolSpec)[]): MappedCall {
  const specs = toToolSpecs(tools);
  const errors: CallIssue[] = [];
  const warnings: CallIssue[] = [];
  const name = headValueText(heads.function);
  if (name === null) {
    errors.push({ path: "function", message: "no function was called" });
    return { function: null, args: {}, valid: false, errors, warnings };
  }
  const tool = specs.find((t) => t.name === name);
  if (!tool) {
    const known = specs.map((t) => t.name).join(", ");
    errors.push({
      path: "function",
      message: `unknown function ${JSON.stringify(name)}; tools are: ${known}`,
    });
    return { function: null, args: {}, valid: false, errors, warnings };
  }
  // No prototype: a parameter named `__proto__` (or `constructor`, `prototype`) is a plain key.
  const args: Record<string, unknown> = Object.create(null);
  tool.parameters.forEach((parameter, index) => {
    const path = `args.${parameter.name}`;
    const text = headValueText(heads[ARG_HEADS[index]!]);
    if (text === null) {
      if (parameter.required)
        errors.push({ path, message: `missing required parameter "${parameter.name}"` });
      return;
    }
    const parsed = parseParameterValue(parameter, text);
    if (parsed.ok) args[parameter.name] = parsed.value;
    else errors.push({ path, message: parsed.message });
  });
  for (const head of ARG_HEADS.slice(tool.parameters.length)) {
    const text = headValueText(heads[head]);
    if (text !== null) {
      warnings.push({
        path: head,
        message: `ignored ${JSON.stringify(text)}: ${tool.name} takes ${tool.parameters.length} parameter(s)`,
      });
    }
  }
  return { function: tool.name, args, valid: errors.length === 0, errors, warnings };
}
