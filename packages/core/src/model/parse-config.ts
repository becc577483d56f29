/**
 * Validates a parsed Hugging Face `config.json` (Qwen2, Qwen2.5, Qwen3 dense) into a
 * {@link QwenConfig}, and `generation_config.json` into {@link GenerationConfig}. No file access:
 * the browser entry parses configs it fetched; `config.ts` reads them from disk.
 */
import { ConfigError, UnsupportedArchitectureError } from "./errors";
import type { QwenArchitecture, QwenConfig } from "./types";

/** The parts of `generation_config.json` rtool uses. */
export interface GenerationConfig {
  /** Every id that ends generation (`eos_token_id` may be one id or a list). */
  eosTokenIds: number[];
  bosTokenId?: number;
  padTokenId?: number;
}

const ARCHITECTURES: Record<string, QwenArchitecture> = {
  Qwen2ForCausalLM: "qwen2",
  Qwen3ForCausalLM: "qwen3",
};
const MODEL_TYPES: Record<string, QwenArchitecture> = { qwen2: "qwen2", qwen3: "qwen3" };

type Json = Record<string, unknown>;

/** Field readers that name the file and field in every failure. */
class FieldReader {
  constructor(
    private readonly json: Json,
    private readonly file: string,
  ) {}

  private fail(field: string, what: string): never {
    throw new ConfigError(`${this.file}: field "${field}" ${what}`, { file: this.file, field });
  }

  has(field: string): boolean {
    return this.json[field] !== undefined && this.json[field] !== null;
  }

  positiveInt(field: string, fallback?: number): number {
    if (!this.has(field)) {
      if (fallback !== undefined) return fallback;
      this.fail(field, "is missing");
    }
    const value = this.json[field];
    if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
      this.fail(field, `must be a positive integer, got ${JSON.stringify(value)}`);
    }
    return value;
  }

  positiveNumber(field: string, fallback: number): number {
    if (!this.has(field)) return fallback;
    const value = this.json[field];
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      this.fail(field, `must be a positive finite number, got ${JSON.stringify(value)}`);
    }
    return value;
  }

  boolean(field: string, fallback: boolean): boolean {
    if (!this.has(field)) return fallback;
    const value = this.json[field];
    if (typeof value !== "boolean") this.fail(field, `must be true or false, got ${JSON.stringify(value)}`);
    return value;
  }

  optionalString(field: string): string | undefined {
    if (!this.has(field)) return undefined;
    const value = this.json[field];
    if (typeof value !== "string") this.fail(field, `must be a string, got ${JSON.stringify(value)}`);
    return value;
  }

  optionalTokenId(field: string): number | undefined {
    if (!this.has(field)) return undefined;
    const value = this.json[field];
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      this.fail(field, `must be a token id (integer >= 0), got ${JSON.stringify(value)}`);
    }
    return value;
  }

  /** One id or a non-empty list of ids, as `eos_token_id` allows. */
  optionalTokenIds(field: string): number[] | undefined {
    if (!this.has(field)) return undefined;
    const value = this.json[field];
    const ids = Array.isArray(value) ? value : [value];
    if (ids.length === 0 || !ids.every((id) => typeof id === "number" && Number.isInteger(id) && id >= 0)) {
      this.fail(field, `must be a token id or a non-empty list of token ids, got ${JSON.stringify(value)}`);
    }
    return ids as number[];
  }

  optionalObject(field: string): Record<string, unknown> | undefined {
    if (!this.has(field)) return undefined;
    const value = this.json[field];
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.fail(field, `must be an object, got ${JSON.stringify(value)}`);
    }
    return value as Record<string, unknown>;
  }
}

/** Picks the builder from `architectures` (preferred) or `model_type`. */
function detectArchitecture(json: Json, file: string): QwenArchitecture {
  const architectures = json.architectures;
  if (architectures !== undefined && architectures !== null) {
    if (!Array.isArray(architectures) || architectures.length === 0) {
      throw new ConfigError(`${file}: field "architectures" must be a non-empty list of class names`, {
        file,
        field: "architectures",
      });
    }
    const name = String(architectures[0]);
    const architecture = ARCHITECTURES[name];
    if (!architecture) throw new UnsupportedArchitectureError(name, file);
    return architecture;
  }
  const modelType = json.model_type;
  if (typeof modelType !== "string") {
    throw new ConfigError(`${file}: neither "architectures" nor "model_type" is given`, {
      file,
      field: "architectures",
    });
  }
  const architecture = MODEL_TYPES[modelType];
  if (!architecture) throw new UnsupportedArchitectureError(`model_type ${modelType}`, file);
  return architecture;
}

