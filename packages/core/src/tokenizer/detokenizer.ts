/**
 * Streaming detokenization: token ids arrive one by one, text leaves only in whole characters.
 */
import type { DecodeOptions, RtoolTokenizer } from "./tokenizer";

/**
 * Turns a stream of token ids into text, holding back the bytes of a character that is not
 * complete yet (a CJK character or emoji split over tokens). The concatenation of every
 * {@link IncrementalDetokenizer.push} and the final {@link IncrementalDetokenizer.flush} equals
 * `tokenizer.decode(allIds)`.
 * @example
 * const detok = new IncrementalDetokenizer(tokenizer);
 * for (const id of ids) process.stdout.write(detok.push(id));
 * process.stdout.write(detok.flush());
 */
export class IncrementalDetokenizer {
  private decoder = new TextDecoder("utf-8");
  private text = "";

  constructor(
    private readonly tokenizer: RtoolTokenizer,
    private readonly options: DecodeOptions = {},
  ) {}

  /** Feeds one or more ids; returns the text they complete ("" while a character is still open). */
  push(ids: number | readonly number[]): string {
    const list = typeof ids === "number" ? [ids] : ids;
    const chunk = this.decoder.decode(this.tokenizer.decodeBytes(list, this.options), { stream: true });
    this.text += chunk;
    return chunk;
  }

  /** Ends the stream: returns what was held back (U+FFFD for a character cut off), and resets. */
  flush(): string {
    const rest = this.decoder.decode();
    this.decoder = new TextDecoder("utf-8");
    this.text = "";
    return rest;
  }

  /** All text emitted since the start (or the last flush). */
  get emitted(): string {
    return this.text;
  }
}
