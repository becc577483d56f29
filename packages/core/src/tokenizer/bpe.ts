/**
 * Byte-pair encoding of one pre-tokenized piece: start from single symbols and repeatedly merge
 * the adjacent pair with the best (lowest) merge rank, leftmost first, as Hugging Face's BPE does.
 */
import { TokenizerError } from "../model/errors";

/** Pieces longer than this are not cached (long whitespace runs, pasted data). */
const CACHEABLE_LENGTH = 64;
const CACHE_ENTRIES = 50_000;
/** Ids are packed in pairs into one number key: id < 2^21 keeps keys below 2^42. */
const ID_LIMIT = 2 ** 21;

/** A BPE model: vocabulary and ranked merges, working on token ids. */
export class BpeModel {
  /** (left id, right id) packed -> rank * ID_LIMIT + merged id. */
  private readonly merges = new Map<number, number>();
  private readonly cache = new Map<string, number[]>();

  /**
   * @param vocab token string -> id
   * @param merges `model.merges` as in tokenizer.json: `"a b"` strings or `["a", "b"]` pairs, in rank order
   * @param ignoreMerges a piece found whole in the vocabulary is one token (HF `ignore_merges`)
   * @param file named in errors
   * @throws {TokenizerError} a malformed merge, or one whose parts or result the vocabulary lacks
   */
  constructor(
    readonly vocab: ReadonlyMap<string, number>,
    merges: readonly unknown[],
    private readonly ignoreMerges: boolean,
    private readonly file: string,
  ) {
    for (let rank = 0; rank < merges.length; rank++) {
      const merge = merges[rank];
      let a: unknown;
      let b: unknown;
      if (typeof merge === "string") {
        const space = merge.indexOf(" ");
        if (space > 0) [a, b] = [merge.slice(0, space), merge.slice(space + 1)];
      } else if (Array.isArray(merge) && merge.length === 2) {
        [a, b] = merge;
      }
      if (typeof a !== "string" || typeof b !== "string") {
        this.fail("model.merges", `merge ${rank} is malformed: ${JSON.stringify(merge)}`);
      }
      const left = vocab.get(a);
      const right = vocab.get(b);
      const merged = vocab.get(a + b);
      if (left === undefined || right === undefined || merged === undefined) {
        this.fail("model.merges", `merge ${rank} ("${a}" "${b}") uses or makes a token the vocabulary lacks`);
      }
      const key = left * ID_LIMIT + right;
      if (!this.merges.has(key)) this.merges.set(key, rank * ID_LIMIT + merged);
    }
    for (const id of vocab.values()) {
      if (id >= ID_LIMIT) this.fail("model.vocab", `token id ${id} is beyond the supported ${ID_LIMIT - 1}`);
    }
  }

  private fail(field: string, message: string): never {
    throw new TokenizerError(`${this.file}: ${message}`, { file: this.file, field });
  }

  /**
   * Token ids of one byte-level piece.
   * @throws {TokenizerError} a symbol of the piece has no id (not a byte-level vocabulary)
   */
  encodePiece(piece: string): number[] {
    const cached = this.cache.get(piece);
    if (cached) return cached;
    const ids = this.merge(piece);
    if (piece.length <= CACHEABLE_LENGTH) {
      if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
      this.cache.set(piece, ids);
    }
    return ids;
  }

  private merge(piece: string): number[] {
    if (this.ignoreMerges) {
      const whole = this.vocab.get(piece);
      if (whole !== undefined) return [whole];
    }
    const symbols: number[] = [];
    for (const char of piece) {
      const id = this.vocab.get(char);
      if (id === undefined) this.fail("model.vocab", `symbol ${JSON.stringify(char)} has no token id`);
      symbols.push(id);
    }
    for (;;) {
      let best = Number.POSITIVE_INFINITY;
      let bestAt = -1;
      for (let i = 0; i + 1 < symbols.length; i++) {
        const found = this.merges.get(symbols[i] * ID_LIMIT + symbols[i + 1]);
        if (found !== undefined && found < best) {
          best = found;
          bestAt = i;
        }
      }
      if (bestAt < 0) return symbols;
      // Ranks dominate the packed value, so the smallest value is the best rank.
      symbols.splice(bestAt, 2, best % ID_LIMIT);
    }
  }
}