/**
 * Validates a parsed `config.json` object and maps it to {@link QwenConfig}.
 * Qwen2 always has q/k/v biases and no q/k norm; Qwen3 has q/k norm and biases only when
 * `attention_bias` says so. Shape fields are required; the rest take the Hugging Face defaults.
 * @param json the parsed config object
 * @param file the file it came from, named in errors
 * @throws {ConfigError} a field is missing or invalid
 * @throws {UnsupportedArchitectureError} neither Qwen2ForCausalLM nor Qwen3ForCausalLM
 * @example
 * const config = parseQwenConfig(JSON.parse(text), "config.json");
 * config.architecture; // "qwen3"
 */
export function parseQwenConfig(json: unknown, file: string): QwenConfig {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new ConfigError(`${file}: expected a JSON object`, { file });
  }
  const raw = json as Json;
  const architecture = detectArchitecture(raw, file);
  const fields = new FieldReader(raw, file);

  const hiddenSize = fields.positiveInt("hidden_size");
  const numAttentionHeads = fields.positiveInt("num_attention_heads");
  const numKeyValueHeads = fields.positiveInt("num_key_value_heads", numAttentionHeads);
  if (numAttentionHeads % numKeyValueHeads !== 0) {
    throw new ConfigError(
      `${file}: num_attention_heads (${numAttentionHeads}) must be a multiple of num_key_value_heads (${numKeyValueHeads})`,
      { file, field: "num_key_value_heads" },
    );
  }
  if (!fields.has("head_dim") && hiddenSize % numAttentionHeads !== 0) {
    throw new ConfigError(
      `${file}: hidden_size (${hiddenSize}) is not divisible by num_attention_heads (${numAttentionHeads}) and no head_dim is given`,
      { file, field: "head_dim" },
    );
  }
  const headDim = fields.positiveInt("head_dim", hiddenSize / numAttentionHeads);
  if (headDim % 2 !== 0) {
    // Rotate-half RoPE splits each head in two halves.
    throw new ConfigError(`${file}: head_dim (${headDim}) must be even for rotary embeddings`, {
      file,
      field: "head_dim",
    });
  }

  const activation = fields.optionalString("hidden_act") ?? "silu";
  if (activation !== "silu") {
    throw new ConfigError(
      `${file}: hidden_act "${activation}" is not supported; Qwen's MLP is SwiGLU (silu)`,
      {
        file,
        field: "hidden_act",
      },
    );
  }
  if (fields.boolean("use_sliding_window", false)) {
    // Sliding-window layers attend differently from full attention past the window.
    throw new ConfigError(`${file}: use_sliding_window true is not supported; rtool runs full attention`, {
      file,
      field: "use_sliding_window",
    });
  }

  const config: QwenConfig = {
    architecture,
    vocabSize: fields.positiveInt("vocab_size"),
    hiddenSize,
    intermediateSize: fields.positiveInt("intermediate_size"),
    numLayers: fields.positiveInt("num_hidden_layers"),
    numAttentionHeads,
    numKeyValueHeads,
    headDim,
    ropeTheta: fields.positiveNumber("rope_theta", 10000),
    rmsNormEps: fields.positiveNumber("rms_norm_eps", 1e-6),
    tieWordEmbeddings: fields.boolean("tie_word_embeddings", false),
    maxPositionEmbeddings: fields.positiveInt("max_position_embeddings", 32768),
    attentionBias: architecture === "qwen2" ? true : fields.boolean("attention_bias", false),
    qkNorm: architecture === "qwen3",
  };
  const torchDtype = fields.optionalString("torch_dtype") ?? fields.optionalString("dtype");
  if (torchDtype !== undefined) config.torchDtype = torchDtype;
  const ropeScaling = fields.optionalObject("rope_scaling");
  if (ropeScaling !== undefined) config.ropeScaling = ropeScaling;
  const quantization = fields.optionalObject("quantization_config");
  if (quantization !== undefined) config.quantization = quantization;
  const bosTokenId = fields.optionalTokenId("bos_token_id");
  if (bosTokenId !== undefined) config.bosTokenId = bosTokenId;
  const eosTokenIds = fields.optionalTokenIds("eos_token_id");
  if (eosTokenIds !== undefined) {
    config.eosTokenId = Array.isArray(raw.eos_token_id) ? eosTokenIds : eosTokenIds[0];
  }
  return config;
}

/**
 * Validates a parsed `generation_config.json` object.
 * @throws {ConfigError} an id field has a bad value
 */
export function parseGenerationConfig(json: unknown, file: string): GenerationConfig {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new ConfigError(`${file}: expected a JSON object`, { file });
  }
  const fields = new FieldReader(json as Json, file);
  const generation: GenerationConfig = { eosTokenIds: fields.optionalTokenIds("eos_token_id") ?? [] };
  const bosTokenId = fields.optionalTokenId("bos_token_id");
  if (bosTokenId !== undefined) generation.bosTokenId = bosTokenId;
  const padTokenId = fields.optionalTokenId("pad_token_id");
  if (padTokenId !== undefined) generation.padTokenId = padTokenId;
  return generation;
}
