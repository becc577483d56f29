/**
 * `POST /v1/chat/completions` on the wire: the OpenAI request subset a tool-calling client sends,
 * and the `chat.completion` reply with `tool_calls`, so OpenAI SDK users switch by changing the
 * base URL.
 */
import { z } from "zod";
import { MESSAGE_ROLES, REQUEST_LIMITS } from "./constants";
import { conversation } from "./function-call";

const textPart = z.object({ type: z.literal("text"), text: z.string().max(REQUEST_LIMITS.messageChars) });

/** A chat message (text parts allowed). */
export const chatMessageSchema = z
  .object({
    role: z.enum([...MESSAGE_ROLES, "developer"]),
    content: z.union([z.string().max(REQUEST_LIMITS.messageChars), z.array(textPart).max(64)]).nullish(),
  })
  .meta({ id: "ChatMessage" });

/** A chat message (text parts allowed). */
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** A tool of a chat request; its inner structure is checked as a function call's tools are. */
export const chatToolSchema = z
  .object({
    type: z.literal("function"),
    function: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "ChatTool" });

/** The request body of `/v1/chat/completions`. */
export const chatCompletionsRequestSchema = z
  .object({
    model: z.string().max(256).optional(),
    messages: conversation(chatMessageSchema),
    tools: z.array(chatToolSchema).min(1).max(REQUEST_LIMITS.tools),
    tool_choice: z
      .union([
        z.enum(["auto", "required"]),
        z.object({ type: z.literal("function"), function: z.object({ name: z.string().max(64) }) }),
      ])
      .optional(),
    max_tokens: z.number().int().min(1).max(REQUEST_LIMITS.maxTokens).optional(),
    max_completion_tokens: z.number().int().min(1).max(REQUEST_LIMITS.maxTokens).optional(),
    temperature: z.number().min(0).max(2).default(0),
    stream: z.boolean().default(false),
    environment: z
      .array(z.string().max(REQUEST_LIMITS.environmentChars))
      .max(REQUEST_LIMITS.environment)
      .nullish(),
    history: z.array(z.string().max(REQUEST_LIMITS.historyChars)).max(REQUEST_LIMITS.history).nullish(),
  })
  .meta({ id: "ChatCompletionsRequest" });

/** A chat request as the server reads it (defaults filled in). */
export type ChatCompletionsRequest = z.infer<typeof chatCompletionsRequestSchema>;
/** A chat request as a client may send it (defaulted fields optional). */
export type ChatCompletionsBody = z.input<typeof chatCompletionsRequestSchema>;

/** One tool call of a chat completion; `arguments` is JSON text. */
export const chatToolCallSchema = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string().meta({ description: "JSON text" }) }),
});

/** One tool call of a chat completion. */
export type ChatToolCall = z.infer<typeof chatToolCallSchema>;

/** The reply of `/v1/chat/completions`. */
export const chatCompletionSchema = z
  .object({
    id: z.string(),
    object: z.literal("chat.completion"),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({
          role: z.literal("assistant"),
          content: z.string().nullable(),
          tool_calls: z.array(chatToolCallSchema).optional(),
        }),
        finish_reason: z.enum(["tool_calls", "stop"]),
      }),
    ),
    rtool: z
      .object({
        valid: z.boolean(),
        errors: z.array(z.object({ path: z.string(), message: z.string() })),
        heads: z.record(z.string(), z.string()),
        latency_ms: z.number(),
      })
      .meta({ description: "rtool's extension: validity and raw heads." }),
  })
  .meta({ id: "ChatCompletion" });

/** The reply of `/v1/chat/completions`. */
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;
