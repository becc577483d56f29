/**
 * The one error type routes throw: an HTTP status, the request field it concerns and a message,
 * rendered by the app's error handler as `{success: false, error, code, field, issues}`.
 */
import type { ApiErrorCode } from "@rtool/contract";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** One problem with a request field; `path` is like `messages[0].role` or `tools[2].function.name`. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** Machine-readable kinds of failure, stable across releases (listed in the call contract). */
export type { ApiErrorCode };

/**
 * An error with an HTTP status and the field it concerns (null when it concerns the whole request).
 *
 * @example
 * ```ts
 * throw new ApiError(400, "invalid_request", "messages[0].role", "must be one of system, user, assistant, tool");
 * ```
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly issues: FieldIssue[];

  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode,
    readonly field: string | null,
    message: string,
    issues?: FieldIssue[],
  ) {
    super(field ? `${field}: ${message}` : message);
    this.issues = issues ?? (field ? [{ path: field, message }] : []);
  }

  /** The JSON body of the error response. */
  toJSON(): {
    success: false;
    error: string;
    code: ApiErrorCode;
    field: string | null;
    issues: FieldIssue[];
  } {
    return { success: false, error: this.message, code: this.code, field: this.field, issues: this.issues };
  }
}

/** `["messages", 0, "role"]` -> `messages[0].role`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "body" : out;
}
