/**
 * Exact conversions from the 16-bit float formats found in checkpoints to float32.
 * Both are widenings, so every value (subnormals, infinities, NaN payloads) converts without rounding.
 */

/** float32 bit patterns of all 65536 half values, built on first use (256 KiB). */
let halfTable: Uint32Array | undefined;

/**
 * float32 bit pattern of one IEEE 754 binary16 value.
 * Layout: 1 sign bit, 5 exponent bits (bias 15), 10 mantissa bits.
 * @example
 * halfBitsToFloat32Bits(0x3c00); // 0x3f800000, i.e. 1.0
 */
export function halfBitsToFloat32Bits(half: number): number {
  const sign = (half & 0x8000) << 16;
  const exponent = (half >> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  if (exponent === 0x1f) {
    // Infinity or NaN: keep the payload in the top mantissa bits.
    return (sign | 0x7f800000 | (mantissa << 13)) >>> 0;
  }
  if (exponent !== 0) {
    // Normal: rebias the exponent from 15 to 127.
    return (sign | ((exponent + 112) << 23) | (mantissa << 13)) >>> 0;
  }
  if (mantissa === 0) return sign >>> 0;
  // Subnormal half (mantissa * 2^-24) is a normal float32: shift the mantissa up to its leading 1.
  let shift = 0;
  let m = mantissa;
  while ((m & 0x400) === 0) {
    m <<= 1;
    shift++;
  }
  return (sign | ((113 - shift) << 23) | ((m & 0x3ff) << 13)) >>> 0;
}

/**
 * Value of one binary16 bit pattern.
 * @example
 * halfToFloat32(0x7bff); // 65504, the largest half
 */
export function halfToFloat32(half: number): number {
  const bits = new Uint32Array([halfBitsToFloat32Bits(half)]);
  return new Float32Array(bits.buffer)[0];
}

/**
 * Value of one bfloat16 bit pattern: bfloat16 is the upper half of a float32.
 * @example
 * bfloat16ToFloat32(0x3f80); // 1.0
 */
export function bfloat16ToFloat32(bf16: number): number {
  const bits = new Uint32Array([(bf16 & 0xffff) << 16]);
  return new Float32Array(bits.buffer)[0];
}

/** Widens binary16 values into `out` (same length). */
export function convertHalfToFloat32(source: Uint16Array, out: Float32Array): Float32Array {
  if (!halfTable) {
    halfTable = new Uint32Array(65536);
    for (let h = 0; h < 65536; h++) halfTable[h] = halfBitsToFloat32Bits(h);
  }
  const table = halfTable;
  const outBits = new Uint32Array(out.buffer, out.byteOffset, out.length);
  for (let i = 0; i < source.length; i++) outBits[i] = table[source[i]];
  return out;
}

/** Widens bfloat16 values into `out` (same length). */
export function convertBfloat16ToFloat32(source: Uint16Array, out: Float32Array): Float32Array {
  const outBits = new Uint32Array(out.buffer, out.byteOffset, out.length);
  for (let i = 0; i < source.length; i++) outBits[i] = source[i] << 16;
  return out;
}
