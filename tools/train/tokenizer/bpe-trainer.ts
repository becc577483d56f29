import { BYTE_TO_CHAR, toByteLevel } from "./byte-level";
import { preTokenize } from "./pretokenize";
import { splitOnSpecialTokens } from "./special-tokens";

/** A trained byte-level BPE: token strings in id order and merges in rank order. */
export interface BpeModel {
  vocab: string[];
  merges: [string, string][];
}

/** Counts pre-tokenized byte-level words of texts, weighting each text by its count. */
export class WordCounter {
  readonly counts = new Map<string, number>();

  /** Adds `text` (special tokens are skipped: they are added tokens, not merged). */
  add(text: string, weight = 1): void {
    const parts = splitOnSpecialTokens(text);
    for (let i = 0; i < parts.length; i += 2) {
      for (const piece of preTokenize(parts[i]!)) {
        const word = toByteLevel(piece);
        this.counts.set(word, (this.counts.get(word) ?? 0) + weight);
      }
    }
  }
}

/** Max-heap of (count, pair) with lazy deletion: stale entries are skipped on pop. */
class PairHeap {
  private counts: number[] = [];
  private keys: number[] = [];

  push(count: number, key: number): void {
    this.counts.push(count);
    this.keys.push(key);
    let i = this.counts.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.above(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  pop(): [number, number] | undefined {
    if (this.counts.length === 0) return undefined;
    const top: [number, number] = [this.counts[0]!, this.keys[0]!];
    const lastC = this.counts.pop()!;
    const lastK = this.keys.pop()!;
    if (this.counts.length > 0) {
      this.counts[0] = lastC;
      this.keys[0] = lastK;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.counts.length && this.above(l, m)) m = l;
        if (r < this.counts.length && this.above(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }

  /** Higher count first; ties by the smaller pair key, so training is deterministic. */
  private above(i: number, j: number): boolean {
    const ci = this.counts[i]!;
    const cj = this.counts[j]!;
    return ci > cj || (ci === cj && this.keys[i]! < this.keys[j]!);
  }

  private swap(i: number, j: number): void {
    [this.counts[i], this.counts[j]] = [this.counts[j]!, this.counts[i]!];
    [this.keys[i], this.keys[j]] = [this.keys[j]!, this.keys[i]!];
  }
}

const KEY = 1 << 16;

/**
 * Trains byte-level BPE merges on counted words until the vocabulary holds `vocabSize`
 * tokens (the 256 byte tokens included) or no pair occurs twice. Pair counts are updated
 * incrementally: a merge touches only the words that contain its pair.
 *
 * @example
 * const words = new WordCounter();
 * words.add("move to 300, 150", 10);
 * const bpe = trainBpe(words.counts, 300);
 */
export function trainBpe(wordCounts: Map<string, number>, vocabSize: number): BpeModel {
  if (vocabSize >= KEY) throw new RangeError(`vocabSize must be below ${KEY}`);
  const vocab: string[] = [...BYTE_TO_CHAR];
  const idOf = new Map<string, number>(vocab.map((t, i) => [t, i]));
  const merges: [string, string][] = [];
  const words: number[][] = [];
  const freq: number[] = [];
  for (const [word, count] of [...wordCounts.entries()].sort((a, b) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0,
  )) {
    words.push([...word].map((ch) => idOf.get(ch)!));
    freq.push(count);
  }
  const pairCount = new Map<number, number>();
  const pairWords = new Map<number, Set<number>>();
  const addPair = (key: number, w: number, delta: number) => {
    pairCount.set(key, (pairCount.get(key) ?? 0) + delta);
    if (delta > 0) {
      let set = pairWords.get(key);
      if (!set) {
        set = new Set();
        pairWords.set(key, set);
      }
      set.add(w);
    }
  };
  words.forEach((sym, w) => {
    for (let i = 0; i + 1 < sym.length; i++) addPair(sym[i]! * KEY + sym[i + 1]!, w, freq[w]!);
  });
  const heap = new PairHeap();
  for (const [key, count] of pairCount) heap.push(count, key);

  while (vocab.length < vocabSize) {
    const top = heap.pop();
    if (!top) break;
    const [count, key] = top;
    if (pairCount.get(key) !== count) continue;
    if (count < 2) break;
    const a = Math.floor(key / KEY);
    const b = key % KEY;
    const merged = vocab[a]! + vocab[b]!;
    let id = idOf.get(merged);
    if (id === undefined) {
      id = vocab.length;
      vocab.push(merged);
      idOf.set(merged, id);
    }
    merges.push([vocab[a]!, vocab[b]!]);
    const touched = new Set<number>();
    for (const w of pairWords.get(key) ?? []) {
      const sym = words[w]!;
      const f = freq[w]!;
      let has = false;
      for (let i = 0; i + 1 < sym.length; i++) if (sym[i] === a && sym[i + 1] === b) has = true;
      if (!has) continue;
      for (let i = 0; i + 1 < sym.length; i++) {
        const k = sym[i]! * KEY + sym[i + 1]!;
        addPair(k, w, -f);
        touched.add(k);
      }
      const next: number[] = [];
      for (let i = 0; i < sym.length; i++) {
        if (i + 1 < sym.length && sym[i] === a && sym[i + 1] === b) {
          next.push(id);
          i++;
        } else next.push(sym[i]!);
      }
      words[w] = next;
      for (let i = 0; i + 1 < next.length; i++) {
        const k = next[i]! * KEY + next[i + 1]!;
        addPair(k, w, f);
        touched.add(k);
      }
    }
    pairCount.delete(key);
    pairWords.delete(key);
    for (const k of touched) {
      const c = pairCount.get(k);
      if (c === undefined) continue;
      if (c <= 0) {
        pairCount.delete(k);
        pairWords.delete(k);
      } else heap.push(c, k);
    }
  }
  return { vocab, merges };
}
