/**
 * The `tokenizers` npm package, resolved through @rtool/core's dependency (tools/ is not a
 * workspace package), so the datasets are tokenised by the very library the server uses.
 */
import { createRequire } from "node:module";
import { join } from "node:path";

type TokenizersModule = typeof import("../../../packages/core/node_modules/tokenizers/index.js");

const requireFromCore = createRequire(
  join(import.meta.dir, "..", "..", "..", "packages", "core", "package.json"),
);

export const tokenizers = requireFromCore("tokenizers") as TokenizersModule;
export type Tokenizer = InstanceType<TokenizersModule["Tokenizer"]>;

/** Loads a tokenizer.json text. */
export function loadTokenizer(json: string): Tokenizer {
  return tokenizers.Tokenizer.fromString(json);
}
