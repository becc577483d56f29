/**
 * {@link DecoderRuntime} on an `onnxruntime-node` session running a graph from `graph/qwen.ts`;
 * the step itself is `OrtSessionRuntime`'s, shared with the browser runtime.
 */
import * as ort from "onnxruntime-node";
import type { QwenConfig } from "../model/types";
import { OrtSessionRuntime, type OrtTensorFactory } from "./ort-session-runtime";

const NODE_TENSORS: OrtTensorFactory = {
  int64: (data, dims) => new ort.Tensor("int64", data, dims),
  float32: (data, dims) => new ort.Tensor("float32", data, dims),
};

/**
 * Runs one Qwen decoder session.
 *
 * @example
 * ```ts
 * const { session, provider } = await createSession(bytes, { provider: "cpu" });
 * const runtime = new OrtDecoderRuntime(config, session, provider);
 * const { logits, present } = await runtime.step({ tokenIds: [1, 2], positions: [0, 1], past: runtime.emptyKv() });
 * ```
 */
export class OrtDecoderRuntime extends OrtSessionRuntime {
  constructor(config: QwenConfig, session: ort.InferenceSession, provider: "cpu" | "cuda") {
    super(config, session, provider, NODE_TENSORS);
  }
}
