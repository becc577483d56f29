/**
 * `POST /v1/function_call` and `POST /v2/function_call` on the wire: the request (the reference
 * server's `messages`, `tools`, `environment`, `history`, `system`, `max_tokens`, `temperature`,
 * `include_content_head`, plus `stream`), the reply, the Server-Sent Events of a streamed call
 * and the error body. The server validates with these schemas and generates its OpenAPI document
 * from them; the client and the plugin use the types inferred from them. `meta({ id })` names
 * an OpenAPI component.
 */
import { z } from "zod";
import { MESSAGE_ROLES, REQUEST_LIMITS } from "./constants";
import { PROMPT_FORMATS } from "./tools";

/** A chat message of a function-call request. */
export const messageSchema = z
  .object({
    role: z.enum(MESSAGE_ROLES),
    content: z.string().max(REQUEST_LIMITS.messageChars),
  })
  .meta({ id: "Message" });

/** A chat message of a function-call request. */
export type Message = z.infer<typeof messageSchema>;

/** One OpenAI-style function tool; its inner structure is checked by the server's `normalizeTools` (422). */
export const toolSchema = z.record(z.string(), z.unknown()).meta({
  id: "Tool",
  example: {
    type: "function",
    function: {
      name: "move",
      parameters: { type: "object", properties: { direction: { type: "string" } }, required: ["direction"] },
    },
  },
});

/**
 * The `messages` of a request: 1 to `REQUEST_LIMITS.messages` of them, a user message among them
 * (the query is the last one).
 */
export function conversation<M extends z.ZodType<{ role: string }>>(message: M) {
  return z
    .array(message)
    .min(1)
    .max(REQUEST_LIMITS.messages)
    .refine((messages) => messages.some((m) => m.role === "user"), {
      message: "must contain a user message (the query is the last one)",
    });
}

const lines = (max: number, chars: number) => z.array(z.string().max(chars)).max(max);

/** The request body of `/v1|v2/function_call`. */
export const functionCallRequestSchema = z
  .object({
    messages: conversation(messageSchema),
    tools: z.array(toolSchema).min(1).max(REQUEST_LIMITS.tools),
    environment: lines(REQUEST_LIMITS.environment, REQUEST_LIMITS.environmentChars).nullish(),
    history: lines(REQUEST_LIMITS.history, REQUEST_LIMITS.historyChars).nullish(),
    system: z.string().max(REQUEST_LIMITS.systemChars).nullish(),
    max_tokens: z.number().int().min(1).max(REQUEST_LIMITS.maxTokens).default(32),
    temperature: z.number().min(0).max(2).default(0),
    include_content_head: z.boolean().default(false),
    stream: z.boolean().default(false),
  })
  .meta({ id: "FunctionCallRequest" });

/** A function-call request as the server reads it (defaults filled in). */
export type FunctionCallRequest = z.infer<typeof functionCallRequestSchema>;
/** A function-call request as a client may send it (defaulted fields optional). */
export type FunctionCallRequestBody = z.input<typeof functionCallRequestSchema>;

/** One problem with a call or a request field: `path` like `args.speed` or `messages[0].role`. */
export const issueSchema = z.object({ path: z.string(), message: z.string() }).meta({ id: "CallIssue" });

/** One problem with a call or a request field. */
export type Issue = z.infer<typeof issueSchema>;

