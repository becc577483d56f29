import type { Prng } from "./prng";

/**
 * Coined names for the copy curriculum: words the model has never seen as a unit, so the only
 * way to answer is to copy them from the environment or the query. With rt-tiny 2's tokenizer
 * (spaces and CJK characters are pieces of their own) a name is the same token sequence
 * wherever it appears, which is what makes copying learnable.
 */
const ONSETS = [
  "b",
  "br",
  "d",
  "dr",
  "f",
  "g",
  "gr",
  "k",
  "kr",
  "l",
  "m",
  "n",
  "p",
  "pl",
  "r",
  "s",
  "st",
  "t",
  "tr",
  "v",
  "z",
  "sh",
  "ch",
  "x",
  "qu",
  "h",
  "j",
  "y",
  "w",
];
const VOWELS = ["a", "e", "i", "o", "u", "ai", "ei", "ou", "ia", "ae", "y"];
const CODAS = ["", "", "", "n", "r", "s", "x", "l", "k", "th", "m", "nd", "st"];

/** A pronounceable made-up word of 1-3 syllables, e.g. `zorvek`, `plaithus`. */
export function coinedWord(r: Prng, syllables = r.int(1, 3)): string {
  let s = "";
  for (let i = 0; i < syllables; i++)
    s += r.pick(ONSETS) + r.pick(VOWELS) + (i === syllables - 1 || r.chance(0.3) ? r.pick(CODAS) : "");
  return s;
}

const capitalised = (w: string) => w[0]!.toUpperCase() + w.slice(1);

/**
 * A made-up proper name in the shapes players give units and callsigns: mostly capitalised
 * (`Vaelix`), else with a digit tag (`Kora7`), a hyphenated tag (`Nyx-7`, `Vael-Tor`), two
 * capitalised parts run together (`BrisKethel`) or an apostrophe (`D'vora`). The rarer shapes
 * matter because their pieces tokenize unlike a plain word, and a name must be copied whole.
 */
export function coinedName(r: Prng): string {
  const name = capitalised(coinedWord(r, r.int(2, 3)));
  const shape = r.next();
  if (shape < 0.7) return name;
  if (shape < 0.78) return `${name}${r.int(1, 99)}`;
  const short = capitalised(coinedWord(r, 1));
  if (shape < 0.88) return `${short}-${r.int(1, 99)}`;
  if (shape < 0.93) return `${short}-${capitalised(coinedWord(r, 1))}`;
  if (shape < 0.97) return `${short}${capitalised(coinedWord(r, r.int(1, 2)))}`;
  return `${short[0]}'${coinedWord(r, 2)}`;
}

/** Vowels and consonant spellings that sound alike, for misheard names (`Nyx` -> `nix`). */
const SOUND_ALIKE: readonly (readonly [RegExp, string])[] = [
  [/y/i, "i"],
  [/i/i, "y"],
  [/ph/i, "f"],
  [/c/i, "k"],
  [/k/i, "c"],
  [/x/i, "ks"],
  [/ae/i, "ay"],
  [/ei/i, "ay"],
  [/ou/i, "ow"],
  [/th/i, "t"],
];

/**
 * A name as a speech recogniser or a hurried typist renders it, which the model must still
 * resolve to the environment's spelling: lower-cased, a letter dropped, doubled or swapped, a
 * sound-alike spelling, split into two words (`bramble wick`), or a tag's hyphen spoken as a
 * pause (`nyx 7`, `Nyx7`). Names without Latin letters come back unchanged.
 */
export function mishearName(r: Prng, name: string): string {
  if (!/^[A-Za-z][A-Za-z'-]*[0-9]*$/.test(name)) return name;
  const lower = r.chance(0.5);
  const cased = (s: string) => (lower ? s.toLowerCase() : s);
  const tag = /^(.+?)-?([0-9]+)$/.exec(name);
  if (tag && r.chance(0.6)) return cased(`${tag[1]}${r.pick([" ", "", " ", "-"])}${tag[2]}`);
  if (name.includes("-") && r.chance(0.6)) return cased(name.replace("-", r.pick([" ", ""])));
  const op = r.int(0, 5);
  if (op === 0) return name.toLowerCase();
  const i = r.int(1, Math.max(1, name.length - 2));
  if (op === 1) return cased(name.slice(0, i) + name.slice(i + 1));
  if (op === 2) return cased(name.slice(0, i) + name[i] + name.slice(i));
  if (op === 3) return cased(name.slice(0, i) + (name[i + 1] ?? "") + name[i] + name.slice(i + 2));
  if (op === 4 && name.length >= 6 && /^[A-Za-z]+$/.test(name)) {
    const at = r.int(3, name.length - 3);
    return cased(`${name.slice(0, at)} ${name.slice(at)}`);
  }
  const sounds = SOUND_ALIKE.filter(([from]) => from.test(name.slice(1)));
  if (sounds.length === 0) return name.toLowerCase();
  const [from, to] = r.pick(sounds);
  return cased(name[0] + name.slice(1).replace(from, to));
}

// Common characters that read as names or object words; any two or three of them make a name
// the model has not seen as a whole.
const ZH_CHARS =
  "安白北贝冰波采辰晨春丹德东冬朵尔凡方飞枫风峰光海寒禾河黑红虹华辉火吉佳嘉金锦晶景静菊卡凯坎可克空蓝朗雷莉丽莲林灵铃龙露鲁洛玛梅米敏明墨木娜楠妮诺欧帕佩琪琴青清晴秋泉瑞若萨森沙珊石诗书霜水丝松苏索塔泰天通图娃婉薇维文雯希夕溪霞夏香小晓心星雪雅岩燕扬瑶叶伊逸银英影雨玉元月云泽哲珍真芝知智竹紫";

/** A made-up Chinese name of 2-4 characters, e.g. `星瑶`, `墨卡洛`. */
export function coinedZh(r: Prng, length = r.int(2, 4)): string {
  let s = "";
  for (let i = 0; i < length; i++) s += ZH_CHARS[r.int(0, ZH_CHARS.length - 1)];
  return s;
}

/** An id or code as factories and games write them: `K-17`, `unit 4B`, `A3`. */
export function coinedCode(r: Prng): string {
  const letters = "ABCDEFGHJKLMNPQRSTUVWXYZ";
  const l = () => letters[r.int(0, letters.length - 1)]!;
  return r.pick([
    `${l()}-${r.int(1, 99)}`,
    `${l()}${r.int(1, 9)}`,
    `${l()}${l()}${r.int(10, 999)}`,
    `${r.int(1, 9)}${l()}`,
  ]);
}
