/**
 * Typed errors raised while reading a model directory. Each names the file it concerns and,
 * where one applies, the tensor or config field, so a caller can report exactly what is wrong.
 */

/** Base class of every model loading failure. */
export class ModelLoadError extends Error {
  /** Path of the file concerned (as it was opened). */
  readonly file: string;
  /** Tensor concerned, when the failure is about one tensor. */
  readonly tensor?: string;
  /** Config field concerned, when the failure is about one field. */
  readonly field?: string;

  constructor(
    message: string,
    where: { file: string; tensor?: string; field?: string },
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
    this.file = where.file;
    if (where.tensor !== undefined) this.tensor = where.tensor;
    if (where.field !== undefined) this.field = where.field;
  }
}

/** `config.json` (or `generation_config.json`) is missing, is not JSON, lacks a field or has a bad value. */
export class ConfigError extends ModelLoadError {}

/** `architectures` / `model_type` name a model rtool has no graph builder for. */
export class UnsupportedArchitectureError extends ConfigError {
  /** The architectures rtool supports, as Hugging Face spells them. */
  static readonly supported = ["Qwen2ForCausalLM", "Qwen3ForCausalLM"] as const;
  /** What the config asked for. */
  readonly found: string;

  constructor(found: string, file: string) {
    super(
      `${file}: unsupported architecture "${found}"; supported: ${UnsupportedArchitectureError.supported.join(", ")}`,
      { file, field: "architectures" },
    );
    this.found = found;
  }
}

/** A safetensors file (or shard index) is missing, truncated or has an inconsistent header. */
export class SafetensorsError extends ModelLoadError {}

/** The checkpoint lacks a tensor the model needs. */
export class TensorMissingError extends ModelLoadError {
  constructor(tensor: string, file: string, detail = "") {
    super(`${file}: tensor "${tensor}" is missing${detail ? ` (${detail})` : ""}`, { file, tensor });
  }
}

/** A tensor's shape differs from the one the config implies. */
export class TensorShapeError extends ModelLoadError {
  readonly expected: readonly number[];
  readonly actual: readonly number[];

  constructor(tensor: string, file: string, expected: readonly number[], actual: readonly number[]) {
    super(`${file}: tensor "${tensor}" has shape [${actual.join(", ")}], expected [${expected.join(", ")}]`, {
      file,
      tensor,
    });
    this.expected = expected;
    this.actual = actual;
  }
}

/** A tensor is stored in an element type the reader or the model cannot use. */
export class TensorDtypeError extends ModelLoadError {
  readonly expected: readonly string[];
  readonly actual: string;

  constructor(tensor: string, file: string, expected: readonly string[], actual: string) {
    super(`${file}: tensor "${tensor}" has dtype ${actual}, expected one of ${expected.join(", ")}`, {
      file,
      tensor,
    });
    this.expected = expected;
    this.actual = actual;
  }
}

/** `tokenizer.json` is missing, malformed or of a kind rtool cannot decode. */
export class TokenizerError extends ModelLoadError {}

/** A tensor holds NaN or an infinity: the model would load and then serve garbage. */
export class TensorValueError extends ModelLoadError {
  /** Flat index of the first bad element. */
  readonly index: number;
  readonly value: number;

  constructor(tensor: string, file: string, index: number, value: number) {
    super(
      `${file}: tensor "${tensor}" holds ${value} at element ${index}; the checkpoint is damaged (--skip-weight-check loads it anyway)`,
      { file, tensor },
    );
    this.index = index;
    this.value = value;
  }
}
