/** Free-text heads (string parameters, content) and heads that may only say "not given". */
import { headValueText } from "../../calls/head-value";
import type { HeadConstraint } from "./types";

/**
 * Any text. Complete once it holds a value (not empty, not `<|null|>`, edge spaces aside);
 * never forces anything, since the model decides where free text ends.
 */
export function freeTextConstraint(allowsNull: boolean): HeadConstraint {
  return {
    kind: "string",
    allowsNull,
    accepts: () => true,
    isComplete: (text) => headValueText(text) !== null,
    forcedContinuation: () => null,
  };
}

/**
 * A head past the chosen tool's parameter count: it may produce no text and must end with
 * `<|null|>` at once. The empty text stays accepted (the head is alive, not rejected) and
 * kind `"null"` tells the decoder that `<|null|>` is forced.
 */
export const nullOnlyConstraint: HeadConstraint = {
  kind: "null",
  allowsNull: true,
  accepts: (text) => text === "",
  isComplete: () => false,
  forcedContinuation: () => null,
};
