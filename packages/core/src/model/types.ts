/**
 * Plain data types shared by the model loader, the graph builder and the runtime.
 * Config, weights and run state stay three separate things (see STYLE.md, llama2.c).
 */

/** Element types found in safetensors files that rtool reads. */
export type SafetensorsDtype = "F32" | "F16" | "BF16" | "I32" | "I64" | "I8" | "U8";

/** The Qwen architectures rtool builds graphs for. */
export type QwenArchitecture = "qwen2" | "qwen3";

/** Typed view of a Hugging Face `config.json` for Qwen2 / Qwen2.5 / Qwen3 dense models. */
export interface QwenConfig {
  /** Which builder applies: `qwen2` has q/k/v biases, `qwen3` has q/k RMSNorm. */
  architecture: QwenArchitecture;
  vocabSize: number;
  hiddenSize: number;
  intermediateSize: number;
  numLayers: number;
  numAttentionHeads: number;
  numKeyValueHeads: number;
  headDim: number;
  ropeTheta: number;
  rmsNormEps: number;
  tieWordEmbeddings: boolean;
  maxPositionEmbeddings: number;
  /** q/k/v projections carry biases (Qwen2 family). */
  attentionBias: boolean;
  /** per-head RMSNorm on q and k before RoPE (Qwen3 family). */
  qkNorm: boolean;
  /** `torch_dtype` as written in the config, informational. */
  torchDtype?: string;
  /**
   * Raw `rope_scaling`, when present and not null (e.g. YaRN). Plain RoPE with `ropeTheta` is
   * only exact without it; a graph builder that cannot apply it should refuse the model.
   */
  ropeScaling?: Record<string, unknown>;
  /** Raw `quantization_config`, when present; interpreted by `quant/`. */
  quantization?: Record<string, unknown>;
  bosTokenId?: number;
  eosTokenId?: number | number[];
}

/** Name, element type and shape of one stored tensor. */
export interface TensorInfo {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
}

/**
 * Random access to the tensors of a checkpoint (one file or many shards).
 * Reads one tensor at a time from disk so a shard is never held whole in memory.
 */
export interface WeightSource {
  /** Every tensor in the checkpoint, by name. */
  readonly tensors: ReadonlyMap<string, TensorInfo>;
  /** Reads a floating point tensor (F32, F16 or BF16 on disk) as float32. */
  readFloat32(name: string): Float32Array;
  /** Reads a tensor's raw little-endian bytes, e.g. packed int32 AWQ weights. */
  readBytes(name: string): Uint8Array;
  /** Releases file handles. */
  close(): void;
}
