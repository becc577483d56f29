import {
  ASR_CONFUSIONS_EN,
  ASR_CONFUSIONS_ZH,
  type FrameFamily,
  HELDOUT_FRAMES,
  TRAIN_FRAMES,
} from "./frames";
import type { Prng } from "./prng";
import { swapSynonyms } from "./synonyms";
import type { Lang, Split } from "./types";

/**
 * Phrasing helpers shared by every generator: template choice with held-out reservations,
 * politeness wrappers and ASR-like noise that never touches the values the model must copy.
 */
export class Phrasing {
  constructor(
    readonly rng: Prng,
    readonly lang: Lang,
    readonly split: Split,
  ) {}

  /**
   * Picks a template. In lists of four or more, every fourth template is reserved for the
   * held-out split, so held-out accuracy measures phrasings the model never saw.
   */
  choose(templates: readonly string[]): string {
    if (templates.length < 4) return this.rng.pick(templates);
    const reserved = templates.filter((_, i) => i % 4 === 3);
    const trainable = templates.filter((_, i) => i % 4 !== 3);
    if (this.split === "train") return this.rng.pick(trainable);
    if (this.split === "families") return this.rng.pick(templates);
    return this.rng.chance(0.6) ? this.rng.pick(reserved) : this.rng.pick(templates);
  }

  /**
   * Builds a query: on a quarter of English training items swaps command words for WordNet
   * synonyms (`synonyms.ts`), fills `loose` slots (which noise may alter: verbs, synonyms, names the
   * model must match loosely), adds politeness, applies noise, then fills `exact` slots
   * (numbers, quoted speech) which are copied verbatim into the target.
   */
  say(
    template: string,
    loose: Record<string, string> = {},
    exact: Record<string, string> = {},
    noise = 1,
  ): string {
    // training items only: held-out and family requests never get a swap
    const worded =
      this.lang === "en" && this.split === "train" && this.rng.chance(0.25)
        ? swapSynonyms(template, this.rng)
        : template;
    let text = fillSlots(worded, loose);
    text = this.polite(text);
    if (this.rng.chance(0.35 * noise)) text = this.noisy(text);
    return fillSlots(text, exact);
  }

  /**
   * Wraps a command in a polite, hurried, casual or indirect frame, in the query's language.
   * Train and template held-out items draw from `TRAIN_FRAMES`; the `families` split always
   * uses a family of `HELDOUT_FRAMES`, which training never sees.
   */
  polite(text: string): string {
    const r = this.rng;
    if (this.split === "families") return this.frame(text, HELDOUT_FRAMES);
    if (r.chance(0.3)) return this.frame(text, TRAIN_FRAMES);
    if (this.lang === "en") {
      if (r.chance(0.55)) return text;
      const pre = r.pick([
        "please ",
        "Please ",
        "can you ",
        "could you ",
        "hey, ",
        "ok ",
        "okay, ",
        "now ",
        "quick, ",
        "alright, ",
        "right, ",
        "um, ",
        "I need you to ",
        "go ahead and ",
      ]);
      const post = r.pick([
        "",
        "",
        " please",
        " now",
        ", thanks",
        ", thank you",
        "!",
        ".",
        " asap",
        " right away",
      ]);
      const body =
        /^[A-Z][a-z]/.test(text) && !/^[A-Z][a-z]+[,:]/.test(text)
          ? text[0]!.toLowerCase() + text.slice(1)
          : text;
      return pre + body + post;
    }
    if (r.chance(0.55)) return text;
    const pre = r.pick(["请", "麻烦", "帮我", "快", "现在", "那个，", "好，", "嗯，", "赶紧"]);
    const post = r.pick(["", "", "吧", "，谢谢", "！", "。", "一下", "，快点", "哈"]);
    return pre + text + post;
  }

  /** Puts `text` into a frame of one of `families` (in the query's language). */
  frame(text: string, families: readonly FrameFamily[]): string {
    const own = families.filter((f) => f.lang === this.lang);
    const frame = this.rng.pick(this.rng.pick(own).frames);
    const body =
      this.lang === "en" &&
      /^[A-Z][a-z]/.test(text) &&
      !/^[A-Z][a-z]+[,:]/.test(text) &&
      !frame.startsWith("{cmd}")
        ? text[0]!.toLowerCase() + text.slice(1)
        : text;
    return frame.replace("{cmd}", () => body);
  }

  /** ASR-like damage: casing, dropped punctuation, letter slips. Slots `{x}` are kept intact. */
  noisy(text: string): string {
    const r = this.rng;
    const parts = text.split(/(\{[a-z_0-9]+\})/);
    const kind = r.int(0, 4);
    return parts
      .map((p) => {
        if (/^\{[a-z_0-9]+\}$/.test(p)) return p;
        if (kind === 0) return p.toLowerCase();
        if (kind === 1) return p.replace(/[.,!?;:，。！？]/g, "");
        if (kind === 2) return this.lang === "en" ? p.toUpperCase() : p.replace(/[，。！？]/g, " ");
        if (kind === 3)
          return this.lang === "en"
            ? slipLetters(mishear(p, ASR_CONFUSIONS_EN, r), r)
            : mishear(p, ASR_CONFUSIONS_ZH, r);
        return p.toLowerCase().replace(/[.,!?]/g, "");
      })
      .join("");
  }
}

/** Replaces `{name}` slots; unknown slots are left for a later fill. */
export function fillSlots(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-z_0-9]+)\}/g, (m, key: string) => values[key] ?? m);
}

/** Swaps words for what a speech recogniser might hear instead (`move` → `moove`, 移动 → 一动). */
function mishear(text: string, pairs: readonly (readonly [string, string])[], r: Prng): string {
  let out = text;
  for (const [right, wrong] of pairs) {
    if (!out.includes(right) || !r.chance(0.5)) continue;
    const word = /^[a-z]+$/i.test(right) ? new RegExp(`\\b${right}\\b`, "g") : new RegExp(right, "g");
    out = out.replace(word, wrong);
  }
  return out;
}

function slipLetters(text: string, r: Prng): string {
  return text.replace(/[a-z]{4,}/g, (word) => {
    if (!r.chance(0.3)) return word;
    const i = r.int(1, word.length - 2);
    const op = r.int(0, 2);
    if (op === 0) return word.slice(0, i) + word.slice(i + 1);
    if (op === 1) return word.slice(0, i) + word[i] + word.slice(i);
    return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  });
}
