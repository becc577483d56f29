/**
 * Choice among fixed strings: tool names (exact), enum values and booleans (string values
 * ignore ASCII case, exactly as the call mapping does; numbers are matched as written).
 */
import { enumText, foldCase } from "../../calls/head-value";
import type { HeadConstraint } from "./types";
import { spacedConstraint, type ValueGrammar } from "./value-grammar";

/** One allowed string and whether it matches regardless of ASCII case. */
export interface Choice {
  text: string;
  ignoreCase: boolean;
}

/** A grammar accepting exactly the given choices. */
export function choiceGrammar(choices: readonly Choice[]): ValueGrammar {
  const keyed = choices.map((c) => ({
    text: c.text,
    key: c.ignoreCase ? foldCase(c.text) : c.text,
    fold: c.ignoreCase,
  }));
  const anyFold = keyed.some((c) => c.fold);
  // The decoder asks about every vocabulary token at each step, so this loop stays allocation-free.
  const isPrefix = (value: string) => {
    const folded = anyFold ? foldCase(value) : value;
    for (const c of keyed) if (c.key.startsWith(c.fold ? folded : value)) return true;
    return false;
  };
  const candidates = (value: string) => {
    const folded = anyFold ? foldCase(value) : value;
    return keyed.filter((c) => c.key.startsWith(c.fold ? folded : value));
  };
  return {
    isPrefix,
    isValue(value) {
      const folded = anyFold ? foldCase(value) : value;
      for (const c of keyed) if (c.key === (c.fold ? folded : value)) return true;
      return false;
    },
    forcedRest(value) {
      // Folding preserves length, so every candidate's rest starts at value.length.
      const rests = new Set(candidates(value).map((c) => c.text.slice(value.length)));
      return rests.size === 1 ? [...rests][0]! : null;
    },
  };
}

/** The function head: exactly one of the request's tool names (case-sensitive). */
export function functionNameConstraint(names: readonly string[]): HeadConstraint {
  const grammar = choiceGrammar(names.map((text) => ({ text, ignoreCase: false })));
  return { ...spacedConstraint("function", grammar, false), choices: [...names] };
}

/** One of an enum's values, written as the call mapping reads them (`String(v)` for numbers). */
export function enumConstraint(values: readonly (string | number)[], allowsNull: boolean): HeadConstraint {
  const choices = values.map((v) => ({ text: enumText(v), ignoreCase: typeof v === "string" }));
  return {
    ...spacedConstraint("enum", choiceGrammar(choices), allowsNull),
    choices: choices.map((c) => c.text),
  };
}

/** `true` or `false`, in any case. */
export function booleanConstraint(allowsNull: boolean): HeadConstraint {
  const choices = ["true", "false"].map((text) => ({ text, ignoreCase: true }));
  return spacedConstraint("boolean", choiceGrammar(choices), allowsNull);
}
