/**
 * @rtool/phaser-plugin: model-driven characters and voice/text commands in a Phaser scene,
 * through an rtool-server. `RtoolPlugin` is the Phaser plugin; `RtoolClient` and the modules
 * below it have no Phaser dependency.
 * @packageDocumentation
 */

export type { AgentSpec, AgentStats, CommandOutcome, RequestSource } from "./agent";
export { Backoff, type BackoffOptions } from "./backoff";
export type {
  Agent,
  HandlerResult,
  RtoolClientOptions,
  ToolContext,
  ToolHandler,
  ToolOptions,
} from "./client";
export { RtoolClient } from "./client";
export type {
  CallEvent,
  DroppedEvent,
  DropReason,
  ErrorEvent,
  HeadEvent,
  LatencyEvent,
  RejectedEvent,
  RtoolEvents,
  ServerStatus,
  StatusEvent,
} from "./events";
export { historyEntry } from "./history-entry";
export { RTOOL_OPTIONS_KEY, RtoolPlugin, type RtoolPluginOptions } from "./plugin";
export { RateMeter } from "./rate-meter";
export { type SseEvent, SseParser } from "./sse-parser";
export {
  type FunctionDefinition,
  type FunctionTool,
  MAX_PARAMETERS,
  normalizeTool,
  type ParameterSchema,
  type ParametersSchema,
  type ParameterType,
  type ToolDefinition,
  ToolDefinitionError,
} from "./tool-schema";
export {
  type CallReply,
  type CallRequest,
  createHttpTransport,
  type HeadUpdate,
  type HttpTransportOptions,
  type PromptFormat,
  RequestRejectedError,
  type SendOptions,
  type ServerIssue,
  ServerUnavailableError,
  type Transport,
} from "./transport";
export { TypedEvents } from "./typed-events";
export {
  type CallArgs,
  type CallRejection,
  type RejectionCode,
  type ValidCall,
  validateCall,
} from "./validate-call";
