/**
 * Misspelt names in an order, read as the names the request spells elsewhere: "raxchai switch to
 * hold" under a roster holding `Riaxchai`, "Lapplland: push hard" under `Lappland`. The copy
 * nudge favours the command's own words, so a typed or misheard name pulled the head towards the
 * misspelling, while the call needs the roster's spelling. Before the command becomes a copy
 * source its Latin words that the rest of the request does not hold are replaced by the one word
 * there they are nearly spelled as (a few letters added, dropped, swapped or changed). With
 * phase 19's weights: tower defense's held-out 63.4 -> 64.5%, the copy set 65.2 -> 66.7%, other
 * tables unchanged but one family request.
 */

/** Latin words of five letters or more: shorter ones are too often another word one letter off (`last`, `east`). */
const WORD = /\p{Script=Latin}[\p{Script=Latin}\p{N}_]{4,}/gu;

/** The letters two spellings may differ by: one up to seven letters, two from eight. */
function allowedEdits(word: string): number {
  return word.length < 8 ? 1 : 2;
}

/**
 * Edit distance (insert, delete, change, swap of neighbours) between `a` and `b`, ignoring case,
 * or `limit + 1` as soon as it is certain to exceed `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  if (Math.abs(s.length - t.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = row;
  }
  return previous[t.length]!;
}

/**
 * `command` with each Latin word that `context` does not hold (ignoring case) replaced by the one
 * word of `context` it is nearly spelled as (see {@link allowedEdits}); a word near two or more
 * different words, or near none, stays as it is.
 *
 * @example
 * ```ts
 * nearWordsOf("raxchai switch to hold", "Operators: Riaxchai(south) Breveix(east)"); // "Riaxchai switch to hold"
 * ```
 */
export function nearWordsOf(command: string, context: string): string {
  const known = new Map<string, string>();
  for (const [word] of context.matchAll(WORD)) known.set(word.toLowerCase(), word);
  if (known.size === 0) return command;
  return command.replace(WORD, (word) => {
    if (known.has(word.toLowerCase())) return word;
    const limit = allowedEdits(word);
    let found: string | null = null;
    for (const candidate of known.values()) {
      if (editDistance(word, candidate, limit) > limit) continue;
      if (found !== null) return word;
      found = candidate;
    }
    return found ?? word;
  });
}
