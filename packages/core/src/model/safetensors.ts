/**
 * Streaming reader for one `.safetensors` file: an 8-byte little-endian header length, a JSON
 * header, then the raw tensor bytes. Only the header is read up front; each tensor is read with a
 * positioned read when asked for, so a multi-gigabyte shard is never held in memory.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { DTYPE_BYTES, FLOAT_DTYPES } from "./dtypes";
import { SafetensorsError, TensorDtypeError, TensorMissingError } from "./errors";
import { convertBfloat16ToFloat32, convertHalfToFloat32 } from "./half-float";
import type { SafetensorsDtype, TensorInfo, WeightSource } from "./types";

export { DTYPE_BYTES, FLOAT_DTYPES } from "./dtypes";

/** Where one tensor's bytes lie in its file. */
export interface StoredTensor extends TensorInfo {
  /** Absolute byte offset in the file (header included). */
  byteOffset: number;
  byteLength: number;
}

/** Parsed header of one safetensors file. */
export interface SafetensorsHeader {
  tensors: Map<string, StoredTensor>;
  /** The free-form `__metadata__` string map, when present. */
  metadata: Record<string, string>;
}

/** A header larger than this is taken to be a corrupt length field, not a real header. */
const MAX_HEADER_BYTES = 100 * 1024 * 1024;
/** Positioned reads are issued in chunks below the 2 GiB per-call limit of `readSync`. */
const READ_CHUNK_BYTES = 1 << 30;

function fail(file: string, message: string, tensor?: string): never {
  throw new SafetensorsError(`${file}: ${message}`, tensor === undefined ? { file } : { file, tensor });
}

/** Fills `target` from `fd` at `position`; a short read means the file ended early. */
function readFully(fd: number, target: Uint8Array, position: number, file: string, tensor?: string): void {
  let done = 0;
  while (done < target.length) {
    const length = Math.min(READ_CHUNK_BYTES, target.length - done);
    const read = readSync(fd, target, done, length, position + done);
    if (read === 0) {
      fail(file, `file ends after ${position + done} bytes while reading ${target.length} bytes`, tensor);
    }
    done += read;
  }
}

function isSafeShape(shape: unknown): shape is number[] {
  return (
    Array.isArray(shape) && shape.every((d) => typeof d === "number" && Number.isSafeInteger(d) && d >= 0)
  );
}

/**
 * Reads and validates the header of an open safetensors file: every tensor's dtype is known,
 * its byte range matches its shape, and lies inside the file.
 * @param fd an open file descriptor
 * @param file the file's path, named in errors
 * @throws {SafetensorsError} truncated file, malformed header or out-of-range offsets
 */
export function readSafetensorsHeader(fd: number, file: string): SafetensorsHeader {
  const fileSize = fstatSync(fd).size;
  if (fileSize < 8) fail(file, `file is ${fileSize} bytes, too short for a safetensors header`);
  const lengthBytes = new Uint8Array(8);
  readFully(fd, lengthBytes, 0, file);
  const headerLength = new DataView(lengthBytes.buffer).getBigUint64(0, true);
  if (headerLength > BigInt(MAX_HEADER_BYTES)) {
    fail(file, `header length ${headerLength} is implausible (corrupt file?)`);
  }
  const headerBytes = Number(headerLength);
  if (8 + headerBytes > fileSize) {
    fail(file, `header claims ${headerBytes} bytes but the file is only ${fileSize} bytes (truncated?)`);
  }
  const jsonBytes = new Uint8Array(headerBytes);
  readFully(fd, jsonBytes, 8, file);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(jsonBytes));
  } catch (cause) {
    throw new SafetensorsError(
      `${file}: header is not valid JSON (${(cause as Error).message})`,
      { file },
      { cause },
    );
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) {
    fail(file, "header is not a JSON object");
  }

  const dataStart = 8 + headerBytes;
  const dataSize = fileSize - dataStart;
  const tensors = new Map<string, StoredTensor>();
  let metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
    if (name === "__metadata__") {
      if (typeof entry === "object" && entry !== null) metadata = entry as Record<string, string>;
      continue;
    }
    if (typeof entry !== "object" || entry === null) fail(file, "header entry is not an object", name);
    const { dtype, shape, data_offsets: offsets } = entry as Record<string, unknown>;
    if (typeof dtype !== "string" || !(dtype in DTYPE_BYTES)) {
      throw new TensorDtypeError(name, file, Object.keys(DTYPE_BYTES), String(dtype));
    }
    if (!isSafeShape(shape)) fail(file, `bad shape ${JSON.stringify(shape)}`, name);
    if (
      !Array.isArray(offsets) ||
      offsets.length !== 2 ||
      !offsets.every((o) => typeof o === "number" && Number.isSafeInteger(o) && o >= 0) ||
      offsets[0] > offsets[1]
    ) {
      fail(file, `bad data_offsets ${JSON.stringify(offsets)} for tensor "${name}"`, name);
    }
    const [begin, end] = offsets as [number, number];
    const elements = shape.reduce((a, b) => a * b, 1);
    const byteLength = elements * DTYPE_BYTES[dtype as SafetensorsDtype];
    if (end - begin !== byteLength) {
      fail(
        file,
        `tensor "${name}" (${dtype} [${shape.join(", ")}]) needs ${byteLength} bytes but data_offsets span ${end - begin}`,
        name,
      );
    }
    if (end > dataSize) {
      fail(
        file,
        `tensor "${name}" ends at data byte ${end} but the file holds only ${dataSize} data bytes (truncated?)`,
        name,
      );
    }
    tensors.set(name, {
      name,
      dtype: dtype as SafetensorsDtype,
      shape: shape.slice(),
      byteOffset: dataStart + begin,
      byteLength,
    });
  }
  return { tensors, metadata };
}

