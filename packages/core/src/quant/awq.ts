/**
 * AWQ GEMM checkpoints (AutoAWQ's `WQLinear_GEMM`) converted without loss to MatMulNBits.
 *
 * AWQ stores each linear layer as `qweight` int32 [in, out/8], `qzeros` int32 [in/G, out/8] and
 * `scales` fp16 [in/G, out]. Word c of a row packs output columns 8c..8c+7, nibble i (bits
 * 4i..4i+3) holding column `8c + AWQ_ORDER[i]`; zeros use the same order; dequantization is
 * `w[k][n] = (q[k][n] - z[k/G][n]) * s[k/G][n]`. MatMulNBits holds the transpose ([out, in], codes
 * along in), so the conversion only moves nibbles and widens fp16 scales to float32, both exact.
 */
import { float32Linear, type LinearHook } from "../graph/qwen";
import { TensorDtypeError, TensorMissingError, TensorShapeError } from "../model/errors";
import { convertHalfToFloat32 } from "../model/half-float";
import { checkFloatTensor, type LinearTensorCheck } from "../model/qwen-weights";
import type { QwenConfig, WeightSource } from "../model/types";
import { UnsupportedQuantizationError } from "./errors";
import { allocateMatMulNBits, blockCount, emitMatMulNBits, type MatMulNBitsWeight } from "./matmul-nbits";

/** Output column held by nibble i of a packed AWQ word (relative to 8c). */
export const AWQ_ORDER = [0, 2, 4, 6, 1, 3, 5, 7] as const;

/** What rtool reads from an AWQ `quantization_config`. */
export interface AwqConfig {
  bits: 4;
  groupSize: number;
  /** Module name fragments kept in floating point (`modules_to_not_convert`), matched as substrings. */
  modulesNotConverted: string[];
}

/**
 * Validates an AWQ `quantization_config` and returns its settings. Anything else (GPTQ, exllama,
 * act-order, GEMV / Marlin kernels, bits other than 4, no zero point, a group size MatMulNBits
 * cannot take) is an {@link UnsupportedQuantizationError} that names what is supported.
 *
 * @example
 * ```ts
 * const awq = parseAwqConfig(readQwenConfig(dir), join(dir, "config.json"));
 * awq.groupSize; // 128
 * ```
 */
export function parseAwqConfig(config: QwenConfig, file: string): AwqConfig {
  const q = config.quantization;
  if (!q) throw new UnsupportedQuantizationError("no quantization_config", file);
  const method = String(q.quant_method ?? "").toLowerCase();
  if (method !== "awq") {
    const actOrder = q.desc_act === true ? ", act-order (desc_act)" : "";
    const exllama = q.exllama_config !== undefined || q.use_exllama === true ? ", exllama kernels" : "";
    throw new UnsupportedQuantizationError(
      `quant_method "${q.quant_method ?? "(missing)"}"${actOrder}${exllama}`,
      file,
      "quantization_config.quant_method",
    );
  }
  const version = String(q.version ?? "gemm").toLowerCase();
  if (version !== "gemm") {
    throw new UnsupportedQuantizationError(`AWQ version "${q.version}"`, file, "quantization_config.version");
  }
  if (q.bits !== 4) {
    throw new UnsupportedQuantizationError(`AWQ bits ${q.bits}`, file, "quantization_config.bits");
  }
  if (q.zero_point === false) {
    throw new UnsupportedQuantizationError("AWQ zero_point false", file, "quantization_config.zero_point");
  }
  const groupSize = Number(q.group_size);
  if (!Number.isInteger(groupSize) || groupSize < 16 || (groupSize & (groupSize - 1)) !== 0) {
    throw new UnsupportedQuantizationError(
      `AWQ group_size ${q.group_size}`,
      file,
      "quantization_config.group_size",
    );
  }
  for (const [name, inFeatures] of [
    ["hidden_size", config.hiddenSize],
    ["intermediate_size", config.intermediateSize],
    ["num_attention_heads * head_dim", config.numAttentionHeads * config.headDim],
  ] as const) {
    if (inFeatures % groupSize !== 0) {
      throw new UnsupportedQuantizationError(
        `AWQ group_size ${groupSize} does not divide ${name} ${inFeatures}`,
        file,
        "quantization_config.group_size",
      );
    }
  }
  const notConverted = q.modules_to_not_convert;
  const modulesNotConverted = Array.isArray(notConverted) ? notConverted.map(String) : [];
  return { bits: 4, groupSize, modulesNotConverted };
}

