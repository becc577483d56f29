/**
 * The byte-level alphabet of GPT-2 style BPE (used by Qwen): each of the 256 byte values is shown
 * as one printable character, so that any UTF-8 byte string is a string of vocabulary symbols.
 * Printable Latin-1 bytes stand for themselves; the rest are moved to U+0100 and up (space is "Ġ").
 */

function buildByteToChar(): string[] {
  const printable: number[] = [];
  const push = (from: number, to: number) => {
    for (let b = from; b <= to; b++) printable.push(b);
  };
  push(0x21, 0x7e); // "!".."~"
  push(0xa1, 0xac); // "¡".."¬"
  push(0xae, 0xff); // "®".."ÿ"
  const table: string[] = new Array(256);
  for (const b of printable) table[b] = String.fromCharCode(b);
  let next = 0;
  for (let b = 0; b < 256; b++) {
    if (table[b] === undefined) table[b] = String.fromCharCode(256 + next++);
  }
  return table;
}

/** Character standing for each byte value. */
export const BYTE_TO_CHAR: readonly string[] = buildByteToChar();

/** Byte value of each alphabet character. */
export const CHAR_TO_BYTE: ReadonlyMap<string, number> = new Map(BYTE_TO_CHAR.map((c, b) => [c, b]));

const utf8 = new TextEncoder();

/**
 * Byte-level form of a text: its UTF-8 bytes, each written as its alphabet character.
 * @example
 * toByteLevel(" hi"); // "Ġhi"
 */
export function toByteLevel(text: string): string {
  let out = "";
  for (const byte of utf8.encode(text)) out += BYTE_TO_CHAR[byte];
  return out;
}

/**
 * The bytes a token string stands for. As in Hugging Face's ByteLevel decoder, a token with a
 * character outside the alphabet (an added token such as a CJK word) stands for its own UTF-8.
 * @example
 * byteLevelToBytes("Ġhi"); // Uint8Array [0x20, 0x68, 0x69]
 */
export function byteLevelToBytes(token: string): Uint8Array {
  const bytes = new Uint8Array(token.length);
  let i = 0;
  for (const char of token) {
    const byte = CHAR_TO_BYTE.get(char);
    if (byte === undefined) return utf8.encode(token);
    bytes[i++] = byte;
  }
  return bytes.subarray(0, i);
}
