/**
 * Grammars for the value part of a head (edge spaces removed), and the one wrapper that adds
 * the spacing rule to any of them, so each grammar only has to describe bare values.
 */
import type { ConstraintKind, HeadConstraint } from "./types";

/** A set of value strings described by prefix, completeness and forced-rest checks. */
export interface ValueGrammar {
  /** `value` is a prefix of (or equal to) some valid value. */
  isPrefix(value: string): boolean;
  /** `value` is a valid value. */
  isValue(value: string): boolean;
  /** The unique rest to a valid value (`""` when complete and not extendable), else null. */
  forcedRest(value: string): string | null;
}

/**
 * A head constraint from a value grammar: one optional leading space, then a value prefix;
 * or a complete value followed by one space, after which only the stop marker may come.
 */
export function spacedConstraint(
  kind: ConstraintKind,
  grammar: ValueGrammar,
  allowsNull: boolean,
): HeadConstraint {
  const core = (text: string) => (text.startsWith(" ") ? text.slice(1) : text);
  const closedBySpace = (value: string) => value.endsWith(" ") && grammar.isValue(value.slice(0, -1));
  return {
    kind,
    allowsNull,
    accepts(text) {
      const value = core(text);
      return grammar.isPrefix(value) || closedBySpace(value);
    },
    isComplete(text) {
      const value = core(text);
      return grammar.isValue(value) || closedBySpace(value);
    },
    forcedContinuation(text) {
      const value = core(text);
      const open = grammar.isPrefix(value);
      const closed = closedBySpace(value);
      if (open && closed) return grammar.forcedRest(value) === "" ? "" : null;
      if (closed) return "";
      return open ? grammar.forcedRest(value) : null;
    },
  };
}