/** Whether the module at `prefix` stays in floating point (AutoAWQ matches by substring). */
export function isNotConverted(awq: AwqConfig, prefix: string): boolean {
  return awq.modulesNotConverted.some((fragment) => fragment.length > 0 && prefix.includes(fragment));
}

function widenScales(scales: Uint16Array | Float32Array): Float32Array {
  if (scales instanceof Float32Array) return scales;
  return convertHalfToFloat32(scales, new Float32Array(scales.length));
}

/**
 * Converts one AWQ GEMM layer to MatMulNBits (bits 4, block = group size, packed zero points),
 * bit-exactly: every dequantized value equals AWQ's own `(q - z) * s`.
 *
 * @param qweight int32 [inFeatures, outFeatures / 8]
 * @param qzeros int32 [inFeatures / groupSize, outFeatures / 8]
 * @param scales [inFeatures / groupSize, outFeatures]: fp16 bit patterns, or float32 values
 * @example
 * ```ts
 * const w = awqToMatMulNBits(qweight, qzeros, scales, 896, 4864, 128);
 * const y = emitMatMulNBits(g, x, w, { name: "model.layers.0.mlp.up_proj" });
 * ```
 */
export function awqToMatMulNBits(
  qweight: Int32Array,
  qzeros: Int32Array,
  scales: Uint16Array | Float32Array,
  inFeatures: number,
  outFeatures: number,
  groupSize: number,
): MatMulNBitsWeight {
  const words = outFeatures / 8;
  const groups = inFeatures / groupSize;
  if (!Number.isInteger(words) || !Number.isInteger(groups)) {
    throw new RangeError(
      `awqToMatMulNBits: out ${outFeatures} must be a multiple of 8 and in ${inFeatures} of group size ${groupSize}`,
    );
  }
  if (qweight.length !== inFeatures * words) throw new RangeError("awqToMatMulNBits: qweight size");
  if (qzeros.length !== groups * words) throw new RangeError("awqToMatMulNBits: qzeros size");
  if (scales.length !== groups * outFeatures) throw new RangeError("awqToMatMulNBits: scales size");
  const w = allocateMatMulNBits(inFeatures, outFeatures, 4, groupSize);
  const rowBytes = blockCount(inFeatures, groupSize) * (groupSize / 2);
  // codes: input rows k and k+1 share one output byte per column (low nibble k, high nibble k+1)
  for (let k = 0; k < inFeatures; k += 2) {
    const even = k * words;
    const odd = even + words;
    const byteInRow = k >> 1;
    for (let c = 0; c < words; c++) {
      const lo = qweight[even + c];
      const hi = qweight[odd + c];
      for (let i = 0; i < 8; i++) {
        const n = 8 * c + AWQ_ORDER[i];
        w.data[n * rowBytes + byteInRow] = ((lo >>> (4 * i)) & 0xf) | (((hi >>> (4 * i)) & 0xf) << 4);
      }
    }
  }
  // zero points: [N, ceil(groups / 2)], block b in the low nibble when even
  const zpRow = Math.ceil(groups / 2);
  const zeros = w.zeroPoints as Uint8Array;
  for (let b = 0; b < groups; b++) {
    const shift = (b & 1) * 4;
    for (let c = 0; c < words; c++) {
      const word = qzeros[b * words + c];
      for (let i = 0; i < 8; i++) {
        zeros[(8 * c + AWQ_ORDER[i]) * zpRow + (b >> 1)] |= ((word >>> (4 * i)) & 0xf) << shift;
      }
    }
  }
  // scales: [groups, N] -> [N, groups]
  const wide = widenScales(scales);
  for (let b = 0; b < groups; b++) {
    for (let n = 0; n < outFeatures; n++) w.scales[n * groups + b] = wide[b * outFeatures + n];
  }
  return w;
}

function int32View(bytes: Uint8Array): Int32Array {
  // Int32Array needs 4-byte alignment; readers may hand out pooled, unaligned buffers
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Int32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
}

