/**
 * `loadModel` end to end on the fixtures: golden logits and greedy tokens through the on-disk
 * graph cache (a temporary RTOOL_CACHE_DIR, never the home directory), cache hits, `cache: false`,
 * and the typed errors a caller sees for bad directories and providers.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadProgress } from "../src/create-model";
import { graphCacheKey } from "../src/graph/graph-cache";
import { loadModel } from "../src/load-model";
import { ConfigError, TensorMissingError, TokenizerError } from "../src/model/errors";
import { missingCudaLibraries } from "../src/runtime/cuda-libraries";
import { ProviderUnavailableError, UnknownProviderError } from "../src/runtime/errors";
import type { ProviderRequest } from "../src/runtime/session";
import { maxAbsDiff } from "./tiny-configs";

const fixtures = join(import.meta.dir, "fixtures");
const work = mkdtempSync(join(tmpdir(), "rtool-load-test-"));
const cacheDir = join(work, "cache");
process.env.RTOOL_CACHE_DIR = cacheDir;
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FIXTURES = ["qwen2-gqa", "qwen3-tied", "qwen3-bf16", "qwen2-f16", "qwen3-sharded"];
const cudaInstalled = missingCudaLibraries()?.missing.length === 0;
if (cudaInstalled)
  console.warn(`SKIP ${import.meta.file}: the CUDA-missing test needs a machine without the CUDA libraries`);

function golden(name: string): {
  text: string;
  input_ids: number[];
  logits_last: number[];
  greedy: number[];
} {
  return JSON.parse(readFileSync(join(fixtures, name, "golden.json"), "utf8"));
}

describe("loadModel on every fixture, through the graph cache", () => {
  for (const name of FIXTURES) {
    test(`${name}: golden logits within 1e-4, greedy 8 equal, tokenizer matches, cache hit on reload`, async () => {
      const g = golden(name);
      const stages: string[] = [];
      const onProgress = (p: LoadProgress) => stages.push(p.stage);
      const model = await loadModel(join(fixtures, name), { provider: "cpu", threads: 1, onProgress });
      expect(stages).toEqual(["build-graph", "write-graph", "create-session"]);
      expect(model.runtime.provider).toBe("cpu");
      expect(model.tokenizer.encode(g.text)).toEqual(g.input_ids);
      const { logits } = await model.forward(g.input_ids);
      expect(maxAbsDiff(logits, g.logits_last)).toBeLessThanOrEqual(1e-4);
      expect(await model.generate(g.input_ids, { maxTokens: 8 })).toEqual(g.greedy);
      await model.dispose();

      const key = graphCacheKey(join(fixtures, name), "fp32");
      expect(existsSync(join(cacheDir, key, "model.onnx"))).toBe(true);
      stages.length = 0;
      const again = await loadModel(join(fixtures, name), { threads: 1, onProgress });
      expect(stages).toEqual(["graph-cache-hit", "create-session"]);
      expect(maxAbsDiff((await again.forward(g.input_ids)).logits, logits)).toBe(0);
      await again.dispose();
    });
  }

  test("cache: false builds in memory and writes nothing", async () => {
    const before = readdirSync(cacheDir).length;
    const model = await loadModel(join(fixtures, "qwen3-tied"), { cache: false, threads: 1 });
    const g = golden("qwen3-tied");
    expect(maxAbsDiff((await model.forward(g.input_ids)).logits, g.logits_last)).toBeLessThanOrEqual(1e-4);
    await model.dispose();
    expect(readdirSync(cacheDir).length).toBe(before);
  });

  test("the cache key follows config.json and the weight files", () => {
    const dir = join(work, "copy");
    cpSync(join(fixtures, "qwen2-gqa"), dir, { recursive: true });
    const key = graphCacheKey(dir);
    expect(graphCacheKey(dir)).toBe(key);
    expect(graphCacheKey(dir, "int8")).not.toBe(key);
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    writeFileSync(join(dir, "config.json"), JSON.stringify({ ...config, rope_theta: 5000 }));
    const changed = graphCacheKey(dir);
    expect(changed).not.toBe(key);
    utimesSync(join(dir, "model.safetensors"), new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(graphCacheKey(dir)).not.toBe(changed); // same bytes, other mtime: rebuilt to be safe
  });
});

describe("loadModel errors", () => {
  test("a directory without config.json is a ConfigError", async () => {
    await expect(loadModel(join(work, "nowhere"))).rejects.toBeInstanceOf(ConfigError);
  });

  test("a missing tokenizer is a TokenizerError", async () => {
    const dir = join(work, "no-tokenizer");
    cpSync(join(fixtures, "qwen3-tied"), dir, { recursive: true });
    rmSync(join(dir, "tokenizer.json"));
    await expect(loadModel(dir, { cache: false })).rejects.toBeInstanceOf(TokenizerError);
  });

  test("a checkpoint missing a tensor fails before any graph is built", async () => {
    const dir = join(work, "missing-tensor");
    cpSync(join(fixtures, "qwen2-gqa"), dir, { recursive: true });
    // claim a third layer the weights do not have
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    writeFileSync(join(dir, "config.json"), JSON.stringify({ ...config, num_hidden_layers: 3 }));
    const error = await loadModel(dir, { cache: false }).catch((e) => e);
    expect(error).toBeInstanceOf(TensorMissingError);
    expect(error.tensor).toContain("model.layers.2.");
  });

  test("an unknown provider is a typed error", async () => {
    const error = await loadModel(join(fixtures, "qwen3-tied"), { provider: "npu" as ProviderRequest }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(UnknownProviderError);
  });

  test.skipIf(cudaInstalled)("provider cuda without CUDA libraries names the fix", async () => {
    const error = await loadModel(join(fixtures, "qwen3-tied"), { provider: "cuda" }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toContain("CUDA 12");
  });
});

describe("graph cache failures do not stop a load", () => {
  test("a damaged cache entry is rebuilt with a warning", async () => {
    const dir = join(fixtures, "qwen2-f16");
    const first = await loadModel(dir, { threads: 1 });
    await first.dispose();
    const path = join(cacheDir, graphCacheKey(dir, "fp32"), "model.onnx");
    writeFileSync(path, "not an onnx model");
    const warnings: string[] = [];
    const model = await loadModel(dir, { threads: 1, onWarning: (m) => warnings.push(m) });
    expect(warnings.join("\n")).toContain("rebuilding");
    const g = golden("qwen2-f16");
    expect(maxAbsDiff((await model.forward(g.input_ids)).logits, g.logits_last)).toBeLessThanOrEqual(1e-4);
    await model.dispose();
    expect(readFileSync(path).byteLength).toBeGreaterThan(100);
  });

  test("an unwritable cache location loads without the cache, with a warning", async () => {
    const blocker = join(work, "not-a-dir");
    writeFileSync(blocker, "a file where the cache directory should be");
    const before = process.env.RTOOL_CACHE_DIR;
    process.env.RTOOL_CACHE_DIR = join(blocker, "cache");
    try {
      const warnings: string[] = [];
      const model = await loadModel(join(fixtures, "qwen3-tied"), {
        threads: 1,
        onWarning: (m) => warnings.push(m),
      });
      expect(warnings.join("\n")).toContain("could not write the graph cache");
      const g = golden("qwen3-tied");
      expect(maxAbsDiff((await model.forward(g.input_ids)).logits, g.logits_last)).toBeLessThanOrEqual(1e-4);
      await model.dispose();
    } finally {
      process.env.RTOOL_CACHE_DIR = before;
    }
  });
});
