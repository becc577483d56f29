/**
 * A `.safetensors` file already in memory (fetched by a page or a worker) as a
 * {@link WeightSource}. The file reader (`safetensors.ts`) streams from disk; this one has the
 * whole buffer and only slices it, so it needs no file system.
 */
import { DTYPE_BYTES } from "./dtypes";
import { SafetensorsError, TensorDtypeError, TensorMissingError } from "./errors";
import { convertBfloat16ToFloat32, convertHalfToFloat32 } from "./half-float";
import type { SafetensorsDtype, TensorInfo, WeightSource } from "./types";

interface Entry extends TensorInfo {
  /** Offset of the tensor's first byte in the buffer. */
  start: number;
  byteLength: number;
}

function entryOf(name: string, raw: unknown, dataStart: number, bytes: number, file: string): Entry {
  const bad = (why: string): never => {
    throw new SafetensorsError(`${file}: tensor "${name}": ${why}`, { file, tensor: name });
  };
  const { dtype, shape, data_offsets: offsets } = (raw ?? {}) as Record<string, unknown>;
  if (typeof dtype !== "string" || !(dtype in DTYPE_BYTES)) {
    throw new TensorDtypeError(name, file, Object.keys(DTYPE_BYTES), String(dtype));
  }
  if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    bad(`shape ${JSON.stringify(shape)} is not a list of sizes`);
  }
  const [from, to] = Array.isArray(offsets) ? offsets : [];
  const size = (shape as number[]).reduce((a, b) => a * b, 1) * DTYPE_BYTES[dtype as SafetensorsDtype];
  if (!Number.isSafeInteger(from) || to - from !== size || from < 0) {
    bad(`data_offsets ${JSON.stringify(offsets)} do not hold ${size} bytes`);
  }
  if (dataStart + to > bytes) bad(`ends past the end of the file (${bytes} bytes; truncated download?)`);
  return {
    name,
    dtype: dtype as SafetensorsDtype,
    shape: shape as number[],
    start: dataStart + from,
    byteLength: size,
  };
}

/**
 * Parses a whole safetensors file held in memory. Tensors are copied out (and widened to
 * float32) only when read, so the buffer may be dropped once the graph is built.
 * @param file the URL or name it came from, named in errors
 * @throws {SafetensorsError} truncated or malformed file
 * @example
 * ```ts
 * const bytes = new Uint8Array(await (await fetch("/rt-tiny/model.safetensors")).arrayBuffer());
 * const source = safetensorsFromBytes(bytes, "model.safetensors");
 * source.readFloat32("model.norm.weight"); // Float32Array(256)
 * ```
 */
export function safetensorsFromBytes(bytes: Uint8Array, file: string): WeightSource {
  if (bytes.byteLength < 8) {
    throw new SafetensorsError(`${file}: ${bytes.byteLength} bytes, too short for a safetensors file`, {
      file,
    });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerBytes = Number(view.getBigUint64(0, true));
  if (8 + headerBytes > bytes.byteLength) {
    throw new SafetensorsError(`${file}: header of ${headerBytes} bytes runs past the file (truncated?)`, {
      file,
    });
  }
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(8, 8 + headerBytes)));
  } catch (cause) {
    throw new SafetensorsError(`${file}: header is not valid JSON`, { file }, { cause });
  }
  const tensors = new Map<string, Entry>();
  for (const [name, raw] of Object.entries(header)) {
    if (name !== "__metadata__")
      tensors.set(name, entryOf(name, raw, 8 + headerBytes, bytes.byteLength, file));
  }
  const find = (name: string): Entry => {
    const entry = tensors.get(name);
    if (!entry) throw new TensorMissingError(name, file);
    return entry;
  };
  const readBytes = (name: string): Uint8Array => {
    const { start, byteLength } = find(name);
    // a copy, aligned for the typed-array views below
    return bytes.slice(start, start + byteLength);
  };
  return {
    tensors,
    readBytes,
    readFloat32(name: string): Float32Array {
      const { dtype, byteLength } = find(name);
      const raw = readBytes(name);
      if (dtype === "F32") return new Float32Array(raw.buffer);
      const out = new Float32Array(byteLength / 2);
      if (dtype === "F16") return convertHalfToFloat32(new Uint16Array(raw.buffer), out);
      if (dtype === "BF16") return convertBfloat16ToFloat32(new Uint16Array(raw.buffer), out);
      throw new TensorDtypeError(name, file, ["F32", "F16", "BF16"], dtype);
    },
    close() {},
  };
}
