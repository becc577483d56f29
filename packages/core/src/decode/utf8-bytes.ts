/**
 * UTF-8 at token boundaries. A byte-level tokenizer may split one character over several tokens
 * (most Chinese characters outside its merges take two), so a head can stand in the middle of a
 * character. These rules keep a constrained head's bytes valid UTF-8: once it begins a character
 * it finishes it, and it never writes a byte that continues nothing, so a value never carries
 * U+FFFD that the request did not hold.
 */

const NO_BYTES = new Uint8Array(0);

/** How many bytes the character that `lead` begins has (0 for a byte no character begins with). */
function characterLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0; // a continuation byte, an overlong lead (C0, C1) or past U+10FFFF
}

/**
 * The bytes at the end of `bytes` that begin a UTF-8 character without finishing it (empty when
 * the last character is whole): what a head has written of a character split over tokens.
 */
export function unfinishedCharacter(bytes: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    return characterLength(b) > back ? bytes.subarray(bytes.length - back) : NO_BYTES;
  }
  return NO_BYTES;
}

/**
 * Whether `next` may follow `tail` (an {@link unfinishedCharacter}) in valid UTF-8: it first
 * finishes the begun character with continuation bytes, then holds only whole characters,
 * except that its last one may be begun and left for the next token.
 */
export function continuesUtf8(tail: Uint8Array, next: Uint8Array): boolean {
  let need = tail.length === 0 ? 0 : characterLength(tail[0]!) - tail.length;
  for (const b of next) {
    if (need > 0) {
      if ((b & 0xc0) !== 0x80) return false;
      need--;
      continue;
    }
    const length = characterLength(b);
    if (length === 0) return false;
    need = length - 1;
  }
  return true;
}

export { NO_BYTES };
