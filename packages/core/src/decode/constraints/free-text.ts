/** Free-text heads (string parameters, content) and heads that may only say "not given". */
import { headValueText } from "../../calls/head-value";
import { headTags } from "../../prompt/heads";
import { MAX_TOOL_PARAMETERS } from "../../prompt/tools";
import type { HeadConstraint } from "./types";

/**
 * Every head's opening tag (`<function>`, `<arg1>`..`<arg6>`, `<content>`): the decoder's own control
 * tokens, which a small model sometimes writes into a free-text value (rt-tiny: a calendar title
 * `<arg1><arg1>见小王`, an operator `Daip<arg3>center`). No value a caller wants holds one.
 */
const HEAD_TAGS = headTags(MAX_TOOL_PARAMETERS, true);

/**
 * Any text without a head's opening tag. Complete once it holds a value (not empty, not
 * `<|null|>`, edge spaces aside); never forces anything, since the model decides where free text
 * ends.
 */
export function freeTextConstraint(allowsNull: boolean): HeadConstraint {
  return {
    kind: "string",
    allowsNull,
    // prefix-closed, as the decoder requires: every extension of a text with a tag still has it
    accepts: (text) => !HEAD_TAGS.some((tag) => text.includes(tag)),
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
