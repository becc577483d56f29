import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ModelLoadError, SafetensorsError, TensorMissingError } from "./errors";
import { writeRandomQwenCheckpoint } from "./random-checkpoint";
import { SafetensorsFile } from "./safetensors";
import { openWeights, SHARD_INDEX_FILE, ShardedWeights } from "./weights";

const tinyQwen3 = {
  architectures: ["Qwen3ForCausalLM"],
  vocab_size: 32,
  hidden_size: 16,
  intermediate_size: 24,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  head_dim: 8,
  tie_word_embeddings: true,
};

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "rtool-weights-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function catchError(run: () => unknown): ModelLoadError {
  try {
    run();
  } catch (error) {
    return error as ModelLoadError;
  }
  throw new Error("expected an error");
}

describe("openWeights", () => {
  for (const dtype of ["F32", "F16", "BF16"] as const) {
    test(`single file, ${dtype}: every tensor reads back as written`, () => {
      const dir = tempDir();
      const written = writeRandomQwenCheckpoint(dir, tinyQwen3, { dtype, seed: 3 });
      const weights = openWeights(dir);
      expect(weights).toBeInstanceOf(SafetensorsFile);
      expect(weights.tensors.size).toBe(written.size);
      for (const [name, values] of written) {
        expect(weights.tensors.get(name)?.dtype).toBe(dtype);
        expect(weights.readFloat32(name)).toEqual(values);
      }
      weights.close();
    });
  }

  test("sharded checkpoint reads the same tensors as the single file", () => {
    const single = tempDir();
    const sharded = tempDir();
    const expected = writeRandomQwenCheckpoint(single, tinyQwen3, { seed: 9 });
    writeRandomQwenCheckpoint(sharded, tinyQwen3, { seed: 9, shards: 3 });
    const weights = openWeights(sharded);
    expect(weights).toBeInstanceOf(ShardedWeights);
    const shards = new Set([...(weights as ShardedWeights).tensors.values()].map((t) => t.shard));
    expect(shards.size).toBe(3);
    for (const [name, values] of expected) expect(weights.readFloat32(name)).toEqual(values);
    expect(weights.readBytes("model.norm.weight").byteLength).toBe(16 * 4);
    weights.close();
  });

  test("shards are opened only when read from", () => {
    const dir = tempDir();
    writeRandomQwenCheckpoint(dir, tinyQwen3, { shards: 2 });
    const weights = openWeights(dir) as ShardedWeights;
    const second = [...weights.tensors.values()].find((t) => t.shard.startsWith("model-00002"))!;
    // Removing shard 2 after the headers were read only fails once it is actually read.
    unlinkSync(join(dir, second.shard));
    expect(weights.readFloat32("model.embed_tokens.weight").length).toBe(32 * 16);
    const error = catchError(() => weights.readFloat32(second.name));
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.file).toBe(join(dir, second.shard));
    weights.close();
  });

  test("neither file present", () => {
    const dir = tempDir();
    const error = catchError(() => openWeights(dir));
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.message).toContain("model.safetensors");
    expect(error.message).toContain(SHARD_INDEX_FILE);
  });

  test("index naming a missing shard", () => {
    const dir = tempDir();
    writeRandomQwenCheckpoint(dir, tinyQwen3, { shards: 2 });
    unlinkSync(join(dir, "model-00001-of-00002.safetensors"));
    const error = catchError(() => openWeights(dir));
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.file).toBe(join(dir, "model-00001-of-00002.safetensors"));
  });

  test("index placing a tensor in a shard that lacks it", () => {
    const dir = tempDir();
    writeRandomQwenCheckpoint(dir, tinyQwen3, { shards: 2 });
    const indexFile = join(dir, SHARD_INDEX_FILE);
    const index = JSON.parse(readFileSync(indexFile, "utf8"));
    index.weight_map["model.norm.weight"] = "model-00001-of-00002.safetensors";
    writeFileSync(indexFile, JSON.stringify(index));
    const error = catchError(() => openWeights(dir));
    expect(error).toBeInstanceOf(TensorMissingError);
    expect(error.tensor).toBe("model.norm.weight");
  });

  test("malformed index and shard names outside the directory", () => {
    const dir = tempDir();
    writeFileSync(join(dir, SHARD_INDEX_FILE), "{");
    expect(catchError(() => openWeights(dir))).toBeInstanceOf(SafetensorsError);
    writeFileSync(join(dir, SHARD_INDEX_FILE), JSON.stringify({ metadata: {} }));
    expect(catchError(() => openWeights(dir)).message).toContain("weight_map");
    writeFileSync(join(dir, SHARD_INDEX_FILE), JSON.stringify({ weight_map: { w: "../x.safetensors" } }));
    expect(catchError(() => openWeights(dir)).tensor).toBe("w");
  });
});
