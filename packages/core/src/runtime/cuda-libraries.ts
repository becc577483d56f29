/**
 * Where onnxruntime-node keeps its native libraries, and whether the CUDA provider's are there.
 * They are downloaded by the package's install script, which `ONNXRUNTIME_NODE_INSTALL=skip`
 * skips; checking the files first gives a precise error without ONNX Runtime logging a failure.
 */
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const CUDA_LIBRARIES: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ["libonnxruntime_providers_shared.so", "libonnxruntime_providers_cuda.so"],
  win32: ["onnxruntime_providers_shared.dll", "onnxruntime_providers_cuda.dll"],
};

/** The folder holding onnxruntime-node's binding for this platform, when it can be found. */
export function ortBinaryDir(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve("onnxruntime-node");
    const bin = join(dirname(entry), "..", "bin");
    for (const napi of readdirSync(bin).filter((d) => d.startsWith("napi-v"))) {
      const dir = join(bin, napi, process.platform, process.arch);
      if (existsSync(dir)) return dir;
    }
  } catch {
    // unusual layout: let ONNX Runtime itself report what is missing
  }
  return undefined;
}

/**
 * The CUDA provider libraries missing beside the binding, e.g. `["libonnxruntime_providers_cuda.so"]`;
 * empty when all are present; undefined when this platform or layout cannot be checked.
 *
 * @example
 * ```ts
 * const missing = missingCudaLibraries();
 * if (missing?.length) console.log(`install CUDA support: ${missing.join(", ")} missing`);
 * ```
 */
export function missingCudaLibraries(): { dir: string; missing: string[] } | undefined {
  const names = CUDA_LIBRARIES[process.platform];
  const dir = ortBinaryDir();
  if (!names || !dir) return undefined;
  return { dir, missing: names.filter((name) => !existsSync(join(dir, name))) };
}
