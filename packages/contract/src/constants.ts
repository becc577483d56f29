/**
 * The wire's constants, without zod (the client and the plugin import them at run time): request
 * limits, message roles, the unused-head marker and the error codes.
 */

/** Limits on request fields; exceeded ones get 400 naming the field (they keep one request from holding the model for long). */
export const REQUEST_LIMITS = {
  messages: 64,
  messageChars: 16_000,
  tools: 64,
  environment: 64,
  environmentChars: 2_000,
  history: 256,
  historyChars: 2_000,
  systemChars: 16_000,
  maxTokens: 256,
} as const;

/** Roles a message may have. */
export const MESSAGE_ROLES = ["system", "user", "assistant", "tool"] as const;

/** The text of an unused head on the wire (in `heads` and in `head` events). */
export const NULL_HEAD = "<|null|>";

/** Machine-readable kinds of failure, stable across releases. */
export const API_ERROR_CODES = [
  "invalid_json",
  "invalid_request",
  "body_too_large",
  "unsupported_tools",
  "unauthorized",
  "queue_full",
  "model_loading",
  "model_failed",
  "timeout",
  "not_found",
  "method_not_allowed",
  "unsupported_media_type",
  "host_not_allowed",
  "client_closed",
  "shutting_down",
  "engine_error",
  "engine_timeout",
  "internal",
] as const;

/** Machine-readable kinds of failure, stable across releases. */
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * The codes of a request that is itself wrong: sending it again unchanged will not help. Every
 * other code means "try again later".
 */
export const REQUEST_ERROR_CODES: ReadonlySet<ApiErrorCode> = new Set<ApiErrorCode>([
  "invalid_json",
  "invalid_request",
  "body_too_large",
  "unsupported_tools",
  "unauthorized",
  "not_found",
]);
