import {
  buildPrompt,
  type HeadName,
  headCloseTag,
  headNames,
  headTag,
  maxParameterCount,
  NULL_MARKER,
  normalizeTools,
  systemPrefix,
} from "../../../packages/core/src/index";
import type { ArgValue, Example, PromptFormat, TargetCall, ToolSpec } from "./types";

/** One head branch as text: its tag, the value (null: not given) and the stop marker. */
export interface HeadText {
  head: HeadName;
  tag: string;
  value: string | null;
  stop: string;
}

/** The prompt of an example split at the system prefix, built by @rtool/core's builders. */
export interface PromptText {
  prefix: string;
  rest: string;
}

/** A prompt that does not start with its own system prefix (would break prefix sharing). */
export class PrefixSplitError extends Error {
  constructor(readonly scenario: string) {
    super(`${scenario}: the prompt does not start with its system prefix`);
    this.name = "PrefixSplitError";
  }
}

/**
 * Prompt text of an example, exactly as the server builds it, split after the system turn
 * (`...<|im_end|>\n`), where the prefix cache splits it too.
 */
export function promptText(format: PromptFormat, ex: Example): PromptText {
  const req = {
    query: ex.query,
    tools: ex.tools,
    environment: ex.environment,
    history: ex.history,
    system: ex.system,
  };
  const prefix = systemPrefix(format, req);
  const full = buildPrompt(format, req);
  if (!full.startsWith(prefix)) throw new PrefixSplitError(ex.scenario);
  return { prefix, rest: full.slice(prefix.length) };
}

/** The system prefix of a group (tools + system only). */
export function prefixText(format: PromptFormat, tools: ToolSpec[], system: string): string {
  return systemPrefix(format, { tools, system });
}

/** How a typed value is written inside a head (numbers as JavaScript prints them). */
export function valueText(value: ArgValue): string {
  return typeof value === "string" ? value : String(value);
}

/**
 * Target head branches: `<function>` and `<arg1>`..`<argK>` (K = largest parameter count of
 * the tool set); an argument not given, or past the chosen tool's parameters, is `<|null|>`.
 * `only` restricts the heads to those whose target is known (for the evaluation examples).
 */
export function targetHeads(tools: ToolSpec[], call: TargetCall, only?: "known"): HeadText[] {
  const specs = normalizeTools(tools);
  const chosen = specs.find((t) => t.name === call.function);
  const heads: HeadText[] = [];
  for (const head of headNames(maxParameterCount(specs))) {
    let value: string | null;
    if (head === "function") value = call.function;
    else {
      const param = chosen?.parameters[Number(head.slice(3)) - 1];
      const v = param ? call.args[param.name] : undefined;
      if (only === "known" && param && v === undefined) continue;
      value = v === undefined ? null : valueText(v);
    }
    heads.push({ head, tag: headTag(head), value, stop: value === null ? NULL_MARKER : headCloseTag(head) });
  }
  return heads;
}
