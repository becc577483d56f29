/**
 * Reading `tokenizer.json` from disk (Node/Bun). Kept apart from `RtoolTokenizer` so the class,
 * which the browser entry needs, imports nothing Node-only.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TokenizerError } from "../model/errors";
import { RtoolTokenizer } from "./tokenizer";

/**
 * Reads `<dir>/tokenizer.json`.
 * @throws {TokenizerError} missing, malformed or unsupported file
 * @example
 * const tokenizer = loadTokenizer("models/qwen2.5-0.5b-instruct");
 * tokenizer.decode(tokenizer.encode("你好")); // "你好"
 */
export function loadTokenizer(dir: string): RtoolTokenizer {
  return readTokenizerFile(join(dir, "tokenizer.json"));
}

/**
 * Reads a `tokenizer.json` file by path.
 * @throws {TokenizerError} missing, malformed or unsupported file
 */
export function readTokenizerFile(file: string): RtoolTokenizer {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new TokenizerError(
      `${file}: cannot read tokenizer (${(cause as Error).message})`,
      { file },
      { cause },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new TokenizerError(`${file}: not valid JSON (${(cause as Error).message})`, { file }, { cause });
  }
  return new RtoolTokenizer(json, file);
}
