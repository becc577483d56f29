/**
 * `POST /v1/function_call` and `POST /v2/function_call`: one command in, one typed call out,
 * as JSON or (with `stream: true`) as Server-Sent Events: a `head` event per finished head, then
 * a `call` event carrying the same reply the JSON route gives.
 */

import { type FunctionCallRequest, functionCallRequestSchema } from "@rtool/contract";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { checkTools, toApiError, toCallerRequest } from "../call-request";
import type { CallerResult } from "../caller";
import { withRequestSignal } from "../cancel/abort-scope";
import { acquireSlot, runForRequest } from "../cancel/request-work";
import type { ServerDeps } from "../deps";
import { ApiError } from "../http/api-error";
import { type JsonBodyEnv, jsonBody } from "../http/json-body";
import type { RequestSignalEnv } from "../middleware/request-timeout";
import type { PromptFormat } from "../model-host";
import { NULL_HEAD, toFunctionCallReply } from "../reply";

type Env = JsonBodyEnv<FunctionCallRequest> & RequestSignalEnv;

/**
 * The function-call route for one prompt format, to mount at its path.
 *
 * @example
 * ```ts
 * app.route("/v2/function_call", createFunctionCallRoute(deps, "v2"));
 * // POST {"messages":[{"role":"user","content":"move up"}],"tools":[...]} -> {"success":true,"function":"move",...}
 * ```
 */
export function createFunctionCallRoute(deps: ServerDeps, format: PromptFormat): Hono<Env> {
  return new Hono<Env>().post("/", jsonBody(functionCallRequestSchema, deps.limits), async (c) => {
    const started = performance.now();
    const body = c.get("body");
    checkTools(body.tools);
    const { request, queryField, promptField } = toCallerRequest(body, format);
    const caller = deps.host.caller();
    const signal = c.get("signal");
    let release: () => void;
    try {
      release = await acquireSlot(deps.queue, signal);
    } catch (error) {
      throw toApiError(error, queryField, promptField);
    }
    const queueMs = performance.now() - started;
    const finish = (result: CallerResult) => {
      deps.metrics.observeCall(
        Object.keys(result.heads).length,
        result.timings.steps,
        result.timings.cachedPrefixTokens,
      );
      return toFunctionCallReply(result, { latencyMs: performance.now() - started, queueMs });
    };

    if (!body.stream) {
      try {
        return c.json(finish(await runForRequest(signal, () => caller.call(request))));
      } catch (error) {
        throw toApiError(error, queryField, promptField);
      } finally {
        release();
      }
    }

    return streamSSE(
      c,
      async (stream) => {
        // A closed stream means the client left: give the slot back and stop decoding for it.
        const closed = new AbortController();
        stream.onAbort(() => {
          release();
          closed.abort(new DOMException("the client closed the stream", "AbortError"));
        });
        try {
          await withRequestSignal(AbortSignal.any([signal, closed.signal]), async () => {
            for await (const event of caller.stream(request)) {
              if ("call" in event) {
                await stream.writeSSE({ event: "call", data: JSON.stringify(finish(event.call)) });
              } else {
                const head = { head: event.head, text: event.text ?? NULL_HEAD, done: event.done };
                await stream.writeSSE({ event: "head", data: JSON.stringify(head) });
              }
            }
          });
        } finally {
          release();
        }
      },
      async (error, stream) => {
        const mapped = toApiError(error, queryField, promptField);
        const reply =
          mapped instanceof ApiError
            ? mapped.toJSON()
            : { success: false, error: "internal error", code: "internal", field: null, issues: [] };
        await stream.writeSSE({ event: "error", data: JSON.stringify(reply) });
      },
    );
  });
}
