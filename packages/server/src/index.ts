/**
 * @rtool/server: the Hono HTTP server in front of the @rtool/core real-time caller, and the
 * `rtool-server` CLI.
 * @packageDocumentation
 */

export {
  type FunctionCallReply,
  type FunctionCallRequest,
  functionCallReplySchema,
  functionCallRequestSchema,
  REQUEST_LIMITS,
} from "@rtool/contract";
export { VERSION } from "@rtool/core";
export { type AppOptions, createApp, ROUTES } from "./app";
export {
  CallQueue,
  type CallQueueOptions,
  DEFAULT_CONCURRENCY,
  QueueClosedError,
  QueueFullError,
} from "./batching/call-queue";
export { CallerPool } from "./batching/caller-pool";
export type {
  Caller,
  CallerCacheStats,
  CallerEvent,
  CallerIssue,
  CallerRequest,
  CallerResult,
  CallerTimings,
} from "./caller";
export { runCli } from "./cli/main";
export { PullError, type PullOptions, type PullResult, pullModel } from "./cli/pull";
export type { ServerDeps } from "./deps";
export { CompletionInputError, EngineError, type EngineFailure } from "./engine/errors";
export { LocalCompletions, type LocalCompletionsOptions } from "./engine/local-completions";
export {
  completionsUrl,
  createOpenAiEngine,
  OpenAiCompletions,
  type OpenAiEngineOptions,
} from "./engine/openai-engine";
export { headsRequest, RemoteCaller, readHead } from "./engine/remote-caller";
export type {
  CompletionChoice,
  CompletionEngine,
  CompletionRequest,
  CompletionResult,
  Engine,
} from "./engine/types";
export { ApiError, type ApiErrorCode, type FieldIssue } from "./http/api-error";
export { type LoadCallersOptions, type LoadedCallers, loadCallers } from "./load-callers";
export { createMetrics, type ServerMetrics } from "./metrics";
export { type LoadedModel, ModelHost, type ModelState, type PromptFormat } from "./model-host";
export { EMBEDDED_MODEL, ModelSourceError, resolveModelDir } from "./model-source";
export { createCompletionsRoute } from "./routes/completions";
export {
  type Completion,
  type CompletionsRequest,
  completionsRequestSchema,
} from "./routes/completions-schema";
export { openApiDocument } from "./routes/openapi";
export { createServer, type ListeningAddress, type RtoolServer, type ServerOptions } from "./server";
