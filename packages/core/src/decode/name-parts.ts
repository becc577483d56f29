/**
 * A nudge of the function head towards the tools whose names the command says in words: a tool
 * name is split into its parts (`send_thermostat` -> send, thermostat; `lookAt` -> look, at), and
 * each part the command holds as a word (`send the thermostat song "Imagine"`) counts. The copy
 * nudge (`copy-bias.ts`) already favours a token that starts a word of the command, but a name's
 * later parts sit behind the first's tokens (`send` is shared by `send_gate`), and a tiny model
 * reads a tool name it never saw in a wording as a familiar tool: rt-tiny answered "flap your
 * wings" with `wait` and "send the thermostat song" with `send_gate`. Enum arguments get the
 * same nudge over their values (`shake_head` for "shake your head").
 *
 * Each token the function head may write next gets the bias times the best share of said parts
 * among the tools it leads towards: at a fork, the branch towards the best-said tool is the
 * likelier one by that much, and the tokens inside one name get no more than their first. A
 * share, not a count, so that a two-part name is not favoured twice over a one-part one
 * (`retreat_all` over `retreat` for "Specter, retreat! all good?"), and no name by more than
 * the bias.
 */
import type { VocabIndex } from "./token-vocab";

/**
 * Parts of two letters or fewer are left out: `to` of `move_to`, `at` of `look_at` are words of
 * nearly every command.
 */
const SHORTEST_PART = 3;

/** Words that turn the next one's request around (here and for a boolean parameter in `said-values.ts`). */
export const NEGATION_WORDS: ReadonlySet<string> = new Set([
  "not",
  "don't",
  "don’t",
  "dont",
  "never",
  "no",
  "without",
  "doesn't",
  "didn't",
]);

/** The lower-case parts of a tool name: split at `_`, `-`, `.`, digits and lower-to-upper case changes. */
export function nameParts(name: string): string[] {
  return name
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((part) => part.length >= SHORTEST_PART);
}

/**
 * Whether `word` is `part` or `part` with an English inflection (`flaps`, `flapping`,
 * `lowered`, `using` of `use`): commands say the verb a tool is named by in its forms.
 */
function saysPart(word: string, part: string): boolean {
  if (word === part) return true;
  const stem = part.endsWith("e") ? part.slice(0, -1) : part;
  if (!word.startsWith(stem)) return false;
  const rest = word.slice(stem.length);
  const doubled = rest[0] === stem.at(-1) && /^(ed|ing)$/.test(rest.slice(1));
  return doubled || /^(s|es|d|ed|ing)$/.test(rest);
}

/**
 * The share of each name's parts `command` says as words, 0 to 1 (case ignored; the command's own
 * identifiers are split at their underscores too, so `call send_gate` says both of its parts). A
 * word right after a negation is not said: "don't flap" does not ask for `flap`.
 */
export function saidShares(names: readonly string[], command: string): Map<string, number> {
  const all = command.toLowerCase().match(/\p{L}+(?:['’]\p{L}+)?/gu) ?? [];
  // "don't flap" asks for the other tool
  const words = all.filter((w, i) => w.length >= SHORTEST_PART && !NEGATION_WORDS.has(all[i - 1] ?? ""));
  const shares = new Map<string, number>();
  for (const name of names) {
    const parts = new Set(nameParts(name));
    let said = 0;
    for (const part of parts) if (words.some((w) => saysPart(w, part))) said++;
    shares.set(name, parts.size === 0 ? 0 : said / parts.size);
  }
  return shares;
}

/**
 * The order in a command: its last line. In v2 prompts the environment line sits right above the
 * query in the same paragraph, and its words (`Nightingale's skill is ready`) are the game's,
 * not the speaker's: counted as said, they pulled tower defense's `pass` to `use_skill`.
 */
export function orderOf(command: string): string {
  const lines = command.split("\n").filter((line) => line.trim() !== "");
  return lines.at(-1) ?? "";
}

/**
 * The tokens that spell a start of the rest of a name beginning with `text` (the head's text so
 * far; a leading space, which the function head may write, is allowed for), each with the share
 * of the best-said name it leads towards; empty when no name the head can still write is said.
 */
export function saidNameTokens(
  text: string,
  shares: ReadonlyMap<string, number>,
  index: VocabIndex,
): Map<number, number> {
  const value = text.startsWith(" ") ? text.slice(1) : text;
  const best = new Map<number, number>();
  for (const [name, said] of shares) {
    if (said === 0 || !name.startsWith(value) || name.length === value.length) continue;
    const rest = name.slice(value.length);
    const spellings = text === "" ? [rest, ` ${rest}`] : [rest];
    for (const spelling of spellings) {
      const longest = Math.min(spelling.length, index.longestText());
      for (let n = 1; n <= longest; n++) {
        const id = index.idOfText(spelling.slice(0, n));
        if (id !== undefined && (best.get(id) ?? 0) < said) best.set(id, said);
      }
    }
  }
  return best;
}
