/**
 * @rtool/server: the Hono HTTP server in front of the @rtool/core real-time caller, and the
 * `rtool-server` CLI.
 * @packageDocumentation
 */
export { VERSION } from "@rtool/core";
export { type AppOptions, createApp, ROUTES } from "./app";
export { CallQueue, type CallQueueOptions, QueueClosedError, QueueFullError } from "./batching/call-queue";
export type {
  Caller,
  CallerCacheStats,
  CallerEvent,
  CallerIssue,
  CallerRequest,
  CallerResult,
  CallerTimings,
} from "./caller";
export type { ServerDeps } from "./deps";
export { ApiError, type ApiErrorCode, type FieldIssue } from "./http/api-error";
export { createMetrics, type ServerMetrics } from "./metrics";
export { type LoadedModel, ModelHost, type ModelState, type PromptFormat } from "./model-host";
export { openApiDocument } from "./routes/openapi";
export {
  type FunctionCallReply,
  type FunctionCallRequest,
  functionCallReplySchema,
  functionCallRequestSchema,
  REQUEST_LIMITS,
} from "./schemas/function-call";
export { createServer, type ListeningAddress, type RtoolServer, type ServerOptions } from "./server";
