/**
 * Writes a Qwen checkpoint with seeded random weights: a model directory `openWeights` and
 * `readQwenConfig` accept, for tests and benchmarks that need a model but not a trained one.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseQwenConfig } from "./config";
import { expectedQwenTensors } from "./qwen-weights";
import { type TensorToWrite, writeSafetensors } from "./safetensors-writer";
import type { SafetensorsDtype } from "./types";
import { SHARD_INDEX_FILE, SINGLE_FILE } from "./weights";

/** Options of {@link writeRandomQwenCheckpoint}. */
export interface RandomCheckpointOptions {
  /** Float dtype of every tensor (default F32). */
  dtype?: "F32" | "F16" | "BF16";
  /** Split the tensors over this many shards with an index file (default 1: `model.safetensors`). */
  shards?: number;
  /** Seed of the generator (default 1). */
  seed?: number;
  /** Largest absolute weight value (default 0.1). */
  scale?: number;
}

/** Mulberry32: small, seedable, good enough for weights. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Encodes float32 values in `dtype`, rounding to nearest even for the 16-bit formats. */
function encode(values: Float32Array, dtype: SafetensorsDtype): ArrayBufferView {
  if (dtype === "F32") return values;
  const out = new Uint16Array(values.length);
  if (dtype === "BF16") {
    const words = new Uint32Array(values.buffer, values.byteOffset, values.length);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      out[i] = (w + 0x7fff + ((w >>> 16) & 1)) >>> 16;
    }
    return out;
  }
  for (let i = 0; i < values.length; i++) out[i] = floatToHalfBits(values[i]);
  return out;
}

/** binary16 bits of a finite float with |v| < 65504, round to nearest even. */
function floatToHalfBits(value: number): number {
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
  const magnitude = Math.abs(value);
  if (magnitude < 2 ** -14) return sign | Math.round(magnitude / 2 ** -24);
  const exponent = Math.floor(Math.log2(magnitude));
  const mantissa = Math.round((magnitude / 2 ** exponent - 1) * 1024);
  // Rounding can carry into the exponent (mantissa 1024).
  return mantissa === 1024 ? sign | ((exponent + 16) << 10) : sign | ((exponent + 15) << 10) | mantissa;
}

/**
 * Writes `config.json` and random weights for `configJson` into `dir` (created if needed).
 * Norm weights are near 1 so activations stay in range.
 * @returns the tensors written, by name, as float32 (after rounding to `dtype`)
 * @example
 * writeRandomQwenCheckpoint(tmp, { architectures: ["Qwen3ForCausalLM"], vocab_size: 64, hidden_size: 16,
 *   intermediate_size: 32, num_hidden_layers: 1, num_attention_heads: 2, num_key_value_heads: 1, head_dim: 8 });
 */
export function writeRandomQwenCheckpoint(
  dir: string,
  configJson: Record<string, unknown>,
  options: RandomCheckpointOptions = {},
): Map<string, Float32Array> {
  const dtype = options.dtype ?? "F32";
  const shards = options.shards ?? 1;
  const scale = options.scale ?? 0.1;
  const random = generator(options.seed ?? 1);
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, "config.json");
  const config = parseQwenConfig(configJson, configFile);
  writeFileSync(configFile, `${JSON.stringify(configJson, null, 2)}\n`);

  const written = new Map<string, Float32Array>();
  const tensors: TensorToWrite[] = expectedQwenTensors(config).map((expected) => {
    const values = new Float32Array(expected.shape.reduce((a, b) => a * b, 1));
    const centre = expected.role === "norm" ? 1 : 0;
    for (let i = 0; i < values.length; i++) values[i] = centre + (random() * 2 - 1) * scale;
    const data = encode(values, dtype);
    return { name: expected.name, dtype, shape: expected.shape, data };
  });
  if (shards <= 1) {
    writeSafetensors(join(dir, SINGLE_FILE), tensors);
  } else {
    const weightMap: Record<string, string> = {};
    const perShard = Math.ceil(tensors.length / shards);
    for (let s = 0; s < shards; s++) {
      const name = `model-${String(s + 1).padStart(5, "0")}-of-${String(shards).padStart(5, "0")}.safetensors`;
      const part = tensors.slice(s * perShard, (s + 1) * perShard);
      for (const t of part) weightMap[t.name] = name;
      writeSafetensors(join(dir, name), part);
    }
    writeFileSync(
      join(dir, SHARD_INDEX_FILE),
      `${JSON.stringify({ metadata: {}, weight_map: weightMap }, null, 2)}\n`,
    );
  }
  for (const t of tensors) written.set(t.name, decodeWritten(t));
  return written;
}

/** The float32 values a reader will see for a written tensor. */
function decodeWritten(tensor: TensorToWrite): Float32Array {
  if (tensor.dtype === "F32") return tensor.data as Float32Array;
  const halves = tensor.data as Uint16Array;
  const out = new Float32Array(halves.length);
  const bits = new Uint32Array(out.buffer);
  if (tensor.dtype === "BF16") {
    for (let i = 0; i < halves.length; i++) bits[i] = halves[i] << 16;
    return out;
  }
  for (let i = 0; i < halves.length; i++) out[i] = halfValue(halves[i]);
  return out;
}

/** Arithmetic decoding of a finite half, independent of the reader's bit conversion. */
function halfValue(h: number): number {
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  const sign = h & 0x8000 ? -1 : 1;
  return exponent === 0 ? sign * mantissa * 2 ** -24 : sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}
