/**
 * `exportGguf`: a Qwen2/Qwen3 model as a GGUF v3 file llama.cpp loads (architecture `qwen2` /
 * `qwen3`, GPT-2 style BPE tokenizer metadata, llama.cpp tensor names). Q/K weights are written
 * as stored: llama.cpp runs Qwen with NEOX RoPE (rotate halves, as Hugging Face does), so unlike
 * its `llama` architecture no row permutation is applied.
 */
import { qwenTensorShapes } from "../graph/random-weights";
import type { QwenConfig } from "../model/types";
import { ExportOptionError, ExportTensorError } from "./errors";
import { encodeGgml, type GgmlType, ggmlFitsRow } from "./ggml-blocks";
import { type GgufTensor, type GgufValue, gguf, writeGguf } from "./gguf-writer";
import {
  type ExportInput,
  type ExportSource,
  mergeStrings,
  tokenId,
  tokenTable,
  withExportSource,
} from "./source";

/** The file types {@link exportGguf} writes. */
export type GgufFileType = "F32" | "F16" | "Q8_0" | "Q4_0";

/** llama.cpp's `general.file_type` codes (`LLAMA_FTYPE_*`). */
const FILE_TYPE: Record<GgufFileType, number> = { F32: 0, F16: 1, Q4_0: 2, Q8_0: 7 };

/** Options of {@link exportGguf}. */
export interface ExportGgufOptions {
  /** Element type of the matrices; default "F16". Norms and biases are always F32. */
  type?: GgufFileType;
  /** `general.name`; default "rtool-export". */
  name?: string;
}

/** What {@link exportGguf} wrote. */
export interface ExportedGguf {
  path: string;
  bytes: number;
  /** Each tensor's GGUF name, the HF tensor it came from and the type it was stored in. */
  tensors: { name: string; source: string; type: GgmlType }[];
}

/** llama.cpp token types (`LLAMA_TOKEN_TYPE_*`). */
const TOKEN_TYPE = { normal: 1, control: 3, userDefined: 4, unused: 5 } as const;

/**
 * The type a matrix is stored in. Q4_0 files keep the embedding and classifier at Q8_0, as
 * rtool's int4 mode keeps its classifier at int8; rows that are not whole blocks fall back to F16
 * (as llama.cpp's quantizer does for such shapes).
 */
function matrixType(fileType: GgufFileType, hfName: string, rowLength: number): GgmlType {
  let type: GgmlType = fileType;
  if (fileType === "Q4_0" && (hfName === "model.embed_tokens.weight" || hfName === "lm_head.weight"))
    type = "Q8_0";
  if (!ggmlFitsRow(type, rowLength)) type = "F16";
  return type;
}

/** HF tensor names to llama.cpp's, per layer and global. */
function tensorPlan(config: QwenConfig): { gguf: string; hf: string; matrix: boolean }[] {
  const plan: { gguf: string; hf: string; matrix: boolean }[] = [
    { gguf: "token_embd.weight", hf: "model.embed_tokens.weight", matrix: true },
  ];
  for (let i = 0; i < config.numLayers; i++) {
    const hf = `model.layers.${i}`;
    const blk = `blk.${i}`;
    plan.push({ gguf: `${blk}.attn_norm.weight`, hf: `${hf}.input_layernorm.weight`, matrix: false });
    for (const [g, h] of [
      ["attn_q", "q_proj"],
      ["attn_k", "k_proj"],
      ["attn_v", "v_proj"],
    ]) {
      plan.push({ gguf: `${blk}.${g}.weight`, hf: `${hf}.self_attn.${h}.weight`, matrix: true });
      if (config.attentionBias)
        plan.push({ gguf: `${blk}.${g}.bias`, hf: `${hf}.self_attn.${h}.bias`, matrix: false });
    }
    if (config.qkNorm) {
      plan.push({ gguf: `${blk}.attn_q_norm.weight`, hf: `${hf}.self_attn.q_norm.weight`, matrix: false });
      plan.push({ gguf: `${blk}.attn_k_norm.weight`, hf: `${hf}.self_attn.k_norm.weight`, matrix: false });
    }
    plan.push({ gguf: `${blk}.attn_output.weight`, hf: `${hf}.self_attn.o_proj.weight`, matrix: true });
    plan.push({ gguf: `${blk}.ffn_norm.weight`, hf: `${hf}.post_attention_layernorm.weight`, matrix: false });
    plan.push({ gguf: `${blk}.ffn_gate.weight`, hf: `${hf}.mlp.gate_proj.weight`, matrix: true });
    plan.push({ gguf: `${blk}.ffn_up.weight`, hf: `${hf}.mlp.up_proj.weight`, matrix: true });
    plan.push({ gguf: `${blk}.ffn_down.weight`, hf: `${hf}.mlp.down_proj.weight`, matrix: true });
  }
  plan.push({ gguf: "output_norm.weight", hf: "model.norm.weight", matrix: false });
  // tied models have no output.weight: llama.cpp then reads token_embd for the classifier
  if (!config.tieWordEmbeddings) plan.push({ gguf: "output.weight", hf: "lm_head.weight", matrix: true });
  return plan;
}

