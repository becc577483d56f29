/**
 * Typed errors of the quantized loaders. Missing tensors, wrong shapes and wrong dtypes reuse the
 * model loader's errors (`TensorMissingError`, `TensorShapeError`, `TensorDtypeError`), so a
 * caller handles one family for every checkpoint problem.
 */
import { ConfigError } from "../model/errors";

/** The quantized layouts rtool loads, as a sentence for error messages. */
export const SUPPORTED_QUANTIZATION =
  'AWQ GEMM checkpoints (quantization_config: quant_method "awq", bits 4, version "gemm", zero_point true, ' +
  "group_size a power of two of at least 16 dividing every in_features), or float checkpoints " +
  'quantized on load with quant: "int8" or "int4"';

/** A `quantization_config` (or a requested quant mode) rtool cannot load. */
export class UnsupportedQuantizationError extends ConfigError {
  /** What the checkpoint asks for, e.g. `quant_method "gptq"` or `bits 3`. */
  readonly found: string;

  constructor(found: string, file: string, field = "quantization_config") {
    super(`${file}: unsupported quantization: ${found}; supported: ${SUPPORTED_QUANTIZATION}`, {
      file,
      field,
    });
    this.found = found;
  }
}

/** Quantized data that cannot be laid out as asked (a bad block size, a code out of range). */
export class QuantizedLayoutError extends Error {
  override name = "QuantizedLayoutError";
  constructor(
    /** The tensor or field concerned. */
    readonly where: string,
    detail: string,
  ) {
    super(`${where}: ${detail}`);
  }
}
