/**
 * What an exporter reads: a Qwen config, its float32 weights and the tokenizer files, from a
 * Hugging Face directory or from memory (random weights for benchmarks, converted checkpoints).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { WeightProvider } from "../graph/qwen";
import { readQwenConfig } from "../model/config";
import { checkQwenWeights } from "../model/qwen-weights";
import { layerShapeJson } from "../model/shapes";
import type { QwenConfig } from "../model/types";
import { openWeights } from "../model/weights";
import { ExportSourceError } from "./errors";

/** A model to export, held in memory or read lazily from disk. */
export interface ExportSource {
  config: QwenConfig;
  /** Float32 weights by Hugging Face tensor name (read when asked for, one at a time). */
  weights: WeightProvider;
  /** Parsed `tokenizer.json` (Hugging Face tokenizers format, BPE model). */
  tokenizer: TokenizerJson;
  /** Parsed `tokenizer_config.json`, when there is one (chat template, special tokens). */
  tokenizerConfig?: Record<string, unknown>;
  /** Parsed `generation_config.json`, when there is one. */
  generationConfig?: Record<string, unknown>;
  /** Parsed `config.json` as written, when there is one; otherwise it is rebuilt from `config`. */
  configJson?: Record<string, unknown>;
}

/** The parts of a Hugging Face `tokenizer.json` the exporters read. */
export interface TokenizerJson {
  model: { type?: string; vocab: Record<string, number>; merges: (string | [string, string])[] };
  added_tokens?: { id: number; content: string; special: boolean }[];
  [key: string]: unknown;
}

/** A model to export: a Hugging Face directory or an {@link ExportSource}. */
export type ExportInput = string | ExportSource;

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ExportSourceError(file, error instanceof Error ? error.message : String(error));
  }
}

function readOptionalJson(file: string): Record<string, unknown> | undefined {
  return existsSync(file) ? readJson(file) : undefined;
}

/**
 * Opens a Hugging Face Qwen directory for export; weights stay on disk until read. Call `close`.
 *
 * @example
 * ```ts
 * const source = openExportSource("models/qwen2.5-0.5b-instruct");
 * try { exportGguf(source, "out.gguf", { type: "Q8_0" }); } finally { source.close(); }
 * ```
 */
export function openExportSource(dir: string): ExportSource & { close(): void } {
  const config = readQwenConfig(dir);
  if (config.quantization) {
    // the exporters re-encode float weights; packed AWQ integers are not float tensors
    throw new ExportSourceError(
      join(dir, "config.json"),
      `quantized checkpoints (${String(config.quantization.quant_method)}) cannot be exported; export the float model`,
    );
  }
  const tokenizerFile = join(dir, "tokenizer.json");
  if (!existsSync(tokenizerFile))
    throw new ExportSourceError(tokenizerFile, "the model has no tokenizer.json");
  const tokenizer = readJson(tokenizerFile) as unknown as TokenizerJson;
  const weightsSource = openWeights(dir);
  try {
    checkQwenWeights(config, weightsSource);
  } catch (error) {
    weightsSource.close();
    throw error;
  }
  return {
    config,
    weights: (name) => ({
      data: weightsSource.readFloat32(name),
      shape: [...(weightsSource.tensors.get(name)?.shape ?? [])],
    }),
    tokenizer,
    tokenizerConfig: readOptionalJson(join(dir, "tokenizer_config.json")),
    generationConfig: readOptionalJson(join(dir, "generation_config.json")),
    configJson: readJson(join(dir, "config.json")),
    close: () => weightsSource.close(),
  };
}

/** Runs `use` on the source of `input`, closing it afterwards when it was opened here. */
export async function withExportSource<T>(
  input: ExportInput,
  use: (source: ExportSource) => T | Promise<T>,
): Promise<T> {
  if (typeof input !== "string") return use(input);
  const source = openExportSource(input);
  try {
    return await use(source);
  } finally {
    source.close();
  }
}

/** Every token id to its text: the BPE vocabulary plus added tokens. */
export function tokenTable(tokenizer: TokenizerJson): Map<number, { text: string; special?: boolean }> {
  const table = new Map<number, { text: string; special?: boolean }>();
  for (const [text, id] of Object.entries(tokenizer.model.vocab)) table.set(id, { text });
  for (const added of tokenizer.added_tokens ?? [])
    table.set(added.id, { text: added.content, special: added.special });
  return table;
}

/** Merges as `"left right"` strings, whichever of the two tokenizer.json spellings is stored. */
export function mergeStrings(tokenizer: TokenizerJson): string[] {
  return tokenizer.model.merges.map((m) => (typeof m === "string" ? m : `${m[0]} ${m[1]}`));
}

/** The id of a token text, from the added tokens or the vocabulary. */
export function tokenId(tokenizer: TokenizerJson, text: string): number | undefined {
  return tokenizer.added_tokens?.find((t) => t.content === text)?.id ?? tokenizer.model.vocab[text];
}

/** A `config.json` for `config` (Qwen2ForCausalLM / Qwen3ForCausalLM), `head_dim` always written. */
export function qwenConfigJson(config: QwenConfig): Record<string, unknown> {
  return {
    architectures: [config.architecture === "qwen3" ? "Qwen3ForCausalLM" : "Qwen2ForCausalLM"],
    model_type: config.architecture,
    vocab_size: config.vocabSize,
    ...layerShapeJson(config),
    hidden_act: "silu",
    rope_theta: config.ropeTheta,
    rope_scaling: config.ropeScaling ?? null,
    rms_norm_eps: config.rmsNormEps,
    tie_word_embeddings: config.tieWordEmbeddings,
    max_position_embeddings: config.maxPositionEmbeddings,
    attention_bias: config.attentionBias,
    bos_token_id: config.bosTokenId ?? null,
    eos_token_id: config.eosTokenId ?? null,
    torch_dtype: "float32",
    use_cache: true,
  };
}
