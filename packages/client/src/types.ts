/**
 * The wire types of rtool-server, written out here so the client has no dependency on the
 * server (or on zod): requests as the routes accept them, replies as they send them.
 */

/** Prompt format of a function-call route: `/v1/function_call` or `/v2/function_call`. */
export type RouteVersion = "v1" | "v2";

/** A chat message. */
export interface Message {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
}

/** A JSON Schema property the heads can carry (string, number, integer, boolean, enum). */
export interface ParameterSchema {
  /** `string`, `number`, `integer` or `boolean` (or with `"null"` in a pair); the server refuses others with 422. */
  type?: string | readonly string[];
  description?: string;
  enum?: readonly (string | number)[];
  [keyword: string]: unknown;
}

/** The function part of an OpenAI-style tool; parameter order is `properties` key order. */
export interface FunctionDefinition {
  name: string;
  description?: string;
  parameters?: {
    type: "object";
    properties?: Readonly<Record<string, ParameterSchema>>;
    required?: readonly string[];
    [keyword: string]: unknown;
  };
}

/** An OpenAI-style function tool. */
export interface FunctionTool {
  type: "function";
  function: FunctionDefinition;
}

/** Fields of a function-call request besides the command (snake_case, as on the wire). */
export interface FunctionCallOptions {
  tools: readonly FunctionTool[];
  /** Lines describing the world now. */
  environment?: readonly string[];
  /** Earlier calls, oldest first, e.g. `"move(up)"`. */
  history?: readonly string[];
  /** v2 domain system prompt. */
  system?: string;
  /** Tokens per head at most; server default 32. */
  max_tokens?: number;
  /** 0 (server default) is greedy. */
  temperature?: number;
  /** Decode the free-text `<content>` head too. */
  include_content_head?: boolean;
}

/**
 * A function-call request: the wire body without `stream` (the method decides), with either
 * `messages` or the shorthand `query` (sent as one user message).
 */
export type FunctionCallInput = FunctionCallOptions &
  ({ messages: readonly Message[]; query?: never } | { query: string; messages?: never });

/** One problem with a call or a request field. */
export interface Issue {
  path: string;
  message: string;
}

/** Where a call's time went on the server. */
export interface ServerTimings {
  prefill_ms: number;
  decode_ms: number;
  steps: number;
  cached_prefix_tokens: number;
  total_ms: number;
  /** Waiting for a slot in the server's call queue. */
  queue_ms: number;
  /** Validating the request and tokenizing its prompt (older servers omit this and the fields below). */
  prepare_ms?: number;
  /** Waiting for earlier calls on its caller lane. */
  lane_wait_ms?: number;
  /** Of prefill and decode: forward passes waiting in the batcher. */
  batch_wait_ms?: number;
  /** Of prefill and decode: time inside forward passes. */
  forward_ms?: number;
  /** Forward passes shared with other requests. */
  shared_steps?: number;
  /** Prompt tokens, cached ones included. */
  prompt_tokens?: number;
  /** Prompt tokens this call computed (prompt_tokens - cached_prefix_tokens). */
  prefilled_tokens?: number;
  /** Rows this call put into forward passes: prefilled prompt tokens and head tokens. */
  fed_tokens?: number;
  /** Answered from the server's answer cache (same prompt and settings as an earlier greedy call): no pass ran. */
  answer_cached?: boolean;
}

/** Reply of `/v1|v2/function_call`. */
export interface FunctionCallReply {
  /** A function was chosen (as in the reference server). */
  success: boolean;
  function: string | null;
  /** Typed argument values by parameter name. */
  args: Record<string, unknown>;
  /** Raw head texts; `<|null|>` for unused heads. */
  heads: Record<string, string>;
  content: string | null;
  latency_ms: number;
  error: string | null;
  /** A function was chosen and its arguments passed the schema. */
  valid: boolean;
  errors: Issue[];
  timings: ServerTimings;
}

/** A streamed head as it finished; `text` is null for an unused head (`<|null|>` on the wire). */
export interface HeadEvent {
  head: string;
  text: string | null;
  done: boolean;
}

/** Events of {@link RtoolClient.streamFunctionCall}: heads as they finish, then the call. */
export type FunctionCallEvent = HeadEvent | { call: FunctionCallReply };

/** Reply of `GET /health`. */
export interface HealthReply {
  status: "ok" | "error";
  loaded: boolean;
  state?: "loading" | "ready" | "failed";
  model: string;
  version: string;
  provider: "cpu" | "cuda" | null;
  format?: RouteVersion;
  queue?: { running: number; waiting: number };
  error?: string;
}

/** A chat message of `/v1/chat/completions` (text parts allowed). */
export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | { type: "text"; text: string }[] | null;
}

/** Request of `/v1/chat/completions` (the OpenAI subset the server accepts, without `stream`). */
export interface ChatCompletionsRequest {
  model?: string;
  messages: readonly ChatMessage[];
  tools: readonly FunctionTool[];
  tool_choice?: "auto" | "required" | { type: "function"; function: { name: string } };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  environment?: readonly string[];
  history?: readonly string[];
}

/** One tool call of a chat completion; `arguments` is JSON text. */
export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** Reply of `/v1/chat/completions`. */
export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: {
    index: number;
    message: { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] };
    finish_reason: "tool_calls" | "stop";
  }[];
  rtool: { valid: boolean; errors: Issue[]; heads: Record<string, string>; latency_ms: number };
}

/** The JSON body of every error reply. */
export interface ErrorReply {
  success: false;
  error: string;
  code: string;
  field: string | null;
  issues: Issue[];
}
