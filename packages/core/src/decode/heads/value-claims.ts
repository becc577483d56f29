/**
 * Two arguments of one call that hold the same value. Arg heads decode side by side, each
 * unaware of the others, so a value the order states once is often written twice: rt-tiny
 * answered "send the gate amount=5412" with `{x: 5412, amount_value: 5412}` and "close the
 * turret, distance=1893.8" with `{target: "1893.8", distance: 1893.8}`. An order rarely gives
 * two parameters one value (7 of rt-tiny's 5,429 held-out targets do), so the head with the
 * weaker claim gives the value up: the one whose parameter the order does not name right before
 * the value, else the free-text one beside a typed one (a number, an enum, a boolean). It then
 * writes `<|null|>` where its parameter is optional, else decodes again without that value.
 */
import type { TextConstraint } from "../head-text";
import type { Branch } from "./branch";

/** One finished arg head's hold on its value. */
export interface ValueClaim {
  branch: Branch;
  /** The order gives the value to this head's parameter by name (`amount=5412`). */
  saidByName: boolean;
  /** The head's parameter is not free text. */
  typed: boolean;
}

/** The head that gives the value up, or null when neither claim is the stronger. */
export function weakerClaim(a: ValueClaim, b: ValueClaim): Branch | null {
  const strength = (c: ValueClaim) => (c.saidByName ? 2 : 0) + (c.typed ? 1 : 0);
  const sa = strength(a);
  const sb = strength(b);
  return sa === sb ? null : sa < sb ? a.branch : b.branch;
}

/** A constraint that also rules out the values another head holds (see {@link withoutValue}). */
export interface ValueExcluding extends TextConstraint {
  readonly excludedValues: readonly string[];
}

/**
 * `constraint` with `value` (edge spaces aside) no longer complete; prefixes stay accepted, since other values
 * begin like it (`54` of `5412`), so the decoder also steers away from its tokens.
 */
export function withoutValue(constraint: TextConstraint, value: string): ValueExcluding {
  const excluded = [...((constraint as Partial<ValueExcluding>).excludedValues ?? []), value];
  return {
    kind: constraint.kind,
    choices: constraint.choices,
    parameters: constraint.parameters,
    otherParameters: constraint.otherParameters,
    allowsNull: constraint.allowsNull,
    excludedValues: excluded,
    accepts: (text) => constraint.accepts(text),
    isComplete: (text) => !excluded.includes(text.trim()) && constraint.isComplete(text),
    forcedContinuation: (text) => {
      const rest = constraint.forcedContinuation(text);
      return rest !== null && excluded.includes((text + rest).trim()) ? null : rest;
    },
  };
}
