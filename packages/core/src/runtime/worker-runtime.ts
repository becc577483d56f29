/**
 * A {@link DecoderRuntime} whose ONNX Runtime session lives in a worker thread. onnxruntime-node
 * runs a session on the thread that calls `run` (its promise only defers the call), so on the
 * main thread every forward pass holds up the event loop: a server's HTTP requests, SSE writes
 * and timers all wait for the pass in progress. Here the pass runs in the worker while the main
 * thread keeps serving; a step costs one copy of its past KV into the worker (the new rows come
 * back transferred, and the present is a view of the past and them). Batching
 * (`BatchedRuntime`), the prefix cache and the decoders stay on the main thread, unchanged: they
 * see a runtime like any other.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { LoadModelOptions } from "../create-model";
import { Model } from "../model";
import type { QwenConfig } from "../model/types";
import { loadTokenizer, type RtoolTokenizer } from "../tokenizer";
import { emptyKvState } from "./kv";
import type {
  FromSessionWorker,
  SessionWorkerLoad,
  ToSessionWorker,
  WorkerStepOutput,
} from "./session-worker-protocol";
import { appendKv, kvPrefix, kvViewBytes } from "./split-kv";
import type { DecoderRuntime, KvState, StepInput, StepOutput } from "./types";

/** Options of {@link loadModelInWorker}: `loadModel`'s, less the hooks that cannot cross threads. */
export type WorkerLoadOptions = SessionWorkerLoad["options"] &
  Pick<LoadModelOptions, "onProgress" | "onWarning">;

/** The worker failed a step or a load; its message is the worker's error's. */
export class SessionWorkerError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name === "Error" ? "SessionWorkerError" : name;
  }
}

interface Waiting {
  /** The step's past: the present is it and the rows the worker sends back. */
  past: KvState;
  resolve: (output: StepOutput) => void;
  reject: (error: Error) => void;
}

/**
 * The main thread's side: forwards `step` to the worker, does the KV bookkeeping (empty, slice,
 * bytes) itself, since those are plain array copies.
 */
export class WorkerDecoderRuntime implements DecoderRuntime {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private disposed: Promise<void> | null = null;

  private constructor(
    private readonly worker: Worker,
    readonly config: QwenConfig,
    readonly provider: "cpu" | "cuda",
  ) {
    worker.onmessage = (event: MessageEvent<FromSessionWorker>) => this.receive(event.data);
    worker.onerror = (event) => this.failAll(new SessionWorkerError("Error", event.message));
  }

  /** Starts a worker and loads `dir` in it; resolves once its session is ready. */
  static start(dir: string, options: WorkerLoadOptions = {}): Promise<WorkerDecoderRuntime> {
    const worker = new Worker(workerEntry());
    const { onProgress, onWarning, ...cloneable } = options;
    return new Promise((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<FromSessionWorker>) => {
        const message = event.data;
        if (message.type === "progress") onProgress?.(message.progress);
        else if (message.type === "warning") (onWarning ?? console.warn)(message.message);
        else if (message.type === "ready")
          resolve(new WorkerDecoderRuntime(worker, message.config, message.provider));
        else if (message.type === "error") {
          worker.terminate();
          reject(new SessionWorkerError(message.name, message.message));
        }
      };
      worker.onerror = (event) => {
        worker.terminate();
        reject(new SessionWorkerError("Error", event.message));
      };
      const load: ToSessionWorker = { type: "load", dir, options: cloneable };
      worker.postMessage(load);
    });
  }

  step(input: StepInput): Promise<StepOutput> {
    if (this.disposed) return Promise.reject(new SessionWorkerError("Error", "the runtime was disposed"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { past: input.past, resolve, reject });
      // The past is copied, not transferred: the prefix cache and other callers still hold it.
      const message: ToSessionWorker = { type: "step", id, input: plainInput(input) };
      this.worker.postMessage(message);
    });
  }

  emptyKv(): KvState {
    return emptyKvState(this.config);
  }

  sliceKv(kv: KvState, length: number): KvState {
    return kvPrefix(kv, length, this.config);
  }

  kvBytes(kv: KvState): number {
    return kvViewBytes(kv);
  }

  /** Releases the session and ends the worker (steps still waiting are refused). */
  dispose(): Promise<void> {
    this.disposed ??= new Promise<void>((resolve) => {
      const done = () => {
        this.worker.terminate();
        this.failAll(new SessionWorkerError("Error", "the runtime was disposed"));
        resolve();
      };
      this.worker.onmessage = (event: MessageEvent<FromSessionWorker>) => {
        if (event.data.type === "disposed") done();
        else this.receive(event.data);
      };
      this.worker.postMessage({ type: "dispose" } satisfies ToSessionWorker);
      // A wedged worker must not hold up shutdown.
      setTimeout(done, 5000).unref?.();
    });
    return this.disposed;
  }

  private receive(message: FromSessionWorker): void {
    if (message.type === "step") {
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (waiting) waiting.resolve(this.stepOutput(waiting.past, message.output));
    } else if (message.type === "error" && message.id !== null) {
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      waiting?.reject(new SessionWorkerError(message.name, message.message));
    } else if (message.type === "warning") {
      console.warn(message.message);
    }
  }

  private stepOutput(past: KvState, output: WorkerStepOutput): StepOutput {
    if (!output.added) return { logits: output.logits, present: output.present };
    const { numKeyValueHeads: kvHeads, headDim } = this.config;
    const { keys, values, length } = output.added;
    const rows = { keys, values, total: length, kvHeads, headDim };
    return {
      logits: output.logits,
      present: appendKv(past, rows, 0, length, this.config),
      added: output.added,
    };
  }

  private failAll(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}

/**
 * The worker's script: the TypeScript source beside this file in the workspace, or the built
 * entry (`dist/runtime/session-worker-entry.js`, see the package's build script) in a package.
 */
function workerEntry(): string {
  const source = new URL("./session-worker-entry.ts", import.meta.url);
  if (existsSync(fileURLToPath(source))) return source.href;
  return new URL("./runtime/session-worker-entry.js", import.meta.url).href;
}

/**
 * An array that is all of its buffer: a view of a larger one (a merging runtime's reused pass
 * buffers) would clone the whole buffer.
 */
function own(array: Float32Array): Float32Array {
  return array.byteOffset === 0 && array.byteLength === array.buffer.byteLength ? array : array.slice();
}

/** A step input as plain arrays (typed arrays clone as they are; array-likes become arrays). */
function plainInput(input: StepInput): StepInput {
  return {
    tokenIds: Array.from(input.tokenIds),
    positions: Array.from(input.positions),
    attentionMask: input.attentionMask && own(input.attentionMask),
    past: { length: input.past.length, keys: input.past.keys.map(own), values: input.past.values.map(own) },
    ...(input.logitRows ? { logitRows: Array.from(input.logitRows) } : {}),
  };
}

/**
 * `loadModel` with the session in a worker thread: the tokenizer loads here, the weights and the
 * session there. For servers, whose event loop must not wait on forward passes.
 *
 * @example
 * ```ts
 * const model = await loadModelInWorker("models/rt-tiny");
 * const rt = await createRealtimeCaller(model, { format: "v2" }); // steps run in the worker
 * ```
 */
export async function loadModelInWorker(
  dir: string,
  options: WorkerLoadOptions = {},
): Promise<Model<RtoolTokenizer>> {
  const tokenizer = loadTokenizer(dir);
  return new Model(await WorkerDecoderRuntime.start(dir, options), tokenizer);
}
