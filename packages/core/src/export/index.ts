/**
 * Exporters: a Qwen model as a transformers.js directory (ONNX decoder in the Optimum layout)
 * or as a GGUF file for llama.cpp, from a Hugging Face directory or weights in memory.
 */
export { ExportOptionError, ExportSourceError, ExportTensorError } from "./errors";
export {
  decodeGgml,
  encodeGgml,
  float32ToHalfBits,
  GGML_BLOCK,
  GGML_TYPE,
  type GgmlType,
  ggmlBytes,
  ggmlFitsRow,
  quantizeQ4_0,
  quantizeQ8_0,
} from "./ggml-blocks";
export { type ExportedGguf, type ExportGgufOptions, exportGguf, type GgufFileType } from "./gguf";
export { GGUF_ALIGNMENT, type GgufTensor, type GgufValue, gguf, writeGguf } from "./gguf-writer";
export { type HfLogitRows, hfDecoderLayout } from "./hf-decoder-layout";
export {
  type ExportInput,
  type ExportSource,
  mergeStrings,
  openExportSource,
  qwenConfigJson,
  type TokenizerJson,
  tokenId,
  tokenTable,
  withExportSource,
} from "./source";
export {
  CHATML_TEMPLATE,
  type ExportedTransformersJs,
  type ExportTransformersJsOptions,
  exportTransformersJs,
  TRANSFORMERS_JS_FILES,
  type TransformersJsDtype,
} from "./transformers-js";
