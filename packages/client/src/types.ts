/**
 * The wire types of rtool-server, inferred from the call contract's zod schemas
 * (`@rtool/contract`, the same schemas the server validates with), so the client and the server
 * cannot drift. Only types come from there: the client loads no zod at run time.
 */
import type {
  ChatCompletionsBody,
  FunctionCallReply,
  FunctionCallRequestBody,
  FunctionTool,
  HeadEventData,
  Message,
  PromptFormat,
} from "@rtool/contract";

export type {
  ChatCompletion,
  ChatMessage,
  ChatToolCall,
  ErrorReply,
  FunctionCallReply,
  FunctionDefinition,
  FunctionTool,
  HealthReply,
  Issue,
  Message,
  ParameterSchema,
  PromptFormat,
  ServerTimings,
} from "@rtool/contract";

/** Prompt format of a function-call route: `/v1/function_call` or `/v2/function_call`. */
export type RouteVersion = PromptFormat;

/** A request body as a caller may hand it over: arrays `readonly` (frozen or `as const` lists welcome). */
type Sendable<V> = V extends readonly (infer U)[]
  ? readonly Sendable<U>[]
  : V extends object
    ? { readonly [K in keyof V]: Sendable<V[K]> }
    : V;

/**
 * Fields of a function-call request besides the command (snake_case, as on the wire): `tools`,
 * `environment` (lines describing the world now), `history` (earlier calls, oldest first, e.g.
 * `"move(up)"`), `system` (v2 domain system prompt), `max_tokens` (per head; server default 32),
 * `temperature` (0, the default, is greedy), `include_content_head`.
 */
export type FunctionCallOptions = Sendable<Omit<FunctionCallRequestBody, "messages" | "stream" | "tools">> & {
  tools: readonly FunctionTool[];
};

/**
 * A function-call request: the wire body without `stream` (the method decides), with either
 * `messages` or the shorthand `query` (sent as one user message).
 */
export type FunctionCallInput = FunctionCallOptions &
  ({ messages: readonly Message[]; query?: never } | { query: string; messages?: never });

/** A streamed head as it finished; `text` is null for an unused head (`<|null|>` on the wire). */
export type StreamedHead = Omit<HeadEventData, "text"> & { text: string | null };

/** Events of {@link RtoolClient.streamFunctionCall}: heads as they finish, then the call. */
export type FunctionCallEvent = StreamedHead | { call: FunctionCallReply };

/** A request of `/v1/chat/completions` (the OpenAI subset the server accepts, without `stream`). */
export type ChatCompletionsInput = Sendable<Omit<ChatCompletionsBody, "stream" | "tools">> & {
  tools: readonly FunctionTool[];
};
