/**
 * `exportTransformersJs`: a Qwen model as a directory transformers.js (and Optimum's ONNX Runtime
 * classes) load: `onnx/model{suffix}.onnx` in the Optimum decoder layout, `config.json`,
 * `tokenizer.json`, `tokenizer_config.json` with a chat template and `generation_config.json`.
 * The graph is rtool's own transformer under {@link hfDecoderLayout}, quantized like rtool's
 * int8 / int4 modes for "q8" / "q4".
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildQwenGraph } from "../graph/qwen";
import { saveModel } from "../graph/save-model";
import { type QuantCompute, quantizeOnLoadOptions } from "../quant/select";
import { ExportOptionError } from "./errors";
import { type HfLogitRows, hfDecoderLayout } from "./hf-decoder-layout";
import { type ExportInput, type ExportSource, qwenConfigJson, withExportSource } from "./source";

/** transformers.js dtypes the exporter writes, with the file suffix transformers.js looks for. */
export const TRANSFORMERS_JS_FILES = {
  fp32: "model.onnx",
  q8: "model_quantized.onnx",
  q4: "model_q4.onnx",
} as const;

/** A dtype of {@link exportTransformersJs}: float32, or rtool's int8 / int4 MatMulNBits blocks. */
export type TransformersJsDtype = keyof typeof TRANSFORMERS_JS_FILES;

/** Options of {@link exportTransformersJs}. */
export interface ExportTransformersJsOptions {
  /** Weight format; default "fp32". Load it with `{ dtype }` of the same name. */
  dtype?: TransformersJsDtype;
  /** Rows that get logits; default "all" (the Optimum layout). "last" skips the classifier for the prompt rows. */
  logits?: HfLogitRows;
  /** How q8/q4 layers compute (see `QuantCompute`); default "fast". */
  quantCompute?: QuantCompute;
}

/** What {@link exportTransformersJs} wrote. */
export interface ExportedTransformersJs {
  dir: string;
  /** The ONNX file, e.g. `<dir>/onnx/model_quantized.onnx`. */
  modelPath: string;
  /** Its external data file, for models too large for one protobuf. */
  dataPath?: string;
}

/** Graphs with fewer initializer bytes than this are written as one file (protobuf's limit is 2 GiB). */
const SINGLE_FILE_LIMIT = 1.5 * 2 ** 30;

/** Qwen's ChatML template, for sources without one. */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

function tokenizerConfigOf(source: ExportSource): Record<string, unknown> {
  const config: Record<string, unknown> = { ...(source.tokenizerConfig ?? {}) };
  config.tokenizer_class ??= "Qwen2Tokenizer";
  config.chat_template ??= CHATML_TEMPLATE;
  config.eos_token ??= "<|im_end|>";
  config.pad_token ??= "<|endoftext|>";
  config.add_bos_token ??= false;
  return config;
}

function configJsonOf(source: ExportSource): Record<string, unknown> {
  const json = { ...(source.configJson ?? qwenConfigJson(source.config)) };
  // transformers.js sizes the empty KV cache from head_dim (absent from many Qwen2 configs)
  json.head_dim = source.config.headDim;
  json.model_type = source.config.architecture;
  return json;
}

function generationConfigOf(source: ExportSource): Record<string, unknown> {
  if (source.generationConfig) return source.generationConfig;
  return { bos_token_id: source.config.bosTokenId, eos_token_id: source.config.eosTokenId, do_sample: false };
}

/**
 * Writes a model as a transformers.js model directory.
 *
 * @example
 * ```ts
 * await exportTransformersJs("models/qwen2.5-0.5b-instruct", "out/qwen-tjs", { dtype: "q8" });
 * // transformers.js: env.localModelPath = "out"; await AutoModelForCausalLM.from_pretrained("qwen-tjs", { dtype: "q8" })
 * ```
 */
export async function exportTransformersJs(
  input: ExportInput,
  outDir: string,
  options: ExportTransformersJsOptions = {},
): Promise<ExportedTransformersJs> {
  const dtype = options.dtype ?? "fp32";
  if (!(dtype in TRANSFORMERS_JS_FILES))
    throw new ExportOptionError(
      "dtype",
      `must be one of ${Object.keys(TRANSFORMERS_JS_FILES).join(", ")}, got ${dtype}`,
    );
  return withExportSource(input, (source) => {
    const quant = dtype === "q8" ? "int8" : dtype === "q4" ? "int4" : "none";
    const graph = buildQwenGraph(source.config, source.weights, {
      ...quantizeOnLoadOptions(quant, options.quantCompute ?? "fast"),
      io: hfDecoderLayout(options.logits ?? "all"),
    });
    const modelPath = join(outDir, "onnx", TRANSFORMERS_JS_FILES[dtype]);
    const single = graph.initializerBytes() < SINGLE_FILE_LIMIT;
    const saved = saveModel(graph, modelPath, {
      externalThreshold: single ? Number.POSITIVE_INFINITY : undefined,
    });
    mkdirSync(outDir, { recursive: true });
    const json = (name: string, value: unknown) =>
      writeFileSync(join(outDir, name), `${JSON.stringify(value, null, 2)}\n`);
    json("config.json", configJsonOf(source));
    json("tokenizer.json", source.tokenizer);
    json("tokenizer_config.json", tokenizerConfigOf(source));
    json("generation_config.json", generationConfigOf(source));
    return { dir: outDir, modelPath, dataPath: saved.dataPath };
  });
}