/** Where a call's time went on the server. */
export const serverTimingsSchema = z.object({
  prefill_ms: z.number(),
  decode_ms: z.number(),
  steps: z.number().int(),
  cached_prefix_tokens: z.number().int(),
  total_ms: z.number().meta({
    description: "From the call's turn on its caller to its result (prefill, decode, mapping).",
  }),
  queue_ms: z.number().meta({ description: "Waiting for a slot in the server's call queue." }),
  prepare_ms: z.number().meta({ description: "Validating the request and tokenizing its prompt." }),
  lane_wait_ms: z
    .number()
    .meta({ description: "Waiting for earlier calls on the caller lane it was given." }),
  batch_wait_ms: z.number().meta({
    description:
      "Of prefill and decode: its forward passes waiting in the batcher (other requests' passes, merging).",
  }),
  forward_ms: z.number().meta({ description: "Of prefill and decode: time inside forward passes." }),
  shared_steps: z.number().int().meta({ description: "Forward passes shared with other requests." }),
  prompt_tokens: z.number().int().meta({ description: "Prompt tokens, cached ones included." }),
  prefilled_tokens: z.number().int().meta({
    description:
      "Prompt tokens this call computed: prompt_tokens - cached_prefix_tokens (the prefix cache held the rest).",
  }),
  fed_tokens: z.number().int().meta({
    description:
      "Rows this call put into forward passes: its prefilled prompt tokens and every head token fed (tags, chosen tokens, drafts); 0 where the engine does not say.",
  }),
  answer_cached: z.boolean().meta({
    description:
      "The answer of an earlier greedy call with the same prompt tokens and settings, given without a forward pass (decoding again gives the same heads).",
  }),
});

/** Where a call's time went on the server. */
export type ServerTimings = z.infer<typeof serverTimingsSchema>;

/** The reply of `/v1|v2/function_call` (and the data of a stream's `call` event). */
export const functionCallReplySchema = z
  .object({
    success: z.boolean().meta({
      description:
        "A function was chosen (as in the reference server); whether its arguments also passed the tool's schema is `valid`.",
    }),
    function: z.string().nullable(),
    args: z.record(z.string(), z.unknown()),
    heads: z.record(z.string(), z.string()).meta({ description: "Raw head texts; `<|null|>` for unused." }),
    content: z.string().nullable(),
    latency_ms: z.number(),
    error: z.string().nullable(),
    valid: z.boolean().meta({
      description:
        "A function was chosen and its arguments passed the tool's schema (`errors` lists what did not).",
    }),
    errors: z.array(issueSchema),
    timings: serverTimingsSchema,
  })
  .meta({ id: "FunctionCallReply" });

/** The reply of `/v1|v2/function_call`. */
export type FunctionCallReply = z.infer<typeof functionCallReplySchema>;

/** The data of a streamed call's `head` event: a head that finished; `text` is `<|null|>` when unused. */
export const headEventSchema = z.object({ head: z.string(), text: z.string(), done: z.boolean() });

/** The data of a streamed call's `head` event. */
export type HeadEventData = z.infer<typeof headEventSchema>;

/**
 * Events of a streamed call (`stream: true`), by SSE event name: a `head` per finished head, then
 * one `call` (the reply) or one `error` (the error body).
 */
export type FunctionCallStreamEvents = {
  head: HeadEventData;
  call: FunctionCallReply;
  error: ErrorReply;
};

/** The JSON body of every error reply (`code` is one of `API_ERROR_CODES`; a newer server may add codes). */
export const errorReplySchema = z
  .object({
    success: z.literal(false),
    error: z.string(),
    code: z.string(),
    field: z.string().nullable(),
    issues: z.array(issueSchema),
  })
  .meta({ id: "ErrorReply" });

/** The JSON body of every error reply. */
export type ErrorReply = z.infer<typeof errorReplySchema>;

/** The reply of `GET /health`: up (`status`), ready (`loaded`), and the model it serves. */
export const healthReplySchema = z
  .object({
    status: z.enum(["ok", "error"]),
    loaded: z.boolean(),
    state: z.enum(["loading", "ready", "failed"]),
    model: z.string(),
    version: z.string(),
    provider: z.enum(["cpu", "cuda", "remote"]).nullable(),
    format: z.enum(PROMPT_FORMATS),
    queue: z.object({ running: z.number().int(), waiting: z.number().int() }),
    error: z.string().optional().meta({ description: "Why the model failed to load (paths redacted)." }),
  })
  .meta({ id: "Health" });

/** The reply of `GET /health`. */
export type HealthReply = z.infer<typeof healthReplySchema>;
