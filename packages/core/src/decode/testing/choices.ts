/**
 * A plain choice constraint for decoder tests (exact strings, no spacing rule), so the decoder's
 * tests do not depend on the production constraints in `../constraints/`.
 */
import type { TextConstraint } from "../head-text";

/** Exactly one of `choices`; `<|null|>` allowed when `allowsNull`. */
export function choiceOf(choices: readonly string[], allowsNull = false): TextConstraint {
  const candidates = (text: string) => choices.filter((c) => c.startsWith(text));
  return {
    allowsNull,
    accepts: (text) => candidates(text).length > 0,
    isComplete: (text) => choices.includes(text),
    forcedContinuation(text) {
      const rests = new Set(candidates(text).map((c) => c.slice(text.length)));
      return rests.size === 1 ? [...rests][0] : null;
    },
  };
}

/** Only `<|null|>`: an arg head past the chosen tool's parameters. */
export const onlyNull: TextConstraint = {
  allowsNull: true,
  accepts: () => false,
  isComplete: () => false,
  forcedContinuation: () => null,
};
