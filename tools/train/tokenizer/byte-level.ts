/**
 * GPT-2's byte-to-character table: every byte maps to a printable character, so byte-level
 * BPE tokens are plain strings (a space is `Ġ`, a newline `Ċ`). HF's ByteLevel pre-tokenizer
 * and decoder use the same table, which is what makes our vocab load in `tokenizers`.
 */
export const BYTE_TO_CHAR: readonly string[] = buildTable();

const encoder = new TextEncoder();

/** The byte-level spelling of a text: its UTF-8 bytes, each as its table character. */
export function toByteLevel(text: string): string {
  let out = "";
  for (const b of encoder.encode(text)) out += BYTE_TO_CHAR[b];
  return out;
}

function buildTable(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const table: string[] = new Array(256);
  for (const b of printable) table[b] = String.fromCharCode(b);
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (table[b] === undefined) {
      table[b] = String.fromCharCode(256 + n);
      n++;
    }
  }
  return table;
}