/**
 * One safetensors file as a {@link WeightSource}. The header is parsed on construction and the
 * file descriptor stays open until {@link SafetensorsFile.close}.
 * @example
 * const weights = new SafetensorsFile("model/model.safetensors");
 * const embed = weights.readFloat32("model.embed_tokens.weight");
 * weights.close();
 */
export class SafetensorsFile implements WeightSource {
  readonly file: string;
  readonly tensors: ReadonlyMap<string, StoredTensor>;
  readonly metadata: Record<string, string>;
  private fd: number | undefined;

  /** @throws {SafetensorsError} missing, truncated or malformed file */
  constructor(file: string) {
    this.file = file;
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch (cause) {
      throw new SafetensorsError(`${file}: cannot open (${(cause as Error).message})`, { file }, { cause });
    }
    try {
      const header = readSafetensorsHeader(fd, file);
      this.tensors = header.tensors;
      this.metadata = header.metadata;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    this.fd = fd;
  }

  private stored(name: string): StoredTensor {
    const info = this.tensors.get(name);
    if (!info) throw new TensorMissingError(name, this.file);
    return info;
  }

  /** The file holding `name` (this file), for error messages. */
  fileOf(_name: string): string {
    return this.file;
  }

  /** Raw little-endian bytes of a tensor, read from disk now (a fresh, 8-byte aligned buffer). */
  readBytes(name: string): Uint8Array {
    const info = this.stored(name);
    if (this.fd === undefined) fail(this.file, "file is closed", name);
    // Allocate whole 8-byte words so the buffer can be viewed as any element type.
    const buffer = new ArrayBuffer(Math.ceil(info.byteLength / 8) * 8);
    const bytes = new Uint8Array(buffer, 0, info.byteLength);
    readFully(this.fd, bytes, info.byteOffset, this.file, name);
    return bytes;
  }

  /**
   * A float tensor (F32, F16 or BF16 on disk) as float32. 16-bit tensors are read into the upper
   * half of the result and widened in place, so no second buffer is allocated.
   */
  readFloat32(name: string): Float32Array {
    const info = this.stored(name);
    if (!FLOAT_DTYPES.includes(info.dtype)) {
      throw new TensorDtypeError(name, this.file, FLOAT_DTYPES, info.dtype);
    }
    if (this.fd === undefined) fail(this.file, "file is closed", name);
    const elements = info.byteLength / DTYPE_BYTES[info.dtype];
    const out = new Float32Array(elements);
    if (info.dtype === "F32") {
      readFully(this.fd, new Uint8Array(out.buffer), info.byteOffset, this.file, name);
      return out;
    }
    // Element i is read from byte 2n + 2i and written to bytes 4i..4i+3, which never reach an
    // element not yet read (4i + 4 <= 2n + 2(i + 1)), so the forward loop may run in place.
    const halves = new Uint16Array(out.buffer, elements * 2, elements);
    readFully(
      this.fd,
      new Uint8Array(out.buffer, elements * 2, elements * 2),
      info.byteOffset,
      this.file,
      name,
    );
    return info.dtype === "F16" ? convertHalfToFloat32(halves, out) : convertBfloat16ToFloat32(halves, out);
  }

  close(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
