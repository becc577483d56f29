/**
 * What `--model` names: a Hugging Face model directory, or `rt-tiny`, the embedded default model
 * shipped in the `@rtool/model-rt-tiny` package (served offline, no download).
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** The name of the embedded model. */
export const EMBEDDED_MODEL = "rt-tiny";
const EMBEDDED_PACKAGE = "@rtool/model-rt-tiny";

/** `--model` names nothing loadable. */
export class ModelSourceError extends Error {
  override readonly name = "ModelSourceError";
  constructor(
    readonly model: string,
    message: string,
  ) {
    super(`--model ${model}: ${message}`);
  }
}

/**
 * The directory of a model spec.
 *
 * @example
 * ```ts
 * await resolveModelDir("rt-tiny");       // the embedded model's directory
 * await resolveModelDir("models/qwen3");  // an absolute path, after checking config.json is there
 * ```
 */
export async function resolveModelDir(spec: string): Promise<string> {
  if (spec === EMBEDDED_MODEL) {
    let dir: string;
    try {
      // Imported on demand: serving another model never loads the package.
      dir = (await import("@rtool/model-rt-tiny")).RT_TINY_DIR;
    } catch {
      throw new ModelSourceError(
        spec,
        `the embedded model package ${EMBEDDED_PACKAGE} is not installed; pass --model DIR (a Hugging Face model directory)`,
      );
    }
    if (!existsSync(join(dir, "config.json"))) {
      throw new ModelSourceError(spec, `the embedded model has no config.json in ${dir}; pass --model DIR`);
    }
    return dir;
  }
  const dir = resolve(spec);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ModelSourceError(
      spec,
      "is not a directory (nor rt-tiny); `rtool-server pull REPO_ID` downloads one",
    );
  }
  if (!existsSync(join(dir, "config.json"))) {
    throw new ModelSourceError(spec, "has no config.json; is it a Hugging Face model directory?");
  }
  return dir;
}
