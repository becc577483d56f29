/**
 * onnxruntime-node as @rtool/core resolves it (the bench scripts live outside any package, so
 * they borrow core's dependency instead of declaring their own copy).
 */
import { createRequire } from "node:module";

type Ort = typeof import("../../packages/core/node_modules/onnxruntime-node");

/** The onnxruntime-node module @rtool/core uses. */
export const ort: Ort = createRequire(new URL("../../packages/core/package.json", import.meta.url))(
  "onnxruntime-node",
);
