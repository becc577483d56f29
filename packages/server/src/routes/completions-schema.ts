/**
 * `POST /v1/completions`: the OpenAI completions request (with vLLM's and SGLang's extensions
 * that an engine client sends) and the `text_completion` reply.
 */
import { z } from "@hono/zod-openapi";

/** Bounds of one completions request. */
export const COMPLETION_LIMITS = {
  prompts: 64,
  promptChars: 64_000,
  promptTokens: 16_384,
  maxTokens: 1024,
  stops: 32,
  stopChars: 256,
} as const;

const tokenId = z.number().int().min(0);
const promptText = z.string().min(1).max(COMPLETION_LIMITS.promptChars);
const promptIds = z.array(tokenId).min(1).max(COMPLETION_LIMITS.promptTokens);
const stopText = z.string().min(1).max(COMPLETION_LIMITS.stopChars);

export const completionsRequestSchema = z
  .object({
    model: z.string().max(256).optional(),
    prompt: z.union([
      promptText,
      z.array(promptText).min(1).max(COMPLETION_LIMITS.prompts),
      promptIds,
      z.array(promptIds).min(1).max(COMPLETION_LIMITS.prompts),
    ]),
    max_tokens: z.number().int().min(1).max(COMPLETION_LIMITS.maxTokens).default(16),
    temperature: z.number().min(0).max(2).default(0),
    stop: z
      .union([stopText, z.array(stopText).max(COMPLETION_LIMITS.stops)])
      .nullish()
      .transform((stop) => (stop == null ? [] : typeof stop === "string" ? [stop] : stop)),
    echo: z.literal(false, { message: "only echo: false is supported" }).optional(),
    n: z.literal(1, { message: "only n: 1 is supported" }).optional(),
    stream: z.literal(false, { message: "streaming is not supported; send stream: false" }).optional(),
    seed: z.number().int().optional(),
    /** vLLM: keep generating past end-of-sequence tokens. */
    ignore_eos: z.boolean().default(false),
    /** vLLM: append the stop text that ended a choice to its text. */
    include_stop_str_in_output: z.boolean().default(false),
    /** SGLang's name for `include_stop_str_in_output`. */
    no_stop_trim: z.boolean().default(false),
    /** Accepted for vLLM clients; rtool always writes special tokens out (as with `false`). */
    skip_special_tokens: z.boolean().optional(),
  })
  .openapi("CompletionsRequest");

export type CompletionsRequest = z.infer<typeof completionsRequestSchema>;

export const completionSchema = z
  .object({
    id: z.string(),
    object: z.literal("text_completion"),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        text: z.string(),
        finish_reason: z.enum(["stop", "length"]),
        logprobs: z.null(),
        stop_reason: z
          .string()
          .nullable()
          .openapi({ description: "vLLM's extension: the stop text that ended the choice." }),
      }),
    ),
    usage: z.object({
      prompt_tokens: z.number().int(),
      completion_tokens: z.number().int(),
      total_tokens: z.number().int(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().int() }),
    }),
  })
  .openapi("Completion");

export type Completion = z.infer<typeof completionSchema>;
