/**
 * @rtool/core: load a Hugging Face Qwen checkpoint, run it on ONNX Runtime and turn a
 * command into a validated function call by multi-head parallel decoding.
 * @packageDocumentation
 */

export { BatchedRuntime, type BatchedRuntimeOptions } from "./batch/batched-runtime";
export { type CallerLanesOptions, createCallerLanes, WASM_MERGE_OPTIONS } from "./batch/caller-lanes";
export { type KvAnchor, KvLineage, layoutSharedPast, type SharedPastLayout } from "./batch/kv-lineage";
export { type KvLayout, mergeSteps } from "./batch/merge-steps";
export { PassCostModel, type PassCostOptions, weightCount } from "./batch/pass-cost";
export type { KvOps, PrefixCacheOptions, PrefixCacheStats, PrefixMatch } from "./batch/prefix-cache";
export { DEFAULT_PREFIX_CACHE_BYTES, PrefixCache } from "./batch/prefix-cache";
export * from "./batch/public";
export type { MaskRow } from "./batch/tree-mask";
export { buildStepMask, causalRows, MASKED } from "./batch/tree-mask";
export {
  AnswerCache,
  type AnswerCacheStats,
  type AnswerKeyParts,
} from "./caller/answer-cache";
export { CallerInputError, PromptTooLongError } from "./caller/errors";
export type {
  AnswerStore,
  CachedAnswer,
  CallerModel,
  CallHeads,
  CallRequest,
  CallResult,
  CallStreamEvent,
  CallTimings,
  RealtimeCallerOptions,
} from "./caller/realtime-caller";
export { createRealtimeCaller, RealtimeCaller } from "./caller/realtime-caller";
export { DEFAULT_COPY_BIAS } from "./caller/types";
export type { ParsedValue } from "./calls/head-value";
export {
  enumText,
  foldCase,
  headValueText,
  INTEGER_PATTERN,
  NUMBER_PATTERN,
  parseParameterValue,
  stripTokenizerSpace,
} from "./calls/head-value";
export type { HistoryCall } from "./calls/history";
export { formatCallForHistory } from "./calls/history";
export type { CallIssue, HeadTexts, MappedCall } from "./calls/map-heads";
export { mapHeadsToCall } from "./calls/map-heads";
export type { LoadProgress } from "./create-model";
export { createModelFromWeights, type LoadModelOptions } from "./create-model";
export type { HeadConstraintOptions, HeadConstraints } from "./decode/constraints/build";
export { buildHeadConstraints, parameterConstraint } from "./decode/constraints/build";
export type { Choice } from "./decode/constraints/choice";
export {
  booleanConstraint,
  choiceGrammar,
  enumConstraint,
  functionNameConstraint,
} from "./decode/constraints/choice";
export { freeTextConstraint, nullOnlyConstraint } from "./decode/constraints/free-text";
export { integerConstraint, numberConstraint } from "./decode/constraints/numeric";
export type { ConstraintKind, HeadConstraint } from "./decode/constraints/types";
export { unionConstraint } from "./decode/constraints/union";
export type { ValueGrammar } from "./decode/constraints/value-grammar";
export { spacedConstraint } from "./decode/constraints/value-grammar";
export { biasCopies, biasCopiesFrom, CopySource } from "./decode/copy-bias";
export type {
  DoneText,
  HeadStops,
  HeadTextState,
  OpenText,
  RejectedText,
  TextConstraint,
} from "./decode/head-text";
export { classifyHeadText, forcedEnding } from "./decode/head-text";
export type {
  DecodeHeadsInput,
  DecodeHeadsResult,
  HeadForksInput,
  HeadOutcome,
  HeadPlan,
  HeadStopReason,
} from "./decode/multi-head";
export { DecodeInputError, decodeHeadForks, decodeHeads } from "./decode/multi-head";
export { decodePrompt, type PromptDecodeInput, type PromptDecodeResult } from "./decode/prefix-decode";
export type { PromptDraftOptions } from "./decode/prompt-lookup";
export { DRAFT_DEFAULT_MAX_PARAMS, defaultDraftTokens, draftFromPrompt } from "./decode/prompt-lookup";
export type { HeadScript } from "./decode/testing/forced-runtime";
export { TeacherForcedRuntime } from "./decode/testing/forced-runtime";
export type { TokenVocab } from "./decode/token-vocab";
export { VocabIndex } from "./decode/token-vocab";
export * from "./export";
export { UnsupportedGraphFeatureError } from "./graph/errors";
export {
  CACHED_MODEL_FILE,
  cachedGraphPath,
  findCachedGraph,
  graphCacheKey,
  graphCacheRoot,
} from "./graph/graph-cache";
export {
  type AttributeValue,
  type Dim,
  type ElemType,
  GraphBuilder,
  type Initializer,
  type InitializerData,
} from "./graph/onnx-builder";
export type {
  QwenGraphInputs,
  QwenGraphOptions,
  QwenIoLayout,
  WeightProvider,
  WeightTensor,
} from "./graph/qwen";
export {
  buildQwenGraph,
  float32Linear,
  type LinearHook,
  type LinearSpec,
  QWEN_GRAPH_VERSION,
  QWEN_IO,
  RTOOL_IO_LAYOUT,
  ropeFrequencyDivisor,
} from "./graph/qwen";
export { qwenTensorShapes, randomQwenWeights } from "./graph/random-weights";
export { type SavedModel, saveModel } from "./graph/save-model";
export { loadModel } from "./load-model";
export { type GenerateOptions, Model, type TextTokenizer } from "./model";
export {
  type GenerationConfig,
  parseGenerationConfig,
  parseQwenConfig,
  readGenerationConfig,
  readQwenConfig,
} from "./model/config";
export {
  ConfigError,
  ModelLoadError,
  SafetensorsError,
  TensorDtypeError,
  TensorMissingError,
  TensorShapeError,
  TensorValueError,
  TokenizerError,
  UnsupportedArchitectureError,
} from "./model/errors";
export { finiteWeights, firstNonFinite } from "./model/finite-weights";
export { bfloat16ToFloat32, halfToFloat32 } from "./model/half-float";
export {
  type CheckQwenWeightsOptions,
  checkQwenWeights,
  type ExpectedTensor,
  expectedQwenTensors,
  type LinearTensorCheck,
  type QwenTensorRole,
} from "./model/qwen-weights";
export { type RandomCheckpointOptions, writeRandomQwenCheckpoint } from "./model/random-checkpoint";
export { SafetensorsFile, type SafetensorsHeader, type StoredTensor } from "./model/safetensors";
export { type TensorToWrite, writeSafetensors } from "./model/safetensors-writer";
export { layerShapeJson, QWEN_SHAPES, type QwenShapeName } from "./model/shapes";
export type { QwenArchitecture, QwenConfig, SafetensorsDtype, TensorInfo, WeightSource } from "./model/types";
export { openWeights, type ShardedTensor, ShardedWeights } from "./model/weights";
export {
  buildPrompt,
  buildPromptText,
  PromptFormatError,
  systemPrefix,
  systemPrefixText,
} from "./prompt/build";
export type { HeadName } from "./prompt/heads";
export {
  END_OF_TURN,
  headCloseTag,
  headNames,
  headTag,
  headTags,
  NULL_MARKER,
  stopMarkers,
} from "./prompt/heads";
export { type PlainText, type PromptText, plain, promptText } from "./prompt/prompt-text";
export { toPythonJson } from "./prompt/python-json";
export {
  MAX_HISTORY,
  renderEnvironment,
  renderHistory,
  renderToolJson,
  renderToolsBlock,
} from "./prompt/render";
export type { PromptFormat, PromptRequest, SystemRequest } from "./prompt/request";
export type { FunctionSchema, ParameterType, ToolInput, ToolParameter, ToolSpec } from "./prompt/tools";
export {
  isToolSpec,
  MAX_TOOL_PARAMETERS,
  maxParameterCount,
  normalizeTools,
  ToolSchemaError,
  toToolSpecs,
} from "./prompt/tools";
export { buildPromptV1, systemPrefixV1, V1_HEADS_DESCRIPTION } from "./prompt/v1";
export { buildPromptV2, systemPrefixV2, V2_DEFAULT_SYSTEM } from "./prompt/v2";
export {
  ACCURACY_LEVELS,
  type AccuracyLevel,
  type AccuracyLevelRow,
  type AccuracyLevelTable,
  measuredAccuracyLevel,
} from "./quant/accuracy-level";
export {
  AWQ_ORDER,
  type AwqConfig,
  awqLinear,
  awqToMatMulNBits,
  checkAwqLinear,
  parseAwqConfig,
  readAwqLinear,
} from "./quant/awq";
export { QuantizedLayoutError, SUPPORTED_QUANTIZATION, UnsupportedQuantizationError } from "./quant/errors";
export { INT4_BLOCK_SIZE, int4Linear } from "./quant/int4";
export { INT8_BLOCK_SIZE, int8Linear } from "./quant/int8";
export {
  allocateMatMulNBits,
  blockCount,
  dequantizeMatMulNBits,
  type EmitMatMulNBitsOptions,
  emitMatMulNBits,
  type MatMulNBitsAccuracyLevel,
  type MatMulNBitsWeight,
  matMulNBitsBytes,
  type NBits,
} from "./quant/matmul-nbits";
export {
  type RandomQuantizedOptions,
  randomMatMulNBits,
  randomQuantizedLinear,
} from "./quant/random-quantized";
export {
  quantizeRoundToNearest,
  type RoundToNearestLinearOptions,
  type RoundToNearestOptions,
  roundToNearestLinear,
} from "./quant/round-to-nearest";
export {
  accuracyLevelOf,
  checkQuantCompute,
  checkQuantMode,
  planQuantization,
  QUANT_MODES,
  type QuantCompute,
  type QuantizationPlan,
  type QuantMode,
  quantizeOnLoadOptions,
} from "./quant/select";
export { physicalCoreCount } from "./runtime/cpu-cores";
export { missingCudaLibraries, ortBinaryDir } from "./runtime/cuda-libraries";
export {
  CUDA_INSTALL_HINT,
  ProviderUnavailableError,
  RuntimeDisposedError,
  RuntimeError,
  SessionCreateError,
  StepInputError,
  UnknownProviderError,
} from "./runtime/errors";
export { causalMask, emptyKvState, type KvShape, kvStateBytes, sliceKvState } from "./runtime/kv";
export { OrtDecoderRuntime } from "./runtime/ort-runtime";
export {
  type CreatedSession,
  checkProviderRequest,
  createSession,
  type ProviderRequest,
  type SessionOptions,
} from "./runtime/session";
export { appendKv, copyPositions, type KvRun, type KvSource, SplitKv } from "./runtime/split-kv";
export type { DecoderRuntime, KvState, StepInput, StepOutput, StepTiming } from "./runtime/types";
export {
  loadModelInWorker,
  SessionWorkerError,
  WorkerDecoderRuntime,
  type WorkerLoadOptions,
} from "./runtime/worker-runtime";
export {
  type AddedToken,
  type DecodeOptions,
  IncrementalDetokenizer,
  loadTokenizer,
  RtoolTokenizer,
  readTokenizerFile,
} from "./tokenizer";
export * from "./tools";
export { VERSION } from "./version";
