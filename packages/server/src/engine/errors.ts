/**
 * Errors of the engines: a completion request the local engine cannot run (400 naming the
 * field), and a remote engine that failed (502 with the reason, 504 on timeout). Engine errors
 * are {@link ApiError}s, so every route renders them the same way and the server stays up.
 */
import { ApiError } from "../http/api-error";

/** A completion request the engine cannot run; `field` is the request path, e.g. `prompt[2]`. */
export class CompletionInputError extends Error {
  override readonly name = "CompletionInputError";
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** Why a remote engine call failed. */
export type EngineFailure = "unreachable" | "http_status" | "malformed" | "timeout";

/**
 * A remote engine that did not answer usefully: 502 (unreachable, an error status, malformed
 * JSON, fewer choices than prompts) or 504 (no answer in time).
 *
 * @example
 * ```ts
 * throw new EngineError("malformed", "http://gpu:8000/v1/completions", "the reply is not JSON");
 * // -> 502 {"code":"engine_error","error":"engine http://gpu:8000/v1/completions: the reply is not JSON",...}
 * ```
 */
export class EngineError extends ApiError {
  constructor(
    readonly failure: EngineFailure,
    /** The endpoint called. */
    readonly url: string,
    /** What went wrong, for the client and the log. */
    readonly reason: string,
  ) {
    super(
      failure === "timeout" ? 504 : 502,
      failure === "timeout" ? "engine_timeout" : "engine_error",
      null,
      `engine ${url}: ${reason}`,
    );
  }
}
