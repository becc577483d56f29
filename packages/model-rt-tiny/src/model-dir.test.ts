import { expect, test } from "bun:test";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { RT_TINY_DIR } from "./index";

const MAX_BYTES = 20 * 1000 * 1000;

function safetensorsHeader(path: string): Record<string, { dtype: string; shape: number[] }> {
  const fd = openSync(path, "r");
  try {
    const size = Buffer.alloc(8);
    readSync(fd, size, 0, 8, 0);
    const length = Number(size.readBigUInt64LE(0));
    const header = Buffer.alloc(length);
    readSync(fd, header, 0, length, 8);
    return JSON.parse(header.toString("utf8"));
  } finally {
    closeSync(fd);
  }
}

test("the shipped model is a complete Hugging Face Qwen3 directory within 20 MB", () => {
  for (const file of [
    "config.json",
    "model.safetensors",
    "tokenizer.json",
    "tokenizer_config.json",
    "generation_config.json",
    "README.md",
  ]) {
    expect(existsSync(join(RT_TINY_DIR, file))).toBe(true);
  }
  const total = readdirSync(RT_TINY_DIR).reduce((sum, f) => sum + statSync(join(RT_TINY_DIR, f)).size, 0);
  expect(total).toBeLessThanOrEqual(MAX_BYTES);
});

test("config.json and the stored tensors agree on the Qwen3 shape (tied head, q/k norms, GQA)", () => {
  const cfg = JSON.parse(readFileSync(join(RT_TINY_DIR, "config.json"), "utf8"));
  expect(cfg.architectures).toEqual(["Qwen3ForCausalLM"]);
  expect(cfg.model_type).toBe("qwen3");
  expect(cfg.tie_word_embeddings).toBe(true);
  const tensors = safetensorsHeader(join(RT_TINY_DIR, "model.safetensors"));
  const h = cfg.hidden_size;
  const hd = cfg.head_dim;
  expect(tensors["model.embed_tokens.weight"]?.shape).toEqual([cfg.vocab_size, h]);
  expect(tensors["lm_head.weight"]).toBeUndefined();
  expect(tensors["model.norm.weight"]?.shape).toEqual([h]);
  for (let i = 0; i < cfg.num_hidden_layers; i++) {
    const p = `model.layers.${i}`;
    expect(tensors[`${p}.self_attn.q_proj.weight`]?.shape).toEqual([cfg.num_attention_heads * hd, h]);
    expect(tensors[`${p}.self_attn.k_proj.weight`]?.shape).toEqual([cfg.num_key_value_heads * hd, h]);
    expect(tensors[`${p}.self_attn.v_proj.weight`]?.shape).toEqual([cfg.num_key_value_heads * hd, h]);
    expect(tensors[`${p}.self_attn.o_proj.weight`]?.shape).toEqual([h, cfg.num_attention_heads * hd]);
    expect(tensors[`${p}.self_attn.q_norm.weight`]?.shape).toEqual([hd]);
    expect(tensors[`${p}.self_attn.k_norm.weight`]?.shape).toEqual([hd]);
    expect(tensors[`${p}.mlp.gate_proj.weight`]?.shape).toEqual([cfg.intermediate_size, h]);
    expect(tensors[`${p}.mlp.down_proj.weight`]?.shape).toEqual([h, cfg.intermediate_size]);
  }
  // embed_tokens + norm + 11 per layer, and nothing else
  expect(Object.keys(tensors).filter((k) => k !== "__metadata__").length).toBe(
    2 + cfg.num_hidden_layers * 11,
  );
});

test("every special token the decoder stops on is in the shipped tokenizer", () => {
  const tok = JSON.parse(readFileSync(join(RT_TINY_DIR, "tokenizer.json"), "utf8"));
  const specials = new Set(tok.added_tokens.map((t: { content: string }) => t.content));
  for (const name of [
    "<|im_start|>",
    "<|im_end|>",
    "<|null|>",
    "<function>",
    "</function>",
    "<arg1>",
    "</arg6>",
  ]) {
    expect(specials.has(name)).toBe(true);
  }
});
