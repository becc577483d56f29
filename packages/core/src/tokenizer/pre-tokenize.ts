/**
 * Normalizers and pre-tokenizers of a Hugging Face `tokenizer.json`, for the byte-level BPE
 * family Qwen uses: NFC normalization, regex `Split` (Isolated), and `ByteLevel`.
 * Anything else is refused with a {@link TokenizerError} rather than tokenized differently.
 */
import { TokenizerError } from "../model/errors";
import { regexLiteral } from "../regex-literal";
import { toByteLevel } from "./byte-level";

/** Turns normalized text into byte-level pieces, each then encoded by BPE on its own. */
export type PreTokenizer = (text: string) => string[];

/** The GPT-2 pattern `ByteLevel` splits with when `use_regex` is true. */
export const GPT2_SPLIT_PATTERN =
  "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

/**
 * Compiles an Oniguruma-style pattern from `tokenizer.json` to a JavaScript regex. `\s` becomes
 * `\p{White_Space}` because the two engines disagree on U+0085 and U+FEFF; `(?i:…)` groups are
 * expanded by hand when the engine lacks inline modifiers.
 */
export function compileSplitPattern(pattern: string, file: string): RegExp {
  let translated = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\" && i + 1 < pattern.length) {
      const next = pattern[++i];
      translated += next === "s" ? "\\p{White_Space}" : next === "S" ? "\\P{White_Space}" : `\\${next}`;
    } else {
      translated += char;
    }
  }
  try {
    return new RegExp(translated, "gu");
  } catch {
    try {
      return new RegExp(expandCaseInsensitiveGroups(translated), "gu");
    } catch (cause) {
      throw new TokenizerError(
        `${file}: pre-tokenizer pattern ${JSON.stringify(pattern)} cannot be compiled (${(cause as Error).message})`,
        { file, field: "pre_tokenizer" },
        { cause },
      );
    }
  }
}

/** `(?i:'s|'t)` -> `(?:'[sS]|'[tT])`, for groups of plain literals only. */
function expandCaseInsensitiveGroups(pattern: string): string {
  return pattern.replace(/\(\?i:([^()[\]\\]*)\)/g, (_, body: string) => {
    const expanded = body.replace(/[a-zA-Z]/g, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
    return `(?:${expanded})`;
  });
}

/** Splits `text` into the regex's matches and the gaps between them (HF behaviour `Isolated`). */
export function splitIsolated(text: string, regex: RegExp): string[] {
  const pieces: string[] = [];
  let last = 0;
  regex.lastIndex = 0;
  for (const match of text.matchAll(regex)) {
    const start = match.index ?? 0;
    if (match[0].length === 0) continue;
    if (start > last) pieces.push(text.slice(last, start));
    pieces.push(match[0]);
    last = start + match[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

type Json = Record<string, unknown>;

function unsupported(file: string, field: string, what: unknown): never {
  throw new TokenizerError(`${file}: unsupported ${field} ${JSON.stringify(what)}`, { file, field });
}

/**
 * The normalizer function of a `normalizer` entry: none, `NFC`, or a `Sequence` of those.
 * @throws {TokenizerError} any other normalizer
 */
export function compileNormalizer(spec: unknown, file: string): (text: string) => string {
  if (spec === null || spec === undefined) return (text) => text;
  const entry = spec as Json;
  if (entry.type === "NFC") return (text) => text.normalize("NFC");
  if (entry.type === "Sequence" && Array.isArray(entry.normalizers)) {
    const steps = entry.normalizers.map((step) => compileNormalizer(step, file));
    return (text) => steps.reduce((value, step) => step(value), text);
  }
  return unsupported(file, "normalizer", entry.type ?? spec);
}

/**
 * The pre-tokenizer of a `pre_tokenizer` entry. Supported: `ByteLevel` (without prefix space) alone,
 * or a `Sequence` of `Split` (regex, Isolated) steps ending in `ByteLevel`.
 * @throws {TokenizerError} any other pre-tokenizer, or no ByteLevel step
 */
export function compilePreTokenizer(spec: unknown, file: string): PreTokenizer {
  const entry = (spec ?? {}) as Json;
  const steps =
    entry.type === "Sequence" && Array.isArray(entry.pretokenizers) ? entry.pretokenizers : [spec];
  const splits: RegExp[] = [];
  let byteLevel = false;
  steps.forEach((step, index) => {
    const s = (step ?? {}) as Json;
    if (s.type === "Split") {
      const pattern = (s.pattern as Json | undefined)?.Regex ?? (s.pattern as Json | undefined)?.String;
      if (typeof pattern !== "string" || s.behavior !== "Isolated" || s.invert === true) {
        unsupported(file, "pre_tokenizer Split", {
          pattern: s.pattern,
          behavior: s.behavior,
          invert: s.invert,
        });
      }
      const isRegex = typeof (s.pattern as Json).Regex === "string";
      splits.push(isRegex ? compileSplitPattern(pattern, file) : new RegExp(regexLiteral(pattern), "gu"));
    } else if (s.type === "ByteLevel" && index === steps.length - 1) {
      if (s.add_prefix_space === true)
        unsupported(file, "pre_tokenizer ByteLevel", { add_prefix_space: true });
      if (s.use_regex !== false) splits.push(compileSplitPattern(GPT2_SPLIT_PATTERN, file));
      byteLevel = true;
    } else {
      unsupported(file, "pre_tokenizer", s.type ?? step);
    }
  });
  if (!byteLevel) unsupported(file, "pre_tokenizer (a ByteLevel step is required)", entry.type ?? spec);
  return (text) => {
    let pieces = [text];
    for (const regex of splits) pieces = pieces.flatMap((piece) => splitIsolated(piece, regex));
    return pieces.map(toByteLevel);
  };
}
