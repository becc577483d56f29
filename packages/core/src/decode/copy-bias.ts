/**
 * A nudge towards copying: a free-text argument head's first token gets `bias` added where it
 * begins a word of the request, and while the head spells a word that occurs in the request (a
 * unit's name from the roster, an id from the environment), the tokens that continue that word as
 * the request spells it get it too. A small model often names a unit it saw in training instead of
 * the roster's, or picks the right name's first letters and drifts into name-like letters of its
 * own (`Saegeikzia` -> `Saeae`). Only letters, digits and underscores are nudged, the stop marker
 * never is, so the head still ends where the model ends it, and values that are not in the request
 * are left to the model where it prefers them by more than the bias. Two refinements for copies
 * of letters: a word the request only spells longer is continued with twice the bias (a copy cut
 * short), and letters after a whole word nothing there continues lose the bias (a copy spelled on).
 *
 * The function head and enum arguments get the same nudge from the command alone
 * ({@link commandOf}): a tool or value the speaker names ("flap", "call send_gate", "brighten the
 * cargo") is the likelier choice, which rt-tiny misses for tools and words it never saw in
 * training. The history is left out, since its calls name tools too and would pull the head
 * towards repeating the last one.
 */
import type { VocabIndex } from "./token-vocab";
import { NO_BYTES } from "./utf8-bytes";

/**
 * Letters and digits of any script, and the underscore of identifiers (`turn_drone`): the parts
 * of a word a continuation may add.
 */
const WORD = /^[\p{L}\p{N}_]+$/u;
/** Most characters of a word read after the head's text. */
const LOOKAHEAD = 24;
const LETTER = /\p{L}/u;
/**
 * A token that would spell on a finished word. The underscore counts: letting a finished word go
 * on with an identifier's next part (`note` + `_cast`) changed nothing on the synthetic tool sets
 * and cost a tower-defense name.
 */
const WORD_START = /^[\p{L}\p{N}_]/u;
/**
 * Punctuation after which a name is complete: brackets, commas, colons, semicolons, quotes, and
 * the marks that end a sentence in Chinese. Not a space (`Tower B`), a hyphen (`Node-7`), an
 * apostrophe or a period (`Mr. Lee`, `3.5`), which go on within names.
 */
