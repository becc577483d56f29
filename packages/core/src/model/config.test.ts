import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseGenerationConfig, parseQwenConfig, readGenerationConfig, readQwenConfig } from "./config";
import { ConfigError, type ModelLoadError, UnsupportedArchitectureError } from "./errors";
import { QWEN_SHAPES } from "./shapes";

const qwen25 = {
  architectures: ["Qwen2ForCausalLM"],
  model_type: "qwen2",
  vocab_size: 151936,
  hidden_size: 896,
  intermediate_size: 4864,
  num_hidden_layers: 24,
  num_attention_heads: 14,
  num_key_value_heads: 2,
  rope_theta: 1000000.0,
  rms_norm_eps: 1e-6,
  tie_word_embeddings: true,
  max_position_embeddings: 32768,
  torch_dtype: "bfloat16",
  bos_token_id: 151643,
  eos_token_id: 151645,
};

const qwen3 = {
  architectures: ["Qwen3ForCausalLM"],
  model_type: "qwen3",
  vocab_size: 151936,
  hidden_size: 1024,
  intermediate_size: 3072,
  num_hidden_layers: 28,
  num_attention_heads: 16,
  num_key_value_heads: 8,
  head_dim: 128,
  attention_bias: false,
  rope_theta: 1000000,
  rms_norm_eps: 1e-6,
  tie_word_embeddings: true,
  max_position_embeddings: 40960,
  eos_token_id: [151645, 151643],
};

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "rtool-config-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("parseQwenConfig", () => {
  test("Qwen2.5-0.5B: biases, no q/k norm, head_dim from hidden/heads", () => {
    const config = parseQwenConfig(qwen25, "config.json");
    // The shape is the table's row (head_dim 896 / 14 = 64, biases, no q/k norm), plus the tokens.
    expect(config).toEqual({
      ...QWEN_SHAPES["qwen2.5-0.5b"],
      torchDtype: "bfloat16",
      bosTokenId: 151643,
      eosTokenId: 151645,
    });
  });

  test("Qwen3-0.6B: q/k norm, explicit head_dim, no bias, eos list", () => {
    const config = parseQwenConfig(qwen3, "config.json");
    expect(config.architecture).toBe("qwen3");
    expect(config.headDim).toBe(128); // not 1024 / 16
    expect(config.qkNorm).toBe(true);
    expect(config.attentionBias).toBe(false);
    expect(config.eosTokenId).toEqual([151645, 151643]);
  });

  test("the shape table holds what the published config.json files say", () => {
    expect(parseQwenConfig(qwen3, "config.json")).toMatchObject(QWEN_SHAPES["qwen3-0.6b"]);
    // The embedded model ships in its own package; its shape must not drift from the table's row.
    const rtTiny = readQwenConfig(join(import.meta.dir, "../../../model-rt-tiny/model"));
    expect(rtTiny).toMatchObject(QWEN_SHAPES["rt-tiny"]);
  });

  test("Qwen3 attention_bias true is honoured; defaults apply when optional fields are absent", () => {
    const { head_dim, attention_bias, rope_theta, rms_norm_eps, tie_word_embeddings, ...rest } = qwen3;
    const config = parseQwenConfig({ ...rest, attention_bias: true }, "config.json");
    expect(config.attentionBias).toBe(true);
    expect(config.headDim).toBe(64);
    expect(config.ropeTheta).toBe(10000);
    expect(config.rmsNormEps).toBe(1e-6);
    expect(config.tieWordEmbeddings).toBe(false);
  });

  test("model_type alone selects the architecture; kv heads default to heads", () => {
    const { architectures, num_key_value_heads, ...rest } = qwen25;
    const config = parseQwenConfig(rest, "config.json");
    expect(config.architecture).toBe("qwen2");
    expect(config.numKeyValueHeads).toBe(14);
  });

  test("rope_scaling is kept raw when given, absent when null; sliding window off is fine", () => {
    const yarn = { type: "yarn", factor: 4, original_max_position_embeddings: 32768 };
    expect(parseQwenConfig({ ...qwen3, rope_scaling: yarn }, "c").ropeScaling).toEqual(yarn);
    const plain = parseQwenConfig(
      { ...qwen25, rope_scaling: null, use_sliding_window: false, hidden_act: "silu" },
      "c",
    );
    expect("ropeScaling" in plain).toBe(false);
  });

  test("quantization_config is kept raw", () => {
    const quantization = { quant_method: "awq", bits: 4, group_size: 128, version: "gemm", zero_point: true };
    expect(parseQwenConfig({ ...qwen25, quantization_config: quantization }, "c").quantization).toEqual(
      quantization,
    );
  });

  test("unsupported architecture names the supported ones", () => {
    const error = catchError(() =>
      parseQwenConfig({ ...qwen25, architectures: ["LlamaForCausalLM"] }, "cfg.json"),
    );
    expect(error).toBeInstanceOf(UnsupportedArchitectureError);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain("LlamaForCausalLM");
    expect(error.message).toContain("Qwen2ForCausalLM, Qwen3ForCausalLM");
    expect(error.file).toBe("cfg.json");
    expect(catchError(() => parseQwenConfig({ model_type: "llama" }, "c"))).toBeInstanceOf(
      UnsupportedArchitectureError,
    );
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ["missing hidden_size", { hidden_size: undefined }, "hidden_size"],
    ["missing vocab_size", { vocab_size: undefined }, "vocab_size"],
    ["missing num_hidden_layers", { num_hidden_layers: undefined }, "num_hidden_layers"],
    ["missing intermediate_size", { intermediate_size: undefined }, "intermediate_size"],
    ["missing num_attention_heads", { num_attention_heads: undefined }, "num_attention_heads"],
    ["string where a number belongs", { hidden_size: "896" }, "hidden_size"],
    ["zero layers", { num_hidden_layers: 0 }, "num_hidden_layers"],
    ["fractional heads", { num_attention_heads: 3.5 }, "num_attention_heads"],
    ["heads not a multiple of kv heads", { num_key_value_heads: 3 }, "num_key_value_heads"],
    ["hidden not divisible by heads", { hidden_size: 900 }, "head_dim"],
    ["odd head_dim", { head_dim: 63 }, "head_dim"],
    ["negative rope_theta", { rope_theta: -1 }, "rope_theta"],
    ["zero rms_norm_eps", { rms_norm_eps: 0 }, "rms_norm_eps"],
    ["tie_word_embeddings not boolean", { tie_word_embeddings: "yes" }, "tie_word_embeddings"],
    ["bad eos id", { eos_token_id: -1 }, "eos_token_id"],
    ["empty eos list", { eos_token_id: [] }, "eos_token_id"],
    ["quantization_config not an object", { quantization_config: "awq" }, "quantization_config"],
    ["empty architectures", { architectures: [] }, "architectures"],
    ["gelu activation", { hidden_act: "gelu" }, "hidden_act"],
    ["sliding window attention", { use_sliding_window: true }, "use_sliding_window"],
    ["rope_scaling not an object", { rope_scaling: 4 }, "rope_scaling"],
  ];
  for (const [what, patch, field] of bad) {
    test(`rejects ${what}`, () => {
      const error = catchError(() => parseQwenConfig({ ...qwen25, ...patch }, "m/config.json"));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.field).toBe(field);
      expect(error.file).toBe("m/config.json");
      expect(error.message).toContain(field);
    });
  }

  test("rejects a non-object", () => {
    expect(catchError(() => parseQwenConfig([1], "c"))).toBeInstanceOf(ConfigError);
    expect(catchError(() => parseQwenConfig(null, "c"))).toBeInstanceOf(ConfigError);
  });
});

