/**
 * `POST /v1/completions`: OpenAI-compatible text completions, so any OpenAI-compatible client
 * can use rtool as an engine (and rtool's own remote-engine adapter can be tested against it).
 * A list of prompts is one request to the engine: locally, one tree whose shared prefix is
 * prefilled once and whose prompts advance together, one forward pass per step.
 */
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { toApiError } from "../call-request";
import { acquireSlot, runForRequest } from "../cancel/request-work";
import type { ServerDeps } from "../deps";
import { CompletionInputError } from "../engine/errors";
import type { CompletionResult } from "../engine/types";
import { ApiError } from "../http/api-error";
import { type JsonBodyEnv, jsonBody } from "../http/json-body";
import type { RequestSignalEnv } from "../middleware/request-timeout";
import { type Completion, type CompletionsRequest, completionsRequestSchema } from "./completions-schema";

type Env = JsonBodyEnv<CompletionsRequest> & RequestSignalEnv;

/**
 * The completions route, to mount at `/v1/completions`.
 *
 * @example
 * ```ts
 * app.route("/v1/completions", createCompletionsRoute(deps));
 * // POST {"prompt":["a<function>","a<arg1>"],"max_tokens":8,"temperature":0,"stop":["</function>","</arg1>"]}
 * // -> {"object":"text_completion","choices":[{"index":0,"text":"move","finish_reason":"stop",...},...],...}
 * ```
 */
export function createCompletionsRoute(deps: ServerDeps): Hono<Env> {
  return new Hono<Env>().post("/", jsonBody(completionsRequestSchema, deps.limits), async (c) => {
    const body = c.get("body");
    const engine = deps.host.completions();
    const signal = c.get("signal");
    let release: () => void;
    try {
      release = await acquireSlot(deps.queue, signal);
    } catch (error) {
      throw toApiError(error, "prompt");
    }
    try {
      const complete = () =>
        engine.complete({
          prompts: promptList(body.prompt),
          maxTokens: body.max_tokens,
          temperature: body.temperature,
          stop: body.stop,
          seed: body.seed,
          ignoreEos: body.ignore_eos,
          includeStopInOutput: body.include_stop_str_in_output || body.no_stop_trim,
          signal,
        });
      const result = await runForRequest(signal, complete);
      return c.json(toCompletion(result, deps.host.modelName));
    } catch (error) {
      if (error instanceof CompletionInputError) {
        // The engine numbers prompts; a body with one prompt names it plainly.
        const single = typeof body.prompt === "string" || typeof body.prompt[0] === "number";
        const field = single ? error.field.replace(/^prompt\[0\]/, "prompt") : error.field;
        throw new ApiError(400, "invalid_request", field, error.reason);
      }
      throw toApiError(error, "prompt");
    } finally {
      release();
    }
  });
}

/** The request's prompts as a list (a string, a list of strings, token ids, or lists of them). */
export function promptList(prompt: CompletionsRequest["prompt"]): (string | number[])[] {
  if (typeof prompt === "string") return [prompt];
  if (prompt.length > 0 && typeof prompt[0] === "number") return [prompt as number[]];
  return prompt as (string | number[])[];
}

/** The `text_completion` object of a result. */
export function toCompletion(result: CompletionResult, model: string): Completion {
  return {
    id: `cmpl-${randomUUID().replaceAll("-", "")}`,
    object: "text_completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: result.choices.map((choice, index) => ({
      index,
      text: choice.text,
      finish_reason: choice.finishReason,
      logprobs: null,
      stop_reason: choice.stopReason,
    })),
    usage: {
      prompt_tokens: result.promptTokens,
      completion_tokens: result.completionTokens,
      total_tokens: result.promptTokens + result.completionTokens,
      prompt_tokens_details: { cached_tokens: result.cachedTokens },
    },
  };
}
