/**
 * `POST /v1/chat/completions`: OpenAI-style chat with tools, answered by one multi-head call as
 * `tool_calls` (JSON, or an SSE chunk stream ending in `[DONE]` with `stream: true`).
 */
import { randomUUID } from "node:crypto";
import {
  type ChatCompletion,
  type ChatCompletionsRequest,
  chatCompletionsRequestSchema,
} from "@rtool/contract";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { type CallBody, checkTools, toApiError, toCallerRequest } from "../call-request";
import type { CallerResult } from "../caller";
import { runInSlot } from "../cancel/request-work";
import type { ServerDeps } from "../deps";
import { ApiError } from "../http/api-error";
import { type JsonBodyEnv, jsonBody } from "../http/json-body";
import type { RequestSignalEnv } from "../middleware/request-timeout";
import { headStrings } from "../reply";

type Env = JsonBodyEnv<ChatCompletionsRequest> & RequestSignalEnv;

/** A chat body in the function-call route's terms; `tool_choice` naming a function narrows the tools. */
export function chatToCallBody(body: ChatCompletionsRequest): CallBody {
  let tools: unknown[] = body.tools;
  const choice = body.tool_choice;
  if (typeof choice === "object") {
    const at = body.tools.findIndex((t) => t.function.name === choice.function.name);
    if (at < 0) {
      throw new ApiError(400, "invalid_request", "tool_choice.function.name", `names no tool of the request`);
    }
    tools = [body.tools[at]];
  }
  return {
    messages: body.messages.map((m) => ({
      role: m.role === "developer" ? "system" : m.role,
      content: typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => p.text).join(""),
    })),
    tools,
    environment: body.environment,
    history: body.history,
    max_tokens: body.max_completion_tokens ?? body.max_tokens ?? 32,
    temperature: body.temperature,
    include_content_head: false,
  };
}

/** The `chat.completion` object for a call. */
export function toChatCompletion(result: CallerResult, model: string, latencyMs: number): ChatCompletion {
  const called = result.function !== null;
  const message: ChatCompletion["choices"][number]["message"] = called
    ? {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`,
            type: "function",
            function: { name: result.function!, arguments: JSON.stringify(result.args) },
          },
        ],
      }
    : { role: "assistant", content: result.errors.map((e) => e.message).join("; ") || "No function called" };
  return {
    id: `chatcmpl-${randomUUID().replaceAll("-", "")}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: called ? "tool_calls" : "stop" }],
    rtool: {
      valid: result.valid,
      errors: result.errors,
      heads: headStrings(result.heads),
      latency_ms: Math.round(latencyMs * 1000) / 1000,
    },
  };
}

/**
 * The chat-completions route, to mount at `/v1/chat/completions`.
 *
 * @example
 * ```ts
 * app.route("/v1/chat/completions", createChatCompletionsRoute(deps));
 * // new OpenAI({ baseURL: "http://127.0.0.1:8899/v1", apiKey: "x" }).chat.completions.create({ messages, tools })
 * ```
 */
export function createChatCompletionsRoute(deps: ServerDeps): Hono<Env> {
  return new Hono<Env>().post("/", jsonBody(chatCompletionsRequestSchema, deps.limits), async (c) => {
    const started = performance.now();
    const body = c.get("body");
    const callBody = chatToCallBody(body);
    checkTools(callBody.tools);
    const { request, queryField, promptField } = toCallerRequest(callBody, deps.format);
    const caller = deps.host.caller();
    let result: CallerResult;
    try {
      result = await runInSlot(deps.queue, c.get("signal"), () => caller.call(request));
    } catch (error) {
      throw toApiError(error, queryField, promptField);
    }
    deps.metrics.observeCall(
      Object.keys(result.heads).length,
      result.timings.steps,
      result.timings.cachedPrefixTokens,
    );
    const completion = toChatCompletion(
      result,
      body.model ?? deps.host.modelName,
      performance.now() - started,
    );
    if (!body.stream) return c.json(completion);

    return streamSSE(c, async (stream) => {
      const { choices, rtool: _, ...head } = completion;
      const base = { ...head, object: "chat.completion.chunk" };
      const message = choices[0]!.message;
      const delta = message.tool_calls
        ? { role: "assistant", tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) }
        : { role: "assistant", content: message.content };
      await stream.writeSSE({
        data: JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] }),
      });
      const end = { index: 0, delta: {}, finish_reason: choices[0]!.finish_reason };
      await stream.writeSSE({ data: JSON.stringify({ ...base, choices: [end] }) });
      await stream.writeSSE({ data: "[DONE]" });
    });
  });
}
