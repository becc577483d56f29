/**
 * `POST /v1/chat/completions`: the OpenAI request subset a tool-calling client sends, and the
 * `chat.completion` reply with `tool_calls`, so OpenAI SDK users switch by changing the base URL.
 */
import { z } from "@hono/zod-openapi";
import { MESSAGE_ROLES, REQUEST_LIMITS } from "./function-call";

const textPart = z.object({ type: z.literal("text"), text: z.string().max(REQUEST_LIMITS.messageChars) });

export const chatMessageSchema = z
  .object({
    role: z.enum([...MESSAGE_ROLES, "developer"]),
    content: z.union([z.string().max(REQUEST_LIMITS.messageChars), z.array(textPart).max(64)]).nullish(),
  })
  .openapi("ChatMessage");

export const chatToolSchema = z
  .object({
    type: z.literal("function"),
    function: z.record(z.string(), z.unknown()),
  })
  .openapi("ChatTool");

export const chatCompletionsRequestSchema = z
  .object({
    model: z.string().max(256).optional(),
    messages: z
      .array(chatMessageSchema)
      .min(1)
      .max(REQUEST_LIMITS.messages)
      .refine((messages) => messages.some((m) => m.role === "user"), {
        message: "must contain a user message (the query is the last one)",
      }),
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
  .openapi("ChatCompletionsRequest");

export type ChatCompletionsRequest = z.infer<typeof chatCompletionsRequestSchema>;

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string().openapi({ description: "JSON text" }) }),
});

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
          tool_calls: z.array(toolCallSchema).optional(),
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
      .openapi({ description: "rtool's extension: validity and raw heads." }),
  })
  .openapi("ChatCompletion");

export type ChatCompletion = z.infer<typeof chatCompletionSchema>;
