/**
 * Typed errors of the runtime layer: sessions, providers and step inputs.
 */

/** Base class of every runtime error. */
export class RuntimeError extends Error {
  override name = "RuntimeError";
}

/** An execution provider name rtool does not know. */
export class UnknownProviderError extends RuntimeError {
  override name = "UnknownProviderError";
  constructor(readonly provider: string) {
    super(`unknown execution provider "${provider}"; use "cpu", "cuda" or "auto"`);
  }
}

/** How to get ONNX Runtime's CUDA provider onto a machine. */
export const CUDA_INSTALL_HINT =
  "onnxruntime-node's CUDA provider libraries are downloaded by its install script, which was skipped " +
  "(ONNXRUNTIME_NODE_INSTALL=skip). On a connected machine with CUDA 12 and cuDNN 9 installed, reinstall " +
  "it without that variable (e.g. `bun install --force` or `npm rebuild onnxruntime-node`), " +
  'or run with provider "cpu" (or "auto" to fall back to the CPU).';

/** The requested execution provider cannot run on this machine. */
export class ProviderUnavailableError extends RuntimeError {
  override name = "ProviderUnavailableError";
  constructor(
    readonly provider: string,
    readonly reason: string,
  ) {
    super(
      `execution provider "${provider}" is unavailable: ${reason}\n${provider === "cuda" ? CUDA_INSTALL_HINT : ""}`.trim(),
    );
  }
}

/** A session could not be created from a model (corrupt file, unsupported op, ...). */
export class SessionCreateError extends RuntimeError {
  override name = "SessionCreateError";
  constructor(
    readonly model: string,
    readonly reason: string,
  ) {
    super(`could not create an ONNX Runtime session for ${model}: ${reason}`);
  }
}

/** A `step` input that does not fit the model or the cache (names the offending field). */
export class StepInputError extends RuntimeError {
  override name = "StepInputError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`step input "${field}": ${message}`);
  }
}

/** `step` was called after `dispose()`. */
export class RuntimeDisposedError extends RuntimeError {
  override name = "RuntimeDisposedError";
  constructor() {
    super("the runtime was disposed; load the model again to keep decoding");
  }
}