describe("readQwenConfig", () => {
  test("reads a directory's config.json", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), JSON.stringify(qwen3));
    expect(readQwenConfig(dir).numLayers).toBe(28);
  });

  test("missing config.json is a ConfigError naming the file", () => {
    const dir = tempDir();
    const error = catchError(() => readQwenConfig(dir));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.file).toBe(join(dir, "config.json"));
    expect(error.message).toContain("config.json");
  });

  test("malformed JSON is a ConfigError naming the file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), '{"hidden_size": 8,');
    const error = catchError(() => readQwenConfig(dir));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain("not valid JSON");
  });
});

describe("generation config", () => {
  test("eos ids as one id or a list; absent file is undefined", () => {
    expect(parseGenerationConfig({ eos_token_id: 7, bos_token_id: 1 }, "g")).toEqual({
      eosTokenIds: [7],
      bosTokenId: 1,
    });
    expect(parseGenerationConfig({ eos_token_id: [151645, 151643], pad_token_id: 151643 }, "g")).toEqual({
      eosTokenIds: [151645, 151643],
      padTokenId: 151643,
    });
    const dir = tempDir();
    expect(readGenerationConfig(dir)).toBeUndefined();
    writeFileSync(join(dir, "generation_config.json"), JSON.stringify({ eos_token_id: [2, 3] }));
    expect(readGenerationConfig(dir)?.eosTokenIds).toEqual([2, 3]);
    writeFileSync(join(dir, "generation_config.json"), JSON.stringify({ eos_token_id: "x" }));
    expect(catchError(() => readGenerationConfig(dir))).toBeInstanceOf(ConfigError);
  });
});

function catchError(run: () => unknown): ModelLoadError {
  try {
    run();
  } catch (error) {
    return error as ModelLoadError;
  }
  throw new Error("expected an error");
}
