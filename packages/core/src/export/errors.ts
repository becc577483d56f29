/**
 * Errors of the exporters, each naming the tensor, file or option it concerns.
 */

/** A tensor cannot be written in the requested format (e.g. a row not a multiple of the block). */
export class ExportTensorError extends Error {
  constructor(
    /** The tensor concerned (HF or GGUF name). */
    readonly tensor: string,
    message: string,
  ) {
    super(`${tensor}: ${message}`);
    this.name = "ExportTensorError";
  }
}

/** An export option is not one the exporter supports. */
export class ExportOptionError extends Error {
  constructor(
    /** The option concerned, e.g. "type" or "dtype". */
    readonly option: string,
    message: string,
  ) {
    super(`${option}: ${message}`);
    this.name = "ExportOptionError";
  }
}

/** A model directory lacks a file an export needs, or holds one that cannot be read. */
export class ExportSourceError extends Error {
  constructor(
    /** The file concerned. */
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = "ExportSourceError";
  }
}
