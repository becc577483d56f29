/**
 * On-disk cache of built decoder graphs. A model directory's graph is built once; later loads
 * open the cached `model.onnx` (+ `model.onnx.data`). The key covers everything the graph is made
 * from: config.json, each weight file's name, size, mtime and safetensors header, rtool's version
 * and the graph builder's version (and a caller-given variant, e.g. the quantization).
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { VERSION } from "../version";
import { QWEN_GRAPH_VERSION } from "./qwen";

/** File name of a cached graph inside its key directory. */
export const CACHED_MODEL_FILE = "model.onnx";

/**
 * The cache root: `$RTOOL_CACHE_DIR`, else `~/.cache/rtool/graphs`; under a test runner
 * (`NODE_ENV=test`, which `bun test` sets) the default is in the temporary directory instead, so
 * no test suite writes model graphs into a home directory.
 */
export function graphCacheRoot(): string {
  const fromEnv = process.env.RTOOL_CACHE_DIR;
  if (fromEnv && fromEnv.length > 0) return fromEnv;
  if (process.env.NODE_ENV === "test") return join(tmpdir(), "rtool-test-cache", "graphs");
  return join(homedir(), ".cache", "rtool", "graphs");
}

/** The safetensors header bytes of a file (length prefix and JSON), read without the tensor data. */
function safetensorsHeader(path: string): Buffer {
  const fd = openSync(path, "r");
  try {
    const prefix = Buffer.alloc(8);
    if (readSync(fd, prefix, 0, 8, 0) < 8) return prefix;
    const length = Number(prefix.readBigUInt64LE(0));
    const size = statSync(path).size;
    const header = Buffer.alloc(Math.max(0, Math.min(length, size - 8)));
    readSync(fd, header, 0, header.length, 8);
    return Buffer.concat([prefix, header]);
  } finally {
    closeSync(fd);
  }
}

/**
 * The cache key of a model directory: a sha256 hex digest.
 *
 * @example
 * ```ts
 * const key = graphCacheKey("models/qwen3-0.6b", "fp32");
 * ```
 */
export function graphCacheKey(modelDir: string, variant = ""): string {
  const hash = createHash("sha256");
  hash.update(`rtool ${VERSION}\ngraph ${QWEN_GRAPH_VERSION}\nvariant ${variant}\n`);
  hash.update(readFileSync(join(modelDir, "config.json")));
  const weightFiles = readdirSync(modelDir)
    .filter((f) => f.endsWith(".safetensors") || f === "model.safetensors.index.json")
    .sort();
  for (const file of weightFiles) {
    const path = join(modelDir, file);
    const stat = statSync(path);
    hash.update(`\n${file} ${stat.size} ${stat.mtimeMs}\n`);
    hash.update(file.endsWith(".safetensors") ? safetensorsHeader(path) : readFileSync(path));
  }
  return hash.digest("hex");
}

/** Removes a cache entry (e.g. one ONNX Runtime could not load). */
export function removeCachedGraph(key: string, root = graphCacheRoot()): void {
  rmSync(join(root, key), { recursive: true, force: true });
}

/** Where a key's graph lives. */
export function cachedGraphPath(key: string, root = graphCacheRoot()): string {
  return join(root, key, CACHED_MODEL_FILE);
}

/** The cached graph's path when it is complete on disk, else undefined. */
export function findCachedGraph(key: string, root = graphCacheRoot()): string | undefined {
  const path = cachedGraphPath(key, root);
  return existsSync(path) ? path : undefined;
}

/**
 * Stores a graph under `key`: `write(dir)` writes `model.onnx` (+ data) into a fresh temporary
 * directory that is then renamed into place, so a crash never leaves a half-written cache entry
 * and concurrent builders do not corrupt each other.
 */
export function storeCachedGraph(key: string, write: (dir: string) => void, root = graphCacheRoot()): string {
  mkdirSync(root, { recursive: true });
  const staging = join(root, `.staging-${key}-${process.pid}-${Date.now()}`);
  mkdirSync(staging, { recursive: true });
  const final = join(root, key);
  try {
    write(staging);
    try {
      renameSync(staging, final);
    } catch (error) {
      // another process stored the same key first: its entry is complete, use it
      if (!existsSync(join(final, CACHED_MODEL_FILE))) throw error;
    }
    return join(final, CACHED_MODEL_FILE);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
