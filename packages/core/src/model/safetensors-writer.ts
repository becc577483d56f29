/**
 * Writes small safetensors files: test checkpoints, and random-weight models for benchmarks.
 * Tensors are written in the order given, each starting 8-byte aligned (gaps are zero).
 */
import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { DTYPE_BYTES } from "./safetensors";
import type { SafetensorsDtype } from "./types";

/** One tensor to write. `data` holds the raw little-endian bytes (a typed array of the dtype works). */
export interface TensorToWrite {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
  data: ArrayBufferView;
}

/**
 * Writes `tensors` to `file` as safetensors.
 * @throws {RangeError} a tensor's byte length does not match its dtype and shape
 * @example
 * writeSafetensors("tiny.safetensors", [
 *   { name: "model.norm.weight", dtype: "F32", shape: [4], data: new Float32Array([1, 1, 1, 1]) },
 * ]);
 */
export function writeSafetensors(
  file: string,
  tensors: readonly TensorToWrite[],
  metadata?: Record<string, string>,
): void {
  const header: Record<string, unknown> = {};
  if (metadata) header.__metadata__ = metadata;
  let offset = 0;
  const placed: { bytes: Uint8Array; at: number }[] = [];
  for (const tensor of tensors) {
    const bytes = new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
    const expected = tensor.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[tensor.dtype];
    if (bytes.byteLength !== expected) {
      throw new RangeError(`tensor "${tensor.name}": ${bytes.byteLength} bytes given, ${expected} expected`);
    }
    header[tensor.name] = {
      dtype: tensor.dtype,
      shape: tensor.shape,
      data_offsets: [offset, offset + expected],
    };
    placed.push({ bytes, at: offset });
    offset += Math.ceil(expected / 8) * 8;
  }
  // Pad the JSON with spaces so the data section starts 8-byte aligned.
  let json = JSON.stringify(header);
  json += " ".repeat((8 - ((8 + Buffer.byteLength(json)) % 8)) % 8);
  const jsonBytes = new TextEncoder().encode(json);
  const prefix = new Uint8Array(8);
  new DataView(prefix.buffer).setBigUint64(0, BigInt(jsonBytes.byteLength), true);

  const fd = openSync(file, "w");
  try {
    writeSync(fd, prefix, 0, 8, 0);
    writeSync(fd, jsonBytes, 0, jsonBytes.byteLength, 8);
    const dataStart = 8 + jsonBytes.byteLength;
    let dataEnd = 0;
    for (const { bytes, at } of placed) {
      writeSync(fd, bytes, 0, bytes.byteLength, dataStart + at);
      dataEnd = at + bytes.byteLength;
    }
    // Zero-fill up to the last tensor's end, which may lie past the last byte written (empty tensor after padding).
    ftruncateSync(fd, dataStart + dataEnd);
  } finally {
    closeSync(fd);
  }
}
