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

/** A made-up proper name, capitalised (`Vaelix`), sometimes with a digit tag (`Kora7`). */
export function coinedName(r: Prng): string {
  const w = coinedWord(r, r.int(2, 3));
  const name = w[0]!.toUpperCase() + w.slice(1);
  return r.chance(0.1) ? `${name}${r.int(1, 99)}` : name;
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
