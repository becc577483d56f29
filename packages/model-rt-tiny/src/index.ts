/**
 * rt-tiny, rtool's embedded default model: a Hugging Face Qwen3 directory shipped inside this
 * package, so `rtool-server` serves it with no download and loads it like any other checkpoint.
 */
import { join } from "node:path";

/** The name `rtool-server --model rt-tiny` resolves to this package. */
export const RT_TINY_NAME = "rt-tiny";

/**
 * Absolute path of the model directory (`config.json`, `model.safetensors`, `tokenizer.json`, ...),
 * resolved from this file's location at run time, wherever the package is installed.
 *
 * @example
 * import { RT_TINY_DIR } from "@rtool/model-rt-tiny";
 * const model = await loadModel(RT_TINY_DIR);
 */
export const RT_TINY_DIR: string = join(import.meta.dir, "..", "model");