function fileOf(source: WeightSource, name: string): string {
  const located = source as Partial<{ fileOf(name: string): string }>;
  return typeof located.fileOf === "function" ? located.fileOf(name) : "weights";
}

/** Checks one packed tensor's presence, dtype and shape. */
function checkPacked(
  source: WeightSource,
  name: string,
  dtypes: readonly string[],
  shape: number[],
  file: string,
): void {
  const info = source.tensors.get(name);
  if (!info) throw new TensorMissingError(name, file, "AWQ checkpoint");
  if (!dtypes.includes(info.dtype)) throw new TensorDtypeError(name, file, dtypes, info.dtype);
  if (info.shape.length !== shape.length || info.shape.some((d, i) => d !== shape[i])) {
    throw new TensorShapeError(name, file, shape, info.shape);
  }
}

/**
 * The `checkLinear` for `checkQwenWeights` on an AWQ checkpoint: `qweight`, `qzeros` and `scales`
 * present with AWQ's dtypes and the shapes the config and group size imply (modules in
 * `modules_to_not_convert` must be float instead).
 */
export function checkAwqLinear(awq: AwqConfig): LinearTensorCheck {
  return (expected, source, file) => {
    const prefix = expected.name.replace(/\.weight$/, "");
    if (isNotConverted(awq, prefix)) {
      checkFloatTensor(source, expected.name, expected.shape, file);
      return;
    }
    const [outFeatures, inFeatures] = expected.shape;
    const groups = inFeatures / awq.groupSize;
    checkPacked(source, `${prefix}.qweight`, ["I32"], [inFeatures, outFeatures / 8], file);
    checkPacked(source, `${prefix}.qzeros`, ["I32"], [groups, outFeatures / 8], file);
    checkPacked(source, `${prefix}.scales`, ["F16", "F32", "BF16"], [groups, outFeatures], file);
  };
}

/**
 * Reads one AWQ layer from a checkpoint and converts it (see {@link awqToMatMulNBits}).
 * Scales are widened exactly (fp16 and bf16 both fit float32).
 */
export function readAwqLinear(
  source: WeightSource,
  prefix: string,
  inFeatures: number,
  outFeatures: number,
  groupSize: number,
): MatMulNBitsWeight {
  for (const part of ["qweight", "qzeros", "scales"]) {
    const name = `${prefix}.${part}`;
    if (!source.tensors.has(name)) throw new TensorMissingError(name, fileOf(source, name), "AWQ checkpoint");
  }
  return awqToMatMulNBits(
    int32View(source.readBytes(`${prefix}.qweight`)),
    int32View(source.readBytes(`${prefix}.qzeros`)),
    source.readFloat32(`${prefix}.scales`),
    inFeatures,
    outFeatures,
    groupSize,
  );
}

/**
 * The {@link LinearHook} of an AWQ checkpoint: each q/k/v/o and gate/up/down projection becomes
 * one MatMulNBits node holding the exact AWQ weights; modules in `modules_to_not_convert` and
 * everything that is not a linear layer stay float. By default the op computes in float32, so
 * logits match a float forward of the dequantized model; `accuracyLevel: 4` quantizes activations
 * to int8 per block, many times faster on a CPU (about 0.06 logit error on the fixtures).
 *
 * @example
 * ```ts
 * const awq = parseAwqConfig(config, join(dir, "config.json"));
 * const graph = buildQwenGraph(config, weightProvider, { linear: awqLinear(source, awq) });
 * ```
 */
export function awqLinear(
  source: WeightSource,
  awq: AwqConfig,
  options: { accuracyLevel?: 0 | 4 } = {},
): LinearHook {
  return (g, x, spec, weights) => {
    if (isNotConverted(awq, spec.prefix)) return float32Linear(g, x, spec, weights);
    const w = readAwqLinear(source, spec.prefix, spec.inFeatures, spec.outFeatures, awq.groupSize);
    const bias = spec.hasBias ? weights(`${spec.prefix}.bias`).data : undefined;
    return emitMatMulNBits(g, x, w, { name: spec.prefix, bias, accuracyLevel: options.accuracyLevel });
  };
}
