/**
 * Values the order gives a parameter by name: "amount of 6878 and x 116", "x=-427.3",
 * "urgent: no", "no loop", 'target "Sector 9"', "song: Blue Moon". A tiny model picks the right
 * numbers but often puts them in the wrong heads (rt-tiny wrote `x: 6878` for the first), and
 * reads a yes/no or a name after an unfamiliar parameter's name no better; the copy nudge leaves
 * numbers alone, since many are computed rather than copied (tomorrow's date from today's), but a
 * number right after a parameter's name is that parameter's in nearly every order that says one:
 * on rt-tiny's held-out requests it was the expected value 551 times of 556 (the rest: "intensity
 * 30%" for 0.3, which is why a number followed by `%` is not taken). The arg head gets these
 * values' tokens nudged as the function head gets said tool names (`name-parts.ts`).
 *
 * rt-tiny's held-out requests through rtool: numbers 67.0 -> 67.6% (families 71.8 -> 72.7%),
 * booleans 67.9% (72.8%), texts 68.6% (73.4%); the coined synthetic tools 34.3 -> 42.6%, no
 * scenario lower.
 */
import { regexLiteral } from "../regex-literal";
import { NEGATION_WORDS, nameParts } from "./name-parts";

/** `name` then at most a short connector (`=`, `:`, `of`, `to`, `is`, `at`, `by`) then a number. */
function anchorPattern(name: string): RegExp {
  const escaped = regexLiteral(name);
  return new RegExp(
    `(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])[\\s=:]{0,3}(?:(?:of|to|is|at|by)\\s{1,2})?(-?\\d+(?:\\.\\d+)?)(?!\\d|%|\\.\\d)`,
    "giu",
  );
}

/**
 * The numbers `order` gives the parameter `name`, as written: after the whole name (`amount_value`,
 * also spelled with spaces) or after one of its parts of three letters or more (`amount`).
 */
export function numbersSaidFor(name: string, order: string): string[] {
  const found = new Set<string>();
  for (const spelling of spellingsOf(name, order)) {
    for (const match of order.matchAll(anchorPattern(spelling))) found.add(match[1]!);
  }
  return [...found];
}

/**
 * The spellings of a parameter's name an order may say it by (whole, with spaces for
 * underscores, or one of its parts) that `order` holds somewhere: only those are worth a regular
 * expression, and most are not in it at all.
 */
function spellingsOf(name: string, order: string): string[] {
  const whole = name.toLowerCase();
  const lower = order.toLowerCase();
  return [...new Set([whole, whole.replace(/_/g, " "), ...nameParts(name)])].filter((s) => lower.includes(s));
}

/** The negation words of the function head's nudge, as one alternation ("no loop", "don't loop"). */
const NEGATION_PATTERN = [...NEGATION_WORDS].map(regexLiteral).join("|");

/** Words that say a boolean: after the name (`urgent: no`, `loop off`, `enabled true`). */
const BOOLEAN_WORDS: Record<string, "true" | "false"> = {
  yes: "true",
  true: "true",
  on: "true",
  no: "false",
  false: "false",
  off: "false",
};

/**
 * The booleans `order` gives the parameter `name`: a yes/no word right after it (`urgent: no`,
 * `with loop off`), or `false` for the name right after a negation (`no loop`, `without loop`, `don't loop`).
 */
export function booleansSaidFor(name: string, order: string): ("true" | "false")[] {
  const found = new Set<"true" | "false">();
  for (const spelling of spellingsOf(name, order)) {
    const escaped = regexLiteral(spelling);
    const after = new RegExp(
      `(?<![\\p{L}\\p{N}_])${escaped}[\\s=:]{1,3}(?:(?:is|set to)\\s{1,2})?(yes|no|true|false|on|off)(?![\\p{L}\\p{N}_])`,
      "giu",
    );
    for (const match of order.matchAll(after)) found.add(BOOLEAN_WORDS[match[1]!.toLowerCase()]!);
    const negated = new RegExp(
      `(?<![\\p{L}\\p{N}_])(?:${NEGATION_PATTERN})\\s+${escaped}(?![\\p{L}\\p{N}_])`,
      "giu",
    );
    if (negated.test(order)) found.add("false");
  }
  return [...found];
}

/** Words after a parameter's name that are not its value ("target the saved one"). */
const NOT_VALUES = new Set([
  "the",
  "a",
  "an",
  "my",
  "your",
  "this",
  "that",
  "it",
  "and",
  "with",
  "please",
  "now",
  "using",
]);

/**
 * The texts `order` gives the string parameter `name`: what a quote right after it holds
 * (`target "Sector 9"`), else the word right after it (`song: Blue Moon` gives `Blue`; the copy
 * nudge continues a copy from there), across `:`, `=`, "is", "to", "set to", "called", "named".
 */
export function textsSaidFor(name: string, order: string): string[] {
  const found = new Set<string>();
  for (const spelling of spellingsOf(name, order)) {
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}_])${regexLiteral(spelling)}[\\s=:：]{1,3}(?:(?:is|to|set to|called|named|of)\\s{1,2})?(?:["“「'](?<quoted>[^"”」']{1,40})["”」']|(?<word>[\\p{L}\\p{N}][\\p{L}\\p{N}_\\-]*))`,
      "giu",
    );
    for (const match of order.matchAll(pattern)) {
      const { quoted, word } = match.groups!;
      if (quoted) found.add(quoted);
      else if (word && !NOT_VALUES.has(word.toLowerCase()) && !/^-?\d/.test(word)) found.add(word);
    }
  }
  return [...found];
}

/**
 * The values `order` gives any of `parameters` by name: numbers ({@link numbersSaidFor}),
 * booleans ({@link booleansSaidFor}) and texts ({@link textsSaidFor}), each with share 1, in the
 * form `saidNameTokens` takes (the head's constraint keeps out what its parameter cannot hold).
 */
export function saidValues(parameters: readonly string[], order: string): Map<string, number> {
  const shares = new Map<string, number>();
  for (const name of parameters) {
    for (const value of numbersSaidFor(name, order)) shares.set(value, 1);
    for (const value of booleansSaidFor(name, order)) shares.set(value, 1);
    for (const value of textsSaidFor(name, order)) shares.set(value, 1);
  }
  return shares;
}

/** Whether `order` says the parameter `name` as a word, whole, with spaces for underscores or by a part. */
export function saysParameter(name: string, order: string): boolean {
  return spellingsOf(name, order).some((spelling) =>
    new RegExp(`(?<![\\p{L}\\p{N}_])${regexLiteral(spelling)}(?![\\p{L}\\p{N}_])`, "iu").test(order),
  );
}
