/**
 * Number and integer heads, by the call mapping's grammars: number `-?\d+(\.\d+)?([eE][+-]?\d+)?`
 * with a finite value, integer `-?\d+` within the safe integer range. Nothing is ever forced
 * (another digit can always follow), except that a closing space forces the stop.
 */
import { INTEGER_PATTERN, NUMBER_PATTERN } from "../../calls/head-value";
import type { HeadConstraint } from "./types";
import { spacedConstraint, type ValueGrammar } from "./value-grammar";

const NUMBER_PREFIX = /^-?$|^-?\d+(\.\d*)?$|^-?\d+(\.\d+)?[eE][+-]?\d*$/;
/** A complete positive exponent only grows with more digits: once infinite, always infinite. */
const POSITIVE_EXPONENT = /[eE]\+?\d+$/;
const INTEGER_PREFIX = /^-?\d*$/;

const numberGrammar: ValueGrammar = {
  isPrefix: (value) =>
    NUMBER_PREFIX.test(value) && !(POSITIVE_EXPONENT.test(value) && !Number.isFinite(Number(value))),
  isValue: (value) => NUMBER_PATTERN.test(value) && Number.isFinite(Number(value)),
  forcedRest: () => null,
};

const integerGrammar: ValueGrammar = {
  // More digits only make the magnitude larger, so an unsafe prefix has no valid completion.
  isPrefix: (value) =>
    INTEGER_PREFIX.test(value) && Math.abs(Number(value.replace("-", "") || "0")) <= Number.MAX_SAFE_INTEGER,
  isValue: (value) => INTEGER_PATTERN.test(value) && Number.isSafeInteger(Number(value)),
  forcedRest: () => null,
};

/** A number head. */
export function numberConstraint(allowsNull: boolean): HeadConstraint {
  return spacedConstraint("number", numberGrammar, allowsNull);
}

/** An integer head. */
export function integerConstraint(allowsNull: boolean): HeadConstraint {
  return spacedConstraint("integer", integerGrammar, allowsNull);
}
