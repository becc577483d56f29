/**
 * `@rtool/phaser-plugin/headless`: the plugin's engine without Phaser (client, transport,
 * validation, back-off), for Node or Bun programs, workers and tests that drive agents
 * themselves with `client.update()`.
 * @packageDocumentation
 */

export type { AgentSpec, AgentStats, CommandOutcome, RequestSource } from "./agent";
export { Backoff, type BackoffOptions } from "./backoff";
export type {
  Agent,
  AgentClientOptions,
  AgentToolContext,
  AgentToolHandler,
  HandlerResult,
  ToolOptions,
} from "./client";
export { AgentClient } from "./client";
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
export { RateMeter } from "./rate-meter";
export {
  type AgentToolDefinition,
  type FunctionDefinition,
  type FunctionTool,
  MAX_PARAMETERS,
  type NormalizedTool,
  normalizeTool,
  type ParameterSchema,
  type ParametersSchema,
  type ParameterType,
  ToolDefinitionError,
} from "./tool-schema";
export {
  type CallReply,
  createHttpTransport,
  type HeadUpdate,
  type HttpTransportOptions,
  type PromptFormat,
  RequestRejectedError,
  type SendOptions,
  type ServerIssue,
  ServerUnavailableError,
  type Transport,
  type TransportRequest,
} from "./transport";
export { TypedEvents } from "./typed-events";
export {
  type CallArgs,
  type CallRejection,
  type CallRejectionCode,
  type ValidCall,
  validateCall,
} from "./validate-call";
