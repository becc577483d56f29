/**
 * What a page needs to run rt-tiny itself (`?engine=in-page`): the worker bundle, the model's
 * files and onnxruntime-web's WASM binary. The worker is bundled on first request, so a page on
 * the server engine never pays for it.
 */
import { basename, dirname, join } from "node:path";
import { RT_TINY_DIR } from "@rtool/model-rt-tiny";
import { bundleClient } from "./bundle";

const MODEL_FILES = new Set(["config.json", "tokenizer.json", "model.safetensors", "generation_config.json"]);
/**
 * The WASM build `onnxruntime-web/wasm` loads (SIMD, threads when isolated) and its JavaScript
 * glue, which it imports from the same `wasmPaths` prefix.
 */
const ORT_FILES: Record<string, string> = {
  "ort-wasm-simd-threaded.wasm": "application/wasm",
  "ort-wasm-simd-threaded.mjs": "text/javascript; charset=utf-8",
};

/**
 * A handler for the in-page routes: `/in-page-worker.js`, `/models/rt-tiny/<file>` and
 * `/ort/<wasm and glue>`; null for any other path.
 */
export function inPageAssets(minify = false): (pathname: string) => Promise<Response> | null {
  let worker: Promise<string> | null = null;
  const ortDir = dirname(Bun.resolveSync("onnxruntime-web/wasm", import.meta.dir));
  return (pathname) => {
    if (pathname === "/in-page-worker.js") {
      worker ??= bundleClient("in-page-worker.ts", minify);
      return worker.then(
        (code) => new Response(code, { headers: { "content-type": "text/javascript; charset=utf-8" } }),
      );
    }
    if (pathname.startsWith("/models/rt-tiny/") && MODEL_FILES.has(basename(pathname))) {
      return Promise.resolve(new Response(Bun.file(join(RT_TINY_DIR, basename(pathname)))));
    }
    const ortType = pathname.startsWith("/ort/") ? ORT_FILES[basename(pathname)] : undefined;
    if (ortType) {
      const file = Bun.file(join(ortDir, basename(pathname)));
      return Promise.resolve(new Response(file, { headers: { "content-type": ortType } }));
    }
    return null;
  };
}
