import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseQwenConfig } from "./config";
import { type ModelLoadError, TensorDtypeError, TensorMissingError, TensorShapeError } from "./errors";
import { checkQwenWeights, expectedQwenTensors } from "./qwen-weights";
import { writeRandomQwenCheckpoint } from "./random-checkpoint";
import { writeSafetensors } from "./safetensors-writer";
import type { TensorInfo, WeightSource } from "./types";
import { openWeights } from "./weights";

const tinyQwen2 = {
  architectures: ["Qwen2ForCausalLM"],
  vocab_size: 40,
  hidden_size: 16,
  intermediate_size: 24,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  tie_word_embeddings: false,
};
const tinyQwen3 = {
  ...tinyQwen2,
  architectures: ["Qwen3ForCausalLM"],
  head_dim: 6,
  tie_word_embeddings: true,
};

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "rtool-qw-"));
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

/** An in-memory source over tensor infos, for checks that never read data. */
function infoSource(infos: TensorInfo[]): WeightSource {
  return {
    tensors: new Map(infos.map((t) => [t.name, t])),
    readFloat32: () => new Float32Array(0),
    readBytes: () => new Uint8Array(0),
    close: () => {},
  };
}

describe("expectedQwenTensors", () => {
  test("Qwen2: biases, untied lm_head, no q/k norm", () => {
    const tensors = expectedQwenTensors(parseQwenConfig(tinyQwen2, "c"));
    const byName = new Map(tensors.map((t) => [t.name, t.shape]));
    expect(byName.get("model.embed_tokens.weight")).toEqual([40, 16]);
    expect(byName.get("model.layers.1.self_attn.q_proj.weight")).toEqual([16, 16]);
    expect(byName.get("model.layers.1.self_attn.k_proj.weight")).toEqual([8, 16]);
    expect(byName.get("model.layers.1.self_attn.k_proj.bias")).toEqual([8]);
    expect(byName.get("model.layers.0.self_attn.o_proj.weight")).toEqual([16, 16]);
    expect(byName.get("model.layers.0.mlp.down_proj.weight")).toEqual([16, 24]);
    expect(byName.get("lm_head.weight")).toEqual([40, 16]);
    expect(byName.has("model.layers.0.self_attn.q_norm.weight")).toBe(false);
    expect(tensors.length).toBe(1 + 2 * 12 + 2);
  });

  test("Qwen3: q/k norm of head_dim, head_dim decoupled from hidden, tied", () => {
    const tensors = expectedQwenTensors(parseQwenConfig(tinyQwen3, "c"));
    const byName = new Map(tensors.map((t) => [t.name, t.shape]));
    expect(byName.get("model.layers.0.self_attn.q_norm.weight")).toEqual([6]);
    expect(byName.get("model.layers.0.self_attn.q_proj.weight")).toEqual([24, 16]);
    expect(byName.get("model.layers.0.self_attn.v_proj.weight")).toEqual([12, 16]);
    expect(byName.get("model.layers.0.self_attn.o_proj.weight")).toEqual([16, 24]);
    expect(byName.has("model.layers.0.self_attn.q_proj.bias")).toBe(false);
    expect(byName.has("lm_head.weight")).toBe(false);
  });
});

describe("checkQwenWeights", () => {
  test("accepts complete checkpoints of every float dtype, single and sharded", () => {
    for (const [json, dtype, shards] of [
      [tinyQwen2, "F32", 1],
      [tinyQwen3, "BF16", 1],
      [tinyQwen2, "F16", 3],
    ] as const) {
      const dir = tempDir();
      writeRandomQwenCheckpoint(dir, json, { dtype, shards });
      const weights = openWeights(dir);
      expect(() => checkQwenWeights(parseQwenConfig(json, "c"), weights)).not.toThrow();
      weights.close();
    }
  });

  test("missing tensor names the tensor and the file", () => {
    const config = parseQwenConfig(tinyQwen2, "c");
    const dir = tempDir();
    const file = join(dir, "model.safetensors");
    const tensors = expectedQwenTensors(config).filter(
      (t) => t.name !== "model.layers.1.self_attn.v_proj.bias",
    );
    writeSafetensors(
      file,
      tensors.map((t) => ({
        ...t,
        dtype: "F32",
        data: new Float32Array(t.shape.reduce((a, b) => a * b, 1)),
      })),
    );
    const weights = openWeights(dir);
    const error = catchError(() => checkQwenWeights(config, weights));
    expect(error).toBeInstanceOf(TensorMissingError);
    expect(error.tensor).toBe("model.layers.1.self_attn.v_proj.bias");
    expect(error.file).toBe(file);
    weights.close();
  });

  test("wrong shape reports expected and actual", () => {
    const config = parseQwenConfig(tinyQwen3, "c");
    const infos: TensorInfo[] = expectedQwenTensors(config).map((t) => ({ ...t, dtype: "F32" }));
    infos.find((t) => t.name === "model.layers.0.mlp.up_proj.weight")!.shape = [16, 24];
    const error = catchError(() =>
      checkQwenWeights(config, infoSource(infos), { file: "m/model.safetensors" }),
    );
    expect(error).toBeInstanceOf(TensorShapeError);
    expect(error.message).toContain("[16, 24]");
    expect(error.message).toContain("expected [24, 16]");
    expect(error.file).toBe("m/model.safetensors");
    expect((error as TensorShapeError).expected).toEqual([24, 16]);
  });

  test("non-float dtype is refused", () => {
    const config = parseQwenConfig(tinyQwen3, "c");
    const infos: TensorInfo[] = expectedQwenTensors(config).map((t) => ({ ...t, dtype: "F32" }));
    infos.find((t) => t.name === "model.norm.weight")!.dtype = "I8";
    const error = catchError(() => checkQwenWeights(config, infoSource(infos)));
    expect(error).toBeInstanceOf(TensorDtypeError);
    expect(error.tensor).toBe("model.norm.weight");
  });

  test("AWQ: linear layers need qweight/qzeros/scales instead of weight, unless a hook decides", () => {
    const config = parseQwenConfig({ ...tinyQwen3, quantization_config: { quant_method: "awq" } }, "c");
    const floats: TensorInfo[] = expectedQwenTensors(config)
      .filter((t) => t.role !== "linear")
      .map((t) => ({ ...t, dtype: "F16" }));
    const packed: TensorInfo[] = expectedQwenTensors(config)
      .filter((t) => t.role === "linear")
      .flatMap((t) =>
        ["qweight", "qzeros", "scales"].map((part) => ({
          name: t.name.replace(/weight$/, part),
          dtype: part === "scales" ? ("F16" as const) : ("I32" as const),
          shape: [1],
        })),
      );
    expect(() => checkQwenWeights(config, infoSource([...floats, ...packed]))).not.toThrow();
    const withoutScales = packed.filter((t) => t.name !== "model.layers.1.mlp.down_proj.scales");
    expect(catchError(() => checkQwenWeights(config, infoSource([...floats, ...withoutScales]))).tensor).toBe(
      "model.layers.1.mlp.down_proj.scales",
    );
    const seen: string[] = [];
    checkQwenWeights(config, infoSource(floats), { checkLinear: (expected) => seen.push(expected.name) });
    expect(seen.length).toBe(2 * 7);
  });
});
