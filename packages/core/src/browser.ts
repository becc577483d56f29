/**
 * `@rtool/core/browser`: the call path for pages and Web Workers, with no Node-only import.
 * Prompt, tokenizer, sequence batch (`SequenceBatch`), multi-head decoder, constraints and call
 * mapping are the same modules as the Node entry's; the runtime is onnxruntime-web (WASM) instead of onnxruntime-node, and the
 * model is fetched by URL (kept in the Cache API) instead of read from a directory.
 *
 * @example
 * ```ts
 * import { createRealtimeCaller, loadWebModel } from "@rtool/core/browser";
 * const { model } = await loadWebModel("/models/rt-tiny/", { wasmPaths: "/ort/" });
 * const rt = await createRealtimeCaller(model, { format: "v2" });
 * const call = await rt.call({ query: "Amiya, use your skill now", tools });
 * ```
 * @packageDocumentation
 */

export { type CallerLanesOptions, createCallerLanes, WASM_MERGE_OPTIONS } from "./batch/caller-lanes";
export type { PrefixCacheStats } from "./batch/prefix-cache";
export { DEFAULT_PREFIX_CACHE_BYTES, PrefixCache } from "./batch/prefix-cache";
export * from "./batch/public";
export { webGraphCacheKey } from "./browser/graph-store";
export {
  loadWebModel,
  type WebLoadProgress,
  type WebLoadTimings,
  type WebModelOptions,
} from "./browser/load-web-model";
export { fetchModelFile, ModelFetchError, type ModelFileOptions } from "./browser/model-files";
export { AnswerCache, type AnswerCacheStats } from "./caller/answer-cache";
export { CallerInputError, PromptTooLongError } from "./caller/errors";
export {
  type CallerModel,
  type CallHeads,
  type CallRequest,
  type CallResult,
  type CallStreamEvent,
  type CallTimings,
  createRealtimeCaller,
  RealtimeCaller,
  type RealtimeCallerOptions,
} from "./caller/realtime-caller";
export { type CallIssue, type HeadTexts, type MappedCall, mapHeadsToCall } from "./calls/map-heads";
export { buildHeadConstraints, type HeadConstraints } from "./decode/constraints/build";
export { type DecodeHeadsInput, type DecodeHeadsResult, decodeHeads } from "./decode/multi-head";
export { buildQwenGraph, QWEN_IO } from "./graph/qwen";
export { Model, type TextTokenizer } from "./model";
export { ConfigError, ModelLoadError, SafetensorsError, TokenizerError } from "./model/errors";
export { type GenerationConfig, parseGenerationConfig, parseQwenConfig } from "./model/parse-config";
export { safetensorsFromBytes } from "./model/safetensors-bytes";
export type { QwenConfig, WeightSource } from "./model/types";
export { buildPrompt, PromptFormatError, systemPrefix } from "./prompt/build";
export { END_OF_TURN, type HeadName, headNames, NULL_MARKER } from "./prompt/heads";
export type { PromptFormat } from "./prompt/request";
export { normalizeTools, type ToolInput, ToolSchemaError, type ToolSpec, toToolSpecs } from "./prompt/tools";
export { RuntimeDisposedError, SessionCreateError, StepInputError } from "./runtime/errors";
export { OrtSessionRuntime } from "./runtime/ort-session-runtime";
export type { DecoderRuntime, KvState, StepInput, StepOutput } from "./runtime/types";
export {
  chooseWasmThreads,
  createWebRuntime,
  type WasmThreads,
  type WebRuntimeOptions,
  webRuntimeThreads,
} from "./runtime/web-runtime";
export { type AddedToken, type DecodeOptions, RtoolTokenizer } from "./tokenizer/tokenizer";
export { VERSION } from "./version";
