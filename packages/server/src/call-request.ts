/**
 * From a validated HTTP body to the caller's request, and from the caller's errors to HTTP ones.
 * Tool schemas are checked here, before the model is touched, so a bad tool gets 422 even while
 * the model loads.
 */
import {
  CallerInputError,
  normalizeTools,
  PromptTooLongError,
  ToolSchemaError,
  type ToolSpec,
} from "@rtool/core";
import { QueueClosedError, QueueFullError } from "./batching/call-queue";
import type { CallerRequest, PromptFormat } from "./caller";
import { ApiError } from "./http/api-error";

/** The parts of a body every call route shares. */
export interface CallBody {
  messages: readonly { role: string; content: string }[];
  tools: readonly unknown[];
  environment?: readonly string[] | null;
  history?: readonly string[] | null;
  system?: string | null;
  max_tokens: number;
  temperature: number;
  include_content_head: boolean;
}

/** Validates tools with core's rules; 422 naming the field (e.g. `tools[0].function.parameters.properties`). */
export function checkTools(tools: readonly unknown[]): ToolSpec[] {
  try {
    return normalizeTools(tools);
  } catch (error) {
    if (error instanceof ToolSchemaError) {
      throw new ApiError(422, "unsupported_tools", error.path, error.reason);
    }
    throw error;
  }
}

/** A caller request and where its fields came from in the body (for error paths). */
export interface MappedRequest {
  request: CallerRequest;
  /** Body path of the query, e.g. `messages[2].content`. */
  queryField: string;
  /** The field to blame when the prompt is too long for the model: the largest part of it. */
  promptField: string;
}

/**
 * The caller request for a body in the route's prompt `format`: the query is the last user
 * message, the system prompt is `system` or else the first system message.
 *
 * @example
 * ```ts
 * const { request } = toCallerRequest({ messages: [{ role: "user", content: "go up" }], tools }, "v2");
 * // { format: "v2", query: "go up", tools, ... }
 * ```
 */
export function toCallerRequest(body: CallBody, format: PromptFormat): MappedRequest {
  let queryIndex = -1;
  body.messages.forEach((m, i) => {
    if (m.role === "user") queryIndex = i;
  });
  if (queryIndex < 0) throw new ApiError(400, "invalid_request", "messages", "must contain a user message");
  const query = body.messages[queryIndex]!.content;
  if (query.trim() === "") {
    throw new ApiError(
      400,
      "invalid_request",
      `messages[${queryIndex}].content`,
      "the query must not be empty",
    );
  }
  const system = body.system ?? body.messages.find((m) => m.role === "system")?.content;
  const request: CallerRequest = {
    format,
    query,
    // The raw tools: the caller normalises them itself (already checked by checkTools).
    tools: body.tools,
    maxTokens: body.max_tokens,
    temperature: body.temperature,
    includeContent: body.include_content_head,
  };
  if (body.environment) request.environment = body.environment;
  if (body.history) request.history = body.history;
  if (system !== undefined) request.system = system;
  const queryField = `messages[${queryIndex}].content`;
  return { request, queryField, promptField: largestPart(request, queryField) };
}

/** Which request field holds the most prompt text (what to shorten when the prompt is too long). */
function largestPart(request: CallerRequest, queryField: string): string {
  const sizes: [string, number][] = [
    [queryField, request.query.length],
    ["environment", JSON.stringify(request.environment ?? []).length],
    ["history", (request.history ?? []).join(", ").length],
    ["system", request.system?.length ?? 0],
    ["tools", JSON.stringify(request.tools).length],
  ];
  return sizes.reduce((best, part) => (part[1] > best[1] ? part : best))[0];
}

/** Body paths of the caller's field names, for errors the caller reports. */
const BODY_FIELDS: Record<string, string> = {
  maxTokens: "max_tokens",
  includeContent: "include_content_head",
};

/**
 * Maps errors of the queue and the caller to {@link ApiError}s with body paths (`query` becomes
 * `queryField`, a prompt too long for the model names `promptField`); unknown errors pass
 * through (500).
 */
export function toApiError(error: unknown, queryField = "messages", promptField = queryField): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof QueueFullError) return new ApiError(429, "queue_full", null, error.message);
  if (error instanceof QueueClosedError) return new ApiError(503, "shutting_down", null, error.message);
  if (error instanceof ToolSchemaError)
    return new ApiError(422, "unsupported_tools", error.path, error.reason);
  // Core's input errors (e.g. a prompt longer than the model's context) name the caller field.
  if (error instanceof PromptTooLongError) {
    return new ApiError(422, "invalid_request", promptField, error.reason);
  }
  if (error instanceof CallerInputError) {
    const field = error.path === "query" ? queryField : (BODY_FIELDS[error.path] ?? error.path);
    return new ApiError(422, "invalid_request", field, error.reason);
  }
  return error;
}
