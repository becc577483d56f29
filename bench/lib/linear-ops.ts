/**
 * One linear layer `y = x @ W^T` as a single ONNX Runtime op, for kernel comparisons at a model's
 * projection shapes: float32 Gemm (as the fp32 decoder emits it), MatMulNBits at 8 or 4 bits and
 * a given accuracy_level (as `quant` emits it), and DynamicQuantizeMatMul (int8 weights with one
 * scale per output column; activations quantized per tensor inside the op, MLAS's u8s8 GEMM).
 */
import {
  createSession,
  emitMatMulNBits,
  GraphBuilder,
  type MatMulNBitsAccuracyLevel,
  randomMatMulNBits,
} from "../../packages/core/src/index";
import { ort } from "./ort";

/** A kernel choice for one linear layer. */
export type LinearVariant =
  | { kind: "fp32" }
  | { kind: "nbits"; bits: 4 | 8; blockSize: number; level: MatMulNBitsAccuracyLevel }
  | { kind: "dqmm-int8" };

/** A short label: fp32, nbits8-acc4, dqmm-int8, ... */
export const variantLabel = (v: LinearVariant): string =>
  v.kind === "nbits" ? `nbits${v.bits}-acc${v.level}` : v.kind;

function noise(size: number, scale: number): Float32Array {
  const data = new Float32Array(size);
  for (let i = 0; i < size; i++) data[i] = (((i * 2654435761) % 1999) / 1999 - 0.5) * scale;
  return data;
}

/** A session computing one [m, k] x [k, n] linear layer in `variant` for any m, and its weight bytes. */
export async function linearSession(
  k: number,
  n: number,
  variant: LinearVariant,
  threads?: number,
): Promise<{ run: (m: number) => Promise<unknown>; bytes: number; release: () => Promise<void> }> {
  const g = new GraphBuilder("linear");
  const x = g.input("x", "float32", ["m", k]);
  let y: string;
  let bytes: number;
  if (variant.kind === "fp32") {
    y = g.gemm(x, g.initializer("w", noise(n * k, 2 / Math.sqrt(k)), [n, k]), undefined, { transB: true });
    bytes = n * k * 4;
  } else if (variant.kind === "nbits") {
    const w = randomMatMulNBits(
      k,
      n,
      { bits: variant.bits, blockSize: variant.blockSize, accuracyLevel: 0 },
      "w",
    );
    y = emitMatMulNBits(g, x, w, { name: "w", accuracyLevel: variant.level });
    bytes = w.data.byteLength + w.scales.byteLength + (w.zeroPoints?.byteLength ?? 0);
  } else {
    const codes = new Uint8Array(k * n);
    for (let i = 0; i < codes.length; i++) codes[i] = (i * 2654435761) >>> 24;
    const b = g.initializer("w_int8", codes, [k, n], "int8");
    const scale = g.initializer("w_scale", new Float32Array(n).fill(1.7 / Math.sqrt(k) / 128), [n]);
    [y] = g.node("DynamicQuantizeMatMul", [x, b, scale], { domain: "com.microsoft" });
    bytes = k * n + n * 4;
  }
  g.output(y, "y", "float32", ["m", n]);
  const { session } = await createSession(g.serialize(), { provider: "cpu", threads });
  const run = (m: number) => session.run({ x: new ort.Tensor("float32", noise(m * k, 1), [m, k]) });
  return { run, bytes, release: () => session.release() };
}
