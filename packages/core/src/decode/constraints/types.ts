/**
 * Text-level constraints on one head. They judge the text a head has produced so far (its
 * stop marker never included), so they work with any tokenization; the decoder turns
 * `accepts` into a token mask itself.
 *
 * Spacing rule (the same as the call mapping's, see `calls/head-value.ts`): a value may be
 * preceded by one space and followed by one space, which a BPE tokenizer may glue to the
 * first or last token; after that trailing space only the stop marker may follow.
 *
 * Stop markers are the decoder's business: it ends a head on `</argN>`, `<|null|>` or
 * `<|im_end|>`, allowing the closing tag only when `isComplete(text)` and `<|null|>` only
 * when `allowsNull` and nothing has been produced yet.
 */

import type { ValueFormat } from "../said-times";

/** What a constraint holds a head to. */
export type ConstraintKind =
  | "function"
  | "enum"
  | "number"
  | "integer"
  | "boolean"
  | "string"
  | "union"
  | "null";

/** A head's constraint; every method takes the head's text so far, stop marker excluded. */
export interface HeadConstraint {
  readonly kind: ConstraintKind;
  /**
   * Whether the head may end with `<|null|>` ("not given") before producing any text. Kind
   * `"null"` means it must: `<|null|>` is then the only way the head can end.
   */
  readonly allowsNull: boolean;
  /** Could `text` still be extended to a complete value? Never false for a prefix of a valid value. */
  accepts(text: string): boolean;
  /** Is `text` a complete valid value, so the stop marker may follow? */
  isComplete(text: string): boolean;
  /**
   * The only possible rest of the value, when exactly one remains: the rest of a tool name
   * or enum value once unique, `""` when the value is complete and nothing may extend it
   * (only the stop marker may follow), else `null`.
   */
  forcedContinuation(text: string): string | null;
  /** The values a choice among fixed strings allows (the function head's tool names); absent for other kinds. */
  readonly choices?: readonly string[];
  /**
   * The names of the parameters an arg head may be filling: the chosen tool's at its position,
   * or every tool's there before the function is known; absent for other heads.
   */
  readonly parameters?: readonly string[];
  /** Parameters this head is not filling (the chosen tool's others, or before the function is known every tool's not at its position): values the order gives them by name are not this head's. */
  readonly otherParameters?: readonly string[];
  /** The time or date form a string parameter asks for (`HH:MM`, `YYYY-MM-DD`), once the function is known. */
  readonly format?: ValueFormat;
}
