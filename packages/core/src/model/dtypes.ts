/** Element sizes of the safetensors dtypes rtool reads (no file access: shared by the disk and in-memory readers). */
import type { SafetensorsDtype } from "./types";

/** Bytes per element of every dtype rtool reads. */
export const DTYPE_BYTES: Readonly<Record<SafetensorsDtype, number>> = {
  F32: 4,
  F16: 2,
  BF16: 2,
  I32: 4,
  I64: 8,
  I8: 1,
  U8: 1,
};

/** Floating point dtypes that {@link WeightSource.readFloat32} widens to float32. */
export const FLOAT_DTYPES: readonly SafetensorsDtype[] = ["F32", "F16", "BF16"];
