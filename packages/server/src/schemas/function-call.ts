/**
 * Request and reply of `POST /v1/function_call` and `POST /v2/function_call`, as zod schemas.
 * The request is the reference server's (`messages`, `tools`, `environment`, `history`, `system`,
 * `max_tokens`, `temperature`, `include_content_head`) plus `stream`; limits keep one request from
 * holding the model for long.
 */
import { z } from "@hono/zod-openapi";

/** Limits on request fields; exceeded ones get 400 naming the field. */
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

export const messageSchema = z
  .object({
    role: z.enum(MESSAGE_ROLES),
    content: z.string().max(REQUEST_LIMITS.messageChars),
  })
  .openapi("Message");

/** One OpenAI-style function tool; its inner structure is checked by `normalizeTools` (422). */
export const toolSchema = z.record(z.string(), z.unknown()).openapi("Tool", {
  example: {
    type: "function",
    function: {
      name: "move",
      parameters: { type: "object", properties: { direction: { type: "string" } }, required: ["direction"] },
    },
  },
});

const lines = (max: number, chars: number) => z.array(z.string().max(chars)).max(max);

export const functionCallRequestSchema = z
  .object({
    messages: z
      .array(messageSchema)
      .min(1)
      .max(REQUEST_LIMITS.messages)
      .refine((messages) => messages.some((m) => m.role === "user"), {
        message: "must contain a user message (the query is the last one)",
      }),
    tools: z.array(toolSchema).min(1).max(REQUEST_LIMITS.tools),
    environment: lines(REQUEST_LIMITS.environment, REQUEST_LIMITS.environmentChars).nullish(),
    history: lines(REQUEST_LIMITS.history, REQUEST_LIMITS.historyChars).nullish(),
    system: z.string().max(REQUEST_LIMITS.systemChars).nullish(),
    max_tokens: z.number().int().min(1).max(REQUEST_LIMITS.maxTokens).default(32),
    temperature: z.number().min(0).max(2).default(0),
    include_content_head: z.boolean().default(false),
    stream: z.boolean().default(false),
  })
  .openapi("FunctionCallRequest");

export type FunctionCallRequest = z.infer<typeof functionCallRequestSchema>;

const issueSchema = z.object({ path: z.string(), message: z.string() }).openapi("CallIssue");

export const functionCallReplySchema = z
  .object({
    success: z.boolean().openapi({
      description:
        "A function was chosen (as in the reference server); whether its arguments also passed the tool's schema is `valid`.",
    }),
    function: z.string().nullable(),
    args: z.record(z.string(), z.unknown()),
    heads: z
      .record(z.string(), z.string())
      .openapi({ description: "Raw head texts; `<|null|>` for unused." }),
    content: z.string().nullable(),
    latency_ms: z.number(),
    error: z.string().nullable(),
    valid: z.boolean().openapi({
      description:
        "A function was chosen and its arguments passed the tool's schema (`errors` lists what did not).",
    }),
    errors: z.array(issueSchema),
    timings: z.object({
      prefill_ms: z.number(),
      decode_ms: z.number(),
      steps: z.number().int(),
      cached_prefix_tokens: z.number().int(),
      total_ms: z.number().openapi({
        description: "From the call's turn on its caller to its result (prefill, decode, mapping).",
      }),
      queue_ms: z.number().openapi({ description: "Waiting for a slot in the server's call queue." }),
      prepare_ms: z.number().openapi({ description: "Validating the request and tokenizing its prompt." }),
      lane_wait_ms: z
        .number()
        .openapi({ description: "Waiting for earlier calls on the caller lane it was given." }),
      batch_wait_ms: z.number().openapi({
        description:
          "Of prefill and decode: its forward passes waiting in the batcher (other requests' passes, merging).",
      }),
      forward_ms: z.number().openapi({ description: "Of prefill and decode: time inside forward passes." }),
      shared_steps: z.number().int().openapi({ description: "Forward passes shared with other requests." }),
      prompt_tokens: z.number().int().openapi({ description: "Prompt tokens, cached ones included." }),
      prefilled_tokens: z.number().int().openapi({
        description:
          "Prompt tokens this call computed: prompt_tokens - cached_prefix_tokens (the prefix cache held the rest).",
      }),
      fed_tokens: z.number().int().openapi({
        description:
          "Rows this call put into forward passes: its prefilled prompt tokens and every head token fed (tags, chosen tokens, drafts); 0 where the engine does not say.",
      }),
      answer_cached: z.boolean().openapi({
        description:
          "The answer of an earlier greedy call with the same prompt tokens and settings, given without a forward pass (decoding again gives the same heads).",
      }),
    }),
  })
  .openapi("FunctionCallReply");

export type FunctionCallReply = z.infer<typeof functionCallReplySchema>;

export const errorReplySchema = z
  .object({
    success: z.literal(false),
    error: z.string(),
    code: z.string(),
    field: z.string().nullable(),
    issues: z.array(issueSchema),
  })
  .openapi("ErrorReply");
