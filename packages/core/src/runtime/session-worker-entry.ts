/**
 * The worker side of {@link WorkerDecoderRuntime}: loads the model with `loadModel` and runs its
 * forward passes here, so onnxruntime-node's session (which runs on the thread that calls it)
 * never holds up the main thread's event loop. Steps arrive one at a time from the main thread's
 * batcher; each reply hands its arrays over (transferred, not copied): the new rows' keys and
 * values where the graph returns them apart, else the whole present.
 */
import { loadModel } from "../load-model";
import type { Model } from "../model";
import type { RtoolTokenizer } from "../tokenizer";
import type { FromSessionWorker, ToSessionWorker, WorkerStepOutput } from "./session-worker-protocol";

declare const self: Worker;

let model: Model<RtoolTokenizer> | null = null;

function send(message: FromSessionWorker, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

function fail(id: number | null, error: unknown): void {
  const e = error instanceof Error ? error : new Error(String(error));
  send({ type: "error", id, name: e.name, message: e.message });
}

self.onmessage = async (event: MessageEvent<ToSessionWorker>) => {
  const message = event.data;
  if (message.type === "load") {
    try {
      model = await loadModel(message.dir, {
        ...message.options,
        onProgress: (progress) => send({ type: "progress", progress }),
        onWarning: (warning) => send({ type: "warning", message: warning }),
      });
      send({ type: "ready", config: model.runtime.config, provider: model.runtime.provider });
    } catch (error) {
      fail(null, error);
    }
  } else if (message.type === "step") {
    try {
      if (!model) throw new Error("the session worker has no model loaded");
      const step = await model.runtime.step(message.input);
      // The main thread holds the past: the new rows are all it needs back, when there are such.
      const output: WorkerStepOutput = step.added
        ? { logits: step.logits, added: step.added }
        : { logits: step.logits, present: step.present };
      const kv = output.added ?? output.present;
      const buffers = new Set<ArrayBufferLike>([
        output.logits.buffer,
        ...kv.keys.map((k) => k.buffer),
        ...kv.values.map((v) => v.buffer),
      ]);
      const transfer = [...buffers].filter(
        (b): b is ArrayBuffer => b instanceof ArrayBuffer && b.byteLength > 0,
      );
      try {
        send({ type: "step", id: message.id, output }, transfer);
      } catch {
        // Arrays the runtime does not own outright cannot move: copy them instead.
        send({ type: "step", id: message.id, output });
      }
    } catch (error) {
      fail(message.id, error);
    }
  } else if (message.type === "dispose") {
    await model?.dispose();
    model = null;
    send({ type: "disposed" });
  }
};
