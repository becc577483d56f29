/**
 * Reads a Hugging Face `config.json` (Qwen2, Qwen2.5, Qwen3 dense) into a validated {@link QwenConfig},
 * and `generation_config.json` into {@link GenerationConfig}, from disk; the parsing itself is
 * in `parse-config.ts`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "./errors";
import { type GenerationConfig, parseGenerationConfig, parseQwenConfig } from "./parse-config";
import type { QwenConfig } from "./types";

export { type GenerationConfig, parseGenerationConfig, parseQwenConfig } from "./parse-config";

type Json = Record<string, unknown>;

/** Reads and parses a JSON object file; a missing or malformed file is a {@link ConfigError}. */
function readJsonObject(file: string): Json {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new ConfigError(`${file}: cannot read (${(cause as Error).message})`, { file }, { cause });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`${file}: not valid JSON (${(cause as Error).message})`, { file }, { cause });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigError(`${file}: expected a JSON object`, { file });
  }
  return value as Json;
}

/**
 * Reads `<dir>/config.json`.
 * @throws {ConfigError} missing, malformed or invalid file
 * @example
 * const config = readQwenConfig("models/qwen3-0.6b");
 */
export function readQwenConfig(dir: string): QwenConfig {
  const file = join(dir, "config.json");
  return parseQwenConfig(readJsonObject(file), file);
}

/**
 * Reads `<dir>/generation_config.json` when present.
 * @returns the parsed config, or `undefined` when the directory has none
 * @throws {ConfigError} the file exists but is malformed
 * @example
 * const stopIds = readGenerationConfig(dir)?.eosTokenIds ?? [];
 */
export function readGenerationConfig(dir: string): GenerationConfig | undefined {
  const file = join(dir, "generation_config.json");
  if (!existsSync(file)) return undefined;
  return parseGenerationConfig(readJsonObject(file), file);
}