/** Tokenizer metadata: tokens padded to the model's vocabulary, their types, merges, special ids. */
function tokenizerMetadata(source: ExportSource, metadata: Map<string, GgufValue>): void {
  const { tokenizer, config } = source;
  const table = tokenTable(tokenizer);
  const tokens: string[] = [];
  const types: number[] = [];
  for (let id = 0; id < config.vocabSize; id++) {
    const entry = table.get(id);
    if (!entry) {
      // padding rows of the embedding (Qwen pads its vocabulary to a multiple of 64/128)
      tokens.push(`[PAD${id}]`);
      types.push(TOKEN_TYPE.unused);
    } else {
      tokens.push(entry.text);
      types.push(
        entry.special === undefined
          ? TOKEN_TYPE.normal
          : entry.special
            ? TOKEN_TYPE.control
            : TOKEN_TYPE.userDefined,
      );
    }
  }
  if (table.size > config.vocabSize) {
    throw new ExportTensorError(
      "tokenizer.ggml.tokens",
      `the tokenizer has ${table.size} tokens, more than the model's vocab_size ${config.vocabSize}`,
    );
  }
  metadata.set("tokenizer.ggml.model", gguf.string("gpt2"));
  metadata.set("tokenizer.ggml.pre", gguf.string("qwen2"));
  metadata.set("tokenizer.ggml.tokens", gguf.strings(tokens));
  metadata.set("tokenizer.ggml.token_type", gguf.i32s(types));
  metadata.set("tokenizer.ggml.merges", gguf.strings(mergeStrings(tokenizer)));
  const special = (key: string): number | undefined => {
    const value = source.tokenizerConfig?.[key];
    const text = typeof value === "string" ? value : (value as { content?: string } | null)?.content;
    return text === undefined ? undefined : tokenId(tokenizer, text);
  };
  const eos = special("eos_token") ?? firstId(config.eosTokenId);
  const bos = special("bos_token") ?? config.bosTokenId ?? tokenId(tokenizer, "<|endoftext|>");
  const pad = special("pad_token") ?? tokenId(tokenizer, "<|endoftext|>");
  if (bos !== undefined) metadata.set("tokenizer.ggml.bos_token_id", gguf.u32(bos));
  if (eos !== undefined) metadata.set("tokenizer.ggml.eos_token_id", gguf.u32(eos));
  if (pad !== undefined) metadata.set("tokenizer.ggml.padding_token_id", gguf.u32(pad));
  metadata.set("tokenizer.ggml.add_bos_token", gguf.bool(false));
  const template = source.tokenizerConfig?.chat_template;
  if (typeof template === "string") metadata.set("tokenizer.chat_template", gguf.string(template));
}

function firstId(ids: number | number[] | undefined): number | undefined {
  return Array.isArray(ids) ? ids[0] : ids;
}