const ENDS_A_NAME = /[()（）[\]{}<>,，、:：;；!！?？"“”「」『』。]/u;
/**
 * Scripts written without spaces between words: a name inside a run of them (`让欧丝冬天去北面`)
 * starts at any of its characters.
 */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The request's text (the user turn), searched case-insensitively for the head's word, and the
 * tokens of `index`'s vocabulary that copy from it.
 */
export class CopySource {
  private readonly lower: string;
  private allWords: string[] | null = null;
  /** {@link tokensContinuing}'s answers by word. */
  private readonly tokens = new Map<string, readonly number[]>();

  constructor(
    readonly text: string,
    private readonly index: VocabIndex,
  ) {
    this.lower = text.toLowerCase();
  }

  /**
   * The rests of the words the request spells after `word`: for each occurrence of `word`
   * (ignoring case) that starts a word, the letters, digits and underscores that follow it; for
   * an empty `word`, every word of the request. In scripts written without spaces every character
   * may start a word (see {@link startsWord}).
   */
  continuations(word: string): string[] {
    if (word === "") return this.words();
    const needle = word.toLowerCase();
    const rests = new Set<string>();
    for (let at = this.lower.indexOf(needle); at >= 0; at = this.lower.indexOf(needle, at + 1)) {
      if (!this.startsWord(at)) continue;
      const after = this.text.slice(at + word.length, at + word.length + LOOKAHEAD);
      const rest = sameScriptRun(word, /^[\p{L}\p{N}_]+/u.exec(after)?.[0] ?? "");
      if (rest) rests.add(rest);
    }
    return [...rests];
  }

  /** The tokens of the vocabulary whose text begins with a letter, digit or underscore. */
  wordCharacterTokens(): readonly number[] {
    return this.index.tokensMatching(WORD_START);
  }

  /**
   * Whether `word` (ignoring case) is a whole word of the request somewhere, not only the start of
   * longer ones (`Tak` of `Taka`).
   */
  spellsWhole(word: string): boolean {
    return this.startsWordFollowedBy(word, (next) => !WORD.test(next) || sameScriptRun(word, next) === "");
  }

  /**
   * Whether `word` (ignoring case) starts a word of the request somewhere and is followed there by
   * punctuation that ends a name ({@link ENDS_A_NAME}) or by the end: a name in a roster
   * (`Amiya(center`), a name addressed (`Amiya, use your skill`); a copy of it is complete.
   */
  endsAtPunctuation(word: string): boolean {
    return this.startsWordFollowedBy(word, (next) => ENDS_A_NAME.test(next));
  }

  /** Whether some occurrence of `word` (ignoring case) that starts a word ends the request or is followed by a character `ends` accepts. */
  private startsWordFollowedBy(word: string, ends: (next: string) => boolean): boolean {
    const needle = word.toLowerCase();
    for (let at = this.lower.indexOf(needle); at >= 0; at = this.lower.indexOf(needle, at + 1)) {
      if (!this.startsWord(at)) continue;
      const next = this.text[at + word.length];
      if (next === undefined || ends(next)) return true;
    }
    return false;
  }

  /**
   * The tokens that spell a start of one of `word`'s {@link continuations} (each a run of letters
   * and digits, so every such token is too), kept per word: every row of every head that spells
   * the same word, the empty one above all, asks again. `tail` is the bytes of a character the head
   * has begun but not finished (a byte-level tokenizer splits a rare Chinese character over two
   * tokens): only continuations that begin with those bytes count, and the tokens that go on from
   * them, ending mid-character or not, are the ones nudged. Without token bytes in the vocabulary
   * only whole-character tokens are found, and a begun character is not continued.
   */
  tokensContinuing(word: string, tail: Uint8Array = NO_BYTES): readonly number[] {
    const key = tail.length === 0 ? word : `${word}\u0000${tail.join(",")}`;
    let ids = this.tokens.get(key);
    if (!ids) {
      const found = new Set<number>();
      for (const rest of this.continuations(word)) {
        if (this.index.hasBytes) this.addByBytes(utf8.encode(rest), tail, found);
        else if (tail.length === 0) this.addByText(rest, found);
      }
      ids = [...found];
      this.tokens.set(key, ids);
    }
    return ids;
  }

  private addByText(rest: string, found: Set<number>): void {
    for (let n = 1; n <= rest.length; n++) {
      const id = this.index.idOfText(rest.slice(0, n));
      if (id !== undefined) found.add(id);
    }
  }

  private addByBytes(rest: Uint8Array, tail: Uint8Array, found: Set<number>): void {
    if (rest.length <= tail.length || tail.some((b, i) => rest[i] !== b)) return;
    const ahead = rest.subarray(tail.length);
    const longest = Math.min(ahead.length, this.index.longestBytes());
    for (let n = 1; n <= longest; n++) {
      const id = this.index.idOfBytes(ahead.subarray(0, n));
      if (id !== undefined) found.add(id);
    }
  }

  /**
   * Whether a word may start at `at`: the text's start, after a character that is not a letter
   * or digit, at any character of a script written without spaces, or where the script changes
   * between one written without spaces and one with (`执行cargo_brighten`).
   */
  private startsWord(at: number): boolean {
    if (at === 0 || !WORD.test(this.text[at - 1]!)) return true;
    const here = UNSPACED.test(this.text[at]!);
    // a change of script is a boundary too: `执行cargo_brighten`
    return here || here !== UNSPACED.test(this.text[at - 1]!);
  }

  /**
   * Every word of the request (runs of letters, digits and underscores, and within a run the rest
   * from each character of a script written without spaces), the continuations of an empty value.
   */
  private words(): string[] {
    if (!this.allWords) {
      const words = new Set<string>();
      for (const run of this.text.matchAll(/[\p{L}\p{N}_]+/gu)) {
        words.add(run[0]);
        for (let i = 1; i < run[0].length; i++)
          if (this.startsWord(run.index + i)) words.add(run[0].slice(i, i + LOOKAHEAD));
      }
      this.allWords = [...words];
    }
    return this.allWords;
  }
}

/**
 * The start of `rest` that goes on in the script of `word`'s last character (written with or
 * without spaces): a change of script ends a word (`Keor` in `让Keor进攻`), so `进攻` is not the
 * rest of the name, and a copy of `Keor` is finished there.
 */
function sameScriptRun(word: string, rest: string): string {
  if (word === "") return rest;
  const unspaced = UNSPACED.test(word.at(-1)!);
  let end = 0;
  for (const ch of rest) {
    if (UNSPACED.test(ch) !== unspaced) break;
    end += ch.length;
  }
  return rest.slice(0, end);
}

const utf8 = new TextEncoder();

const USER_TURN = "<|im_start|>user";
const END_OF_TURN = "<|im_end|>";

/**
 * The text of the last user turn of a decoded prompt (between its last `<|im_start|>user` and the
 * `<|im_end|>` after it, markers left out), or all of the prompt when it has none.
 */
export function userTurn(prompt: string): string {
  const at = prompt.lastIndexOf(USER_TURN);
  if (at < 0) return prompt;
  const from = at + USER_TURN.length;
  const end = prompt.indexOf(END_OF_TURN, from);
  return prompt.slice(from, end < 0 ? undefined : end);
}

/**
 * The command in a user turn: its last paragraph (after its last blank line). rtool's prompts
 * close the user turn with the query after a blank line (v1: the environment and history blocks
 * above it; v2: the history block above it, the environment line right over the query), and a
 * client's own state text in the query comes before its order the same way.
 */
export function commandOf(turn: string): string {
  const at = turn.lastIndexOf("\n\n");
  return at < 0 ? turn : turn.slice(at + 2);
}

/** The word `text` ends with (letters, digits and underscores at its end; empty when it ends otherwise). */
export function trailingWord(text: string): string {
  return /[\p{L}\p{N}_]+$/u.exec(text)?.[0] ?? "";
}

/**
 * Adds `bias` to the logits of the tokens that continue the word `value` ends with as `source`
 * spells it (that begin one of its words, when `value` is empty); returns `row` itself when none
 * applies, else a biased copy. `tail` is the bytes of a character the head has begun after
 * `value` (see `unfinishedCharacter` in `utf8-bytes.ts`; `value` is then the text before that character).
 *
 * @example
 * ```ts
 * const row2 = biasCopies(row, "Sa", new CopySource("Operators: Saegeikzia(north)", index), 3);
 * ```
 */
export function biasCopies(
  row: Float32Array,
  value: string,
  source: CopySource,
  bias: number,
  tail: Uint8Array = NO_BYTES,
): Float32Array {
  return biasCopiesFrom(row, value, [[source, bias]], tail);
}

/**
 * {@link biasCopies} from several sources at once, each with its own bias (the user turn, and its
 * command again), the adjustments summed into one copy of `row`: a head's row is copied at most
 * once per step, whatever the vocabulary's size.
 */
export function biasCopiesFrom(
  row: Float32Array,
  value: string,
  nudges: readonly (readonly [CopySource, number])[],
  tail: Uint8Array = NO_BYTES,
): Float32Array {
  let out: Float32Array | null = null;
  for (const [source, bias] of nudges) {
    const nudge = copyNudge(value, source, bias, tail);
    if (!nudge) continue;
    out ??= row.slice();
    for (const id of nudge.ids) out[id] = out[id]! + nudge.add;
  }
  return out ?? row;
}

/** The tokens `source` nudges after `value`, and by how much (negative: a finished copy); null for none. */
function copyNudge(
  value: string,
  source: CopySource,
  bias: number,
  tail: Uint8Array,
): { ids: readonly number[]; add: number } | null {
  const word = trailingWord(value);
  if ((word === "" && value !== "") || bias === 0) return null;
  const ids = source.tokensContinuing(word, tail);
  // Only after a letter: scripts without spaces run their words on, and numbers are often
  // computed from the request's (tomorrow's date from today's), not copied.
  const last = word.at(-1) ?? "";
  const spelled = tail.length === 0 && LETTER.test(last) && !UNSPACED.test(last);
  if (ids.length === 0) {
    // A whole word of the request that nothing there continues is a finished copy: letters
    // added to it make a name the request does not hold (`Fistia` -> `Fistiae`).
    if (!spelled || !source.spellsWhole(word)) return null;
    return { ids: source.wordCharacterTokens(), add: -bias };
  }
  // Half a word the request only spells longer (`Tak` of `Taka`) is a copy cut short: its
  // continuations get the bias twice.
  return { ids, add: spelled && !source.spellsWhole(word) ? 2 * bias : bias };
}
