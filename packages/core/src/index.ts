/**
 * @rtool/core: load a Hugging Face Qwen checkpoint, run it on ONNX Runtime and turn a
 * command into a validated function call by multi-head parallel decoding.
 * @packageDocumentation
 */
export { VERSION } from "./version";
export type { QwenArchitecture, QwenConfig, SafetensorsDtype, TensorInfo, WeightSource } from "./model/types";
export type { DecoderRuntime, KvState, StepInput, StepOutput } from "./runtime/types";