/** Model metadata under the architecture's prefix. */
function modelMetadata(config: QwenConfig, options: ExportGgufOptions): Map<string, GgufValue> {
  const arch = config.architecture;
  const m = new Map<string, GgufValue>();
  m.set("general.architecture", gguf.string(arch));
  m.set("general.name", gguf.string(options.name ?? "rtool-export"));
  m.set("general.file_type", gguf.u32(FILE_TYPE[options.type ?? "F16"]));
  m.set("general.quantization_version", gguf.u32(2));
  m.set(`${arch}.context_length`, gguf.u32(config.maxPositionEmbeddings));
  m.set(`${arch}.embedding_length`, gguf.u32(config.hiddenSize));
  m.set(`${arch}.block_count`, gguf.u32(config.numLayers));
  m.set(`${arch}.feed_forward_length`, gguf.u32(config.intermediateSize));
  m.set(`${arch}.attention.head_count`, gguf.u32(config.numAttentionHeads));
  m.set(`${arch}.attention.head_count_kv`, gguf.u32(config.numKeyValueHeads));
  m.set(`${arch}.rope.freq_base`, gguf.f32(config.ropeTheta));
  m.set(`${arch}.attention.layer_norm_rms_epsilon`, gguf.f32(config.rmsNormEps));
  // llama.cpp derives head size as embedding/heads unless told; Qwen3 may differ (e.g. 128 != 1024/16)
  m.set(`${arch}.attention.key_length`, gguf.u32(config.headDim));
  m.set(`${arch}.attention.value_length`, gguf.u32(config.headDim));
  return m;
}

function checkOptions(config: QwenConfig, options: ExportGgufOptions): GgufFileType {
  const type = options.type ?? "F16";
  if (!(type in FILE_TYPE))
    throw new ExportOptionError(
      "type",
      `must be one of ${Object.keys(FILE_TYPE).join(", ")}, got ${String(type)}`,
    );
  if (config.ropeScaling && String(config.ropeScaling.rope_type ?? config.ropeScaling.type) !== "default") {
    throw new ExportOptionError("rope_scaling", "models with rope_scaling are not exported to GGUF");
  }
  return type;
}

/**
 * Writes a model as a GGUF v3 file for llama.cpp (and node-llama-cpp, Ollama, LM Studio).
 * Matrices are stored in `type`; norms and biases in F32.
 *
 * @example
 * ```ts
 * const written = await exportGguf("models/qwen2.5-0.5b-instruct", "qwen-q8.gguf", { type: "Q8_0" });
 * console.log(written.bytes);
 * ```
 */
export async function exportGguf(
  input: ExportInput,
  outFile: string,
  options: ExportGgufOptions = {},
): Promise<ExportedGguf> {
  return withExportSource(input, (source) => {
    const { config } = source;
    const fileType = checkOptions(config, options);
    const metadata = modelMetadata(config, { ...options, type: fileType });
    tokenizerMetadata(source, metadata);
    const written: ExportedGguf["tensors"] = [];
    const shapes = qwenTensorShapes(config);
    const tensors: GgufTensor[] = tensorPlan(config).map(({ gguf: name, hf, matrix }) => {
      const shape = shapes.get(hf);
      if (!shape) throw new ExportTensorError(hf, `not a tensor of a ${config.architecture} model`);
      const type = matrix ? matrixType(fileType, hf, shape[shape.length - 1]) : "F32";
      written.push({ name, source: hf, type });
      return {
        name,
        dims: [...shape].reverse(),
        type,
        encode: () => {
          const tensor = source.weights(hf);
          const count = shape.reduce((a, b) => a * b, 1);
          if (tensor.data.length !== count)
            throw new ExportTensorError(
              hf,
              `holds ${tensor.data.length} values, expected [${shape.join(", ")}]`,
            );
          return encodeGgml(type, tensor.data);
        },
      };
    });
    const bytes = writeGguf(outFile, metadata, tensors);
    return { path: outFile, bytes, tensors: written };
  });
}
