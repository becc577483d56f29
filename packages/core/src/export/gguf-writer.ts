/**
 * A GGUF v3 file writer: header, typed metadata, tensor infos, then the tensor data, each tensor
 * aligned to `general.alignment` (32). Tensors are encoded one at a time while writing, so a model
 * is never held twice in memory.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { GGML_TYPE, type GgmlType, ggmlBytes } from "./ggml-blocks";

/** GGUF's default (and written) data alignment. */
export const GGUF_ALIGNMENT = 32;

const VALUE_TYPE = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9, u64: 10 } as const;

/** One metadata value with its GGUF type. */
export type GgufValue =
  | { type: "u32" | "i32" | "f32" | "u64"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "array"; itemType: "string"; value: readonly string[] }
  | { type: "array"; itemType: "i32" | "u32" | "f32"; value: ArrayLike<number> };

/** Constructors of {@link GgufValue}s. */
export const gguf = {
  u32: (value: number): GgufValue => ({ type: "u32", value }),
  i32: (value: number): GgufValue => ({ type: "i32", value }),
  f32: (value: number): GgufValue => ({ type: "f32", value }),
  bool: (value: boolean): GgufValue => ({ type: "bool", value }),
  string: (value: string): GgufValue => ({ type: "string", value }),
  strings: (value: readonly string[]): GgufValue => ({ type: "array", itemType: "string", value }),
  i32s: (value: ArrayLike<number>): GgufValue => ({ type: "array", itemType: "i32", value }),
};

/** One tensor to write: ggml dims (innermost first, i.e. the reverse of a row-major shape). */
export interface GgufTensor {
  name: string;
  /** ggml `ne`: `[columns, rows, ...]`. */
  dims: number[];
  type: GgmlType;
  /** Produces the tensor's bytes in `type` when it is written. */
  encode(): Uint8Array;
}

/** Little-endian byte sink that grows as it is written. */
class ByteWriter {
  private buffer = new Uint8Array(1 << 16);
  private view = new DataView(this.buffer.buffer);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }
  u32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }
  i32(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }
  f32(v: number): void {
    this.reserve(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
  }
  u64(v: number): void {
    this.reserve(8);
    this.view.setBigUint64(this.length, BigInt(v), true);
    this.length += 8;
  }
  u8(v: number): void {
    this.reserve(1);
    this.buffer[this.length++] = v;
  }
  string(s: string): void {
    const bytes = new TextEncoder().encode(s);
    this.u64(bytes.length);
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(w: ByteWriter, value: GgufValue): void {
  if (value.type === "array") {
    w.u32(VALUE_TYPE[value.itemType]);
    w.u64(value.value.length);
    if (value.itemType === "string") for (const s of value.value) w.string(s);
    else {
      const put =
        value.itemType === "f32" ? w.f32.bind(w) : value.itemType === "u32" ? w.u32.bind(w) : w.i32.bind(w);
      for (let i = 0; i < value.value.length; i++) put((value.value as ArrayLike<number>)[i]);
    }
    return;
  }
  if (value.type === "bool") w.u8(value.value ? 1 : 0);
  else if (value.type === "string") w.string(value.value);
  else w[value.type](value.value);
}

/** The type code written before a value. */
function typeCode(value: GgufValue): number {
  return VALUE_TYPE[value.type];
}

const align = (n: number) => Math.ceil(n / GGUF_ALIGNMENT) * GGUF_ALIGNMENT;

/**
 * Writes a GGUF v3 file.
 *
 * @example
 * ```ts
 * writeGguf("model.gguf", new Map([["general.architecture", gguf.string("qwen2")]]), [
 *   { name: "output_norm.weight", dims: [896], type: "F32", encode: () => new Uint8Array(norm.buffer) },
 * ]);
 * ```
 * @returns the bytes written
 */
export function writeGguf(
  path: string,
  metadata: ReadonlyMap<string, GgufValue>,
  tensors: GgufTensor[],
): number {
  const header = new ByteWriter();
  header.u32(0x46554747); // "GGUF"
  header.u32(3);
  header.u64(tensors.length);
  header.u64(metadata.size);
  for (const [key, value] of metadata) {
    header.string(key);
    header.u32(typeCode(value));
    writeValue(header, value);
  }
  let offset = 0;
  const sizes: number[] = [];
  for (const t of tensors) {
    const count = t.dims.reduce((a, b) => a * b, 1);
    const size = ggmlBytes(t.type, count);
    header.string(t.name);
    header.u32(t.dims.length);
    for (const d of t.dims) header.u64(d);
    header.u32(GGML_TYPE[t.type]);
    header.u64(offset);
    sizes.push(size);
    offset = align(offset + size);
  }
  const fd = openSync(path, "w");
  try {
    const head = header.bytes();
    let position = writeAll(fd, head, 0);
    const dataStart = align(position);
    position = dataStart;
    for (let i = 0; i < tensors.length; i++) {
      const bytes = tensors[i].encode();
      if (bytes.byteLength !== sizes[i])
        throw new RangeError(`${tensors[i].name}: encoded ${bytes.byteLength} bytes, expected ${sizes[i]}`);
      position = align(position - dataStart) + dataStart;
      position += writeAll(fd, bytes, position);
    }
    // pad the last tensor so the file length is aligned like every tensor start
    const end = align(position - dataStart) + dataStart;
    if (end > position) writeAll(fd, new Uint8Array(end - position), position);
    return end;
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, bytes: Uint8Array, position: number): number {
  let done = 0;
  while (done < bytes.byteLength) {
    done += writeSync(fd, bytes, done, Math.min(bytes.byteLength - done, 1 << 30), position + done);
  }
  return done;
}
