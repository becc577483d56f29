/**
 * What a client call can fail with. Every failure is one of these classes, so a real-time loop
 * can tell "superseded by a newer call" (expected, ignore) from "the server said no" (fix the
 * request) from "the server is away" (back off).
 */
import type { ErrorReply, Issue } from "./types";

/** Base class of the client's errors; `url` is the request it concerns. */
export class RtoolClientError extends Error {
  override readonly name: string = "RtoolClientError";
  constructor(
    readonly url: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The server answered with an error status. `code` and `field` come from its JSON body
 * (`invalid_request`, `unsupported_tools`, `queue_full`, ...); `attempts` counts tries, retries included.
 */
export class RtoolHttpError extends RtoolClientError {
  override readonly name = "RtoolHttpError";
  constructor(
    url: string,
    readonly status: number,
    readonly code: string,
    readonly field: string | null,
    readonly issues: Issue[],
    message: string,
    readonly attempts: number,
  ) {
    super(url, `${status} ${code}: ${message}`);
  }

  /** Builds the error from a reply body (JSON error reply or anything else). */
  static fromBody(url: string, status: number, body: string, attempts: number): RtoolHttpError {
    const parsed = parseErrorReply(body);
    if (parsed) {
      return new RtoolHttpError(
        url,
        status,
        parsed.code,
        parsed.field,
        parsed.issues,
        parsed.error,
        attempts,
      );
    }
    const text = body.trim().slice(0, 200) || "no body";
    return new RtoolHttpError(url, status, `http_${status}`, null, [], text, attempts);
  }
}

/** The call took longer than its `timeoutMs` (retries and back-off included). */
export class RtoolTimeoutError extends RtoolClientError {
  override readonly name = "RtoolTimeoutError";
  constructor(
    url: string,
    readonly timeoutMs: number,
  ) {
    super(url, `no reply within ${timeoutMs} ms`);
  }
}

/** Why a call was abandoned: a newer call with the same key, or the caller's own signal. */
export type AbortReason = "superseded" | "aborted";

/**
 * The call was abandoned: `superseded` when a newer call with the same latest-wins key started
 * (the normal case in a real-time loop), `aborted` when the caller's signal fired or `cancel()` ran.
 */
export class RtoolAbortError extends RtoolClientError {
  override readonly name = "RtoolAbortError";
  constructor(
    url: string,
    readonly reason: AbortReason,
    readonly key?: string,
  ) {
    super(url, reason === "superseded" ? `superseded by a newer call for key "${key}"` : "aborted");
  }
}

/** The server could not be reached (connection refused, reset, DNS), after the retries. */
export class RtoolNetworkError extends RtoolClientError {
  override readonly name = "RtoolNetworkError";
  constructor(
    url: string,
    readonly attempts: number,
    cause: unknown,
  ) {
    super(url, `cannot reach the server: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** A reply the client cannot read: not JSON, or an SSE stream that ended without its call event. */
export class RtoolProtocolError extends RtoolClientError {
  override readonly name = "RtoolProtocolError";
}

/** True for an {@link RtoolAbortError} caused by a newer call with the same key. */
export function isSuperseded(error: unknown): error is RtoolAbortError {
  return error instanceof RtoolAbortError && error.reason === "superseded";
}

function parseErrorReply(body: string): ErrorReply | null {
  try {
    const value = JSON.parse(body) as Partial<ErrorReply>;
    if (typeof value !== "object" || value === null || typeof value.error !== "string") return null;
    return {
      success: false,
      error: value.error,
      code: typeof value.code === "string" ? value.code : "error",
      field: typeof value.field === "string" ? value.field : null,
      issues: Array.isArray(value.issues) ? value.issues : [],
    };
  } catch {
    return null;
  }
}
