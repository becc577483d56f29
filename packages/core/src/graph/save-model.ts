/**
 * Writes a built graph to disk. Large initializers go to a side file (ONNX external data) so a
 * model bigger than protobuf's 2 GB limit can be stored; the side file is written tensor by
 * tensor, never assembled into one buffer.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { basename, dirname } from "node:path";
import { onnx } from "onnx-proto";
import { externalTensor, type GraphBuilder, initializerBytesView } from "./onnx-builder";

/** Initializers at or above this many bytes are written to the side file. */
export const DEFAULT_EXTERNAL_THRESHOLD = 1024;
/** Offsets of external tensors are aligned to this, so ONNX Runtime may memory-map them. */
const EXTERNAL_ALIGNMENT = 4096;

/** What {@link saveModel} wrote. */
export interface SavedModel {
  /** Path of the `.onnx` file. */
  modelPath: string;
  /** Path of the side file, when any tensor went there. */
  dataPath?: string;
  /** Bytes written to the side file. */
  externalBytes: number;
}

/**
 * Saves `graph` as `modelPath` plus `modelPath + ".data"` for initializers of at least
 * `externalThreshold` bytes.
 *
 * @example
 * ```ts
 * const saved = saveModel(buildQwenGraph(config, weights), "/some/dir/model.onnx");
 * const session = await createSession(saved.modelPath, { provider: "cpu" });
 * ```
 */
export function saveModel(
  graph: GraphBuilder,
  modelPath: string,
  options: { externalThreshold?: number } = {},
): SavedModel {
  const threshold = options.externalThreshold ?? DEFAULT_EXTERNAL_THRESHOLD;
  mkdirSync(dirname(modelPath), { recursive: true });
  const dataPath = `${modelPath}.data`;
  const location = basename(dataPath);
  let fd: number | undefined;
  let offset = 0;
  try {
    const proto = graph.toModelProto((init) => {
      if (init.data.byteLength < threshold) return undefined;
      if (fd === undefined) fd = openSync(dataPath, "w");
      const aligned = Math.ceil(offset / EXTERNAL_ALIGNMENT) * EXTERNAL_ALIGNMENT;
      if (aligned > offset) writeSync(fd, new Uint8Array(aligned - offset), 0, aligned - offset, offset);
      writeAll(fd, initializerBytesView(init), aligned);
      offset = aligned + init.data.byteLength;
      return externalTensor(init, location, aligned);
    });
    writeFileSync(modelPath, onnx.ModelProto.encode(proto).finish());
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return { modelPath, dataPath: fd === undefined ? undefined : dataPath, externalBytes: offset };
}

function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  // writeSync may write less than asked for large buffers; loop until done.
  let done = 0;
  while (done < bytes.byteLength) {
    const chunk = Math.min(bytes.byteLength - done, 1 << 30);
    done += writeSync(fd, bytes, done, chunk, position + done);
  }
}
