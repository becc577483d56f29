/**
 * ggml's element formats as llama.cpp reads them: F32, F16 and the 32-element blocks Q8_0
 * (fp16 scale `d`, 32 int8 `q`, value `q * d`) and Q4_0 (fp16 scale `d`, 16 bytes holding 32
 * nibbles, element j in the low nibble of byte j and element j+16 in its high nibble, value
 * `(q - 8) * d`). Quantization follows ggml's reference `quantize_row_*_ref` so files match what
 * llama.cpp's own quantizer writes.
 */
import { halfBitsToFloat32Bits } from "../model/half-float";

/** The ggml tensor types the GGUF exporter writes, with their GGUF type codes. */
export const GGML_TYPE = { F32: 0, F16: 1, Q4_0: 2, Q8_0: 8 } as const;

/** A ggml tensor type the exporter writes. */
export type GgmlType = keyof typeof GGML_TYPE;

/** Elements per quantization block of Q8_0 and Q4_0. */
export const GGML_BLOCK = 32;

const BLOCK_BYTES: Record<GgmlType, number> = { F32: 4, F16: 2, Q8_0: 34, Q4_0: 18 };
const BLOCK_ELEMENTS: Record<GgmlType, number> = { F32: 1, F16: 1, Q8_0: GGML_BLOCK, Q4_0: GGML_BLOCK };

/** Bytes `count` elements take in `type` (`count` a multiple of the block for Q8_0/Q4_0). */
export function ggmlBytes(type: GgmlType, count: number): number {
  return (count / BLOCK_ELEMENTS[type]) * BLOCK_BYTES[type];
}

/** Whether rows of `rowLength` elements can be stored as `type` (blocks never span rows). */
export function ggmlFitsRow(type: GgmlType, rowLength: number): boolean {
  return rowLength % BLOCK_ELEMENTS[type] === 0;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE half bits of `value`, rounded to nearest even (as `GGML_FP32_TO_FP16`). */
export function float32ToHalfBits(value: number): number {
  f32[0] = value;
  const x = u32[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    // subnormal half: shift the implicit one in, round to nearest even
    mant |= 0x800000;
    const shift = 14 - e;
    const half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (half + (rest > mid || (rest === mid && half & 1) ? 1 : 0));
  }
  const half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  // a carry out of the mantissa lands in the exponent, which is the correctly rounded result
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

/** Encodes `values` as `type` (row-major; each row a whole number of blocks, see {@link ggmlFitsRow}). */
export function encodeGgml(type: GgmlType, values: Float32Array): Uint8Array {
  if (type === "F32") return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  if (type === "F16") {
    const out = new Uint16Array(values.length);
    for (let i = 0; i < values.length; i++) out[i] = float32ToHalfBits(values[i]);
    return new Uint8Array(out.buffer);
  }
  return type === "Q8_0" ? quantizeQ8_0(values) : quantizeQ4_0(values);
}

/** Q8_0 blocks of `values` (length a multiple of 32): `d = max|x| / 127`, `q = round(x / d)`. */
export function quantizeQ8_0(values: Float32Array): Uint8Array {
  const blocks = values.length / GGML_BLOCK;
  const out = new Uint8Array(blocks * 34);
  const view = new DataView(out.buffer);
  for (let b = 0; b < blocks; b++) {
    const base = b * GGML_BLOCK;
    let amax = 0;
    for (let j = 0; j < GGML_BLOCK; j++) amax = Math.max(amax, Math.abs(values[base + j]));
    const d = Math.fround(amax / 127);
    const id = d ? Math.fround(1 / d) : 0;
    view.setUint16(b * 34, float32ToHalfBits(d), true);
    for (let j = 0; j < GGML_BLOCK; j++) {
      // roundf: half away from zero
      const x = Math.fround(values[base + j] * id);
      view.setInt8(b * 34 + 2 + j, Math.sign(x) * Math.round(Math.abs(x)));
    }
  }
  return out;
}

/** Q4_0 blocks of `values` (length a multiple of 32): `d = max / -8` (max = the signed value of largest magnitude). */
export function quantizeQ4_0(values: Float32Array): Uint8Array {
  const blocks = values.length / GGML_BLOCK;
  const out = new Uint8Array(blocks * 18);
  const view = new DataView(out.buffer);
  const nibble = (x: number) => Math.min(15, Math.trunc(Math.fround(x + 8.5)));
  for (let b = 0; b < blocks; b++) {
    const base = b * GGML_BLOCK;
    let amax = 0;
    let max = 0;
    for (let j = 0; j < GGML_BLOCK; j++) {
      const v = values[base + j];
      if (amax < Math.abs(v)) {
        amax = Math.abs(v);
        max = v;
      }
    }
    const d = Math.fround(max / -8);
    const id = d ? Math.fround(1 / d) : 0;
    view.setUint16(b * 18, float32ToHalfBits(d), true);
    for (let j = 0; j < GGML_BLOCK / 2; j++) {
      const lo = nibble(Math.fround(values[base + j] * id));
      const hi = nibble(Math.fround(values[base + GGML_BLOCK / 2 + j] * id));
      out[b * 18 + 2 + j] = lo | (hi << 4);
    }
  }
  return out;
}

const bitsOut = new Uint32Array(1);
const floatOut = new Float32Array(bitsOut.buffer);

function halfToFloat32(half: number): number {
  bitsOut[0] = halfBitsToFloat32Bits(half);
  return floatOut[0];
}

/** Decodes `count` elements of `type` from `bytes` to float32 (llama.cpp's `dequantize_row_*`). */
export function decodeGgml(type: GgmlType, bytes: Uint8Array, count: number): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(count);
  if (type === "F32") {
    for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
  } else if (type === "F16") {
    for (let i = 0; i < count; i++) out[i] = halfToFloat32(view.getUint16(i * 2, true));
  } else if (type === "Q8_0") {
    for (let b = 0; b < count / GGML_BLOCK; b++) {
      const d = halfToFloat32(view.getUint16(b * 34, true));
      for (let j = 0; j < GGML_BLOCK; j++) out[b * GGML_BLOCK + j] = view.getInt8(b * 34 + 2 + j) * d;
    }
  } else {
    for (let b = 0; b < count / GGML_BLOCK; b++) {
      const d = halfToFloat32(view.getUint16(b * 18, true));
      for (let j = 0; j < GGML_BLOCK / 2; j++) {
        const q = bytes[b * 18 + 2 + j];
        out[b * GGML_BLOCK + j] = ((q & 0x0f) - 8) * d;
        out[b * GGML_BLOCK + GGML_BLOCK / 2 + j] = ((q >> 4) - 8) * d;
      }
    }
  }
  return out;
}
