import { describe, expect, test } from "bun:test";
import {
  bfloat16ToFloat32,
  convertBfloat16ToFloat32,
  convertHalfToFloat32,
  halfBitsToFloat32Bits,
  halfToFloat32,
} from "./half-float";

describe("binary16 to float32", () => {
  test("known values", () => {
    expect(halfToFloat32(0x0000)).toBe(0);
    expect(Object.is(halfToFloat32(0x8000), -0)).toBe(true);
    expect(halfToFloat32(0x3c00)).toBe(1);
    expect(halfToFloat32(0xc000)).toBe(-2);
    expect(halfToFloat32(0x3555)).toBe(0.333251953125);
    expect(halfToFloat32(0x7bff)).toBe(65504);
    expect(halfToFloat32(0x0400)).toBe(2 ** -14); // smallest normal
    expect(halfToFloat32(0x0001)).toBe(2 ** -24); // smallest subnormal
    expect(halfToFloat32(0x03ff)).toBe(1023 * 2 ** -24); // largest subnormal
    expect(halfToFloat32(0x8200)).toBe(-(2 ** -15));
    expect(halfToFloat32(0x7c00)).toBe(Number.POSITIVE_INFINITY);
    expect(halfToFloat32(0xfc00)).toBe(Number.NEGATIVE_INFINITY);
    expect(Number.isNaN(halfToFloat32(0x7e00))).toBe(true);
    expect(halfBitsToFloat32Bits(0x7e01)).toBe(0x7fc02000); // NaN payload kept
  });

  test("every half value round-trips through Math.fround-exact float32", () => {
    // Re-encode each float32 result as half by arithmetic and compare bit patterns.
    const halves = new Uint16Array(65536);
    for (let h = 0; h < 65536; h++) halves[h] = h;
    const out = convertHalfToFloat32(halves, new Float32Array(65536));
    for (let h = 0; h < 65536; h++) {
      const exponent = (h >> 10) & 0x1f;
      const mantissa = h & 0x3ff;
      const sign = h & 0x8000 ? -1 : 1;
      if (exponent === 0x1f) {
        expect(mantissa === 0 ? out[h] === sign * Number.POSITIVE_INFINITY : Number.isNaN(out[h])).toBe(true);
        continue;
      }
      const value = exponent === 0 ? mantissa * 2 ** -24 : (1 + mantissa / 1024) * 2 ** (exponent - 15);
      expect(out[h]).toBe(sign * value);
    }
  });
});

describe("bfloat16 to float32", () => {
  test("known values", () => {
    expect(bfloat16ToFloat32(0x3f80)).toBe(1);
    expect(bfloat16ToFloat32(0xc040)).toBe(-3);
    expect(bfloat16ToFloat32(0x4049)).toBe(3.140625);
    expect(bfloat16ToFloat32(0x7f80)).toBe(Number.POSITIVE_INFINITY);
    expect(bfloat16ToFloat32(0x0001)).toBe(2 ** -133); // subnormal
    expect(Number.isNaN(bfloat16ToFloat32(0x7fc0))).toBe(true);
  });

  test("bulk conversion is the upper half of float32", () => {
    const values = new Float32Array([1.5, -0.25, 1e30, -7e-20]);
    const words = new Uint32Array(values.buffer);
    const bf16 = Uint16Array.from(words, (w) => w >>> 16);
    const truncated = new Float32Array(Uint32Array.from(words, (w) => (w & 0xffff0000) >>> 0).buffer);
    expect(Array.from(convertBfloat16ToFloat32(bf16, new Float32Array(4)))).toEqual(Array.from(truncated));
    expect(truncated[0]).toBe(1.5);
  });
});
