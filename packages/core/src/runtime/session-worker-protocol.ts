/**
 * The messages between {@link WorkerDecoderRuntime} and its worker (`session-worker-entry.ts`):
 * plain structured-clone data, so both sides agree on them in one place.
 */
import type { LoadProgress } from "../create-model";
import type { QwenConfig } from "../model/types";
import type { KvState, StepInput } from "./types";

/**
 * A step's result as the worker sends it: the new rows alone when the graph returns them apart
 * (the main thread, which holds the past, views the two as the present), else the whole present.
 */
export type WorkerStepOutput =
  | { logits: Float32Array; added: KvState; present?: undefined }
  | { logits: Float32Array; present: KvState; added?: undefined };

/** What the worker needs to load a model: `loadModel`'s options that survive structured cloning. */
export interface SessionWorkerLoad {
  type: "load";
  dir: string;
  options: {
    provider?: "cpu" | "cuda" | "auto";
    threads?: number;
    spinning?: boolean;
    cache?: boolean;
    quant?: "none" | "int8" | "int4";
    skipWeightCheck?: boolean;
  };
}

/** Main thread to worker. */
export type ToSessionWorker =
  | SessionWorkerLoad
  | { type: "step"; id: number; input: StepInput }
  | { type: "dispose" };

/** Worker to main thread. */
export type FromSessionWorker =
  | { type: "progress"; progress: LoadProgress }
  | { type: "warning"; message: string }
  | { type: "ready"; config: QwenConfig; provider: "cpu" | "cuda" }
  | { type: "step"; id: number; output: WorkerStepOutput }
  | { type: "error"; id: number | null; name: string; message: string }
  | { type: "disposed" };
