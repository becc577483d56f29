/**
 * `RtoolClient`: typed calls to an rtool-server over `fetch`, with the API key, a deadline per
 * call (retries included), retries on 429/503 with jittered back-off, latest-wins cancellation
 * per key, and the `X-Rtool-Prefix` routing header.
 */

import type { HeadEventData } from "@rtool/contract";
import { NULL_HEAD } from "@rtool/contract/calls";
import { RtoolHttpError, RtoolNetworkError, RtoolProtocolError } from "./errors";
import { prefixHash } from "./prefix-hash";
import { LatestWins, RequestScope } from "./request-scope";
import { RETRY_STATUSES, type RetryOptions, retryDelayMs, retryPolicy, sleep } from "./retry";
import { readSse } from "./sse";
import type {
  ChatCompletion,
  ChatCompletionsInput,
  FunctionCallEvent,
  FunctionCallInput,
  FunctionCallReply,
  HealthReply,
  RouteVersion,
} from "./types";

/** Options of {@link RtoolClient}. */
export interface RtoolClientOptions {
  /** Server base URL; default `http://127.0.0.1:8899`. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer KEY`. */
  apiKey?: string;
  /** Deadline of one call, retries and back-off included; default 10 000 ms; 0 for none. */
  timeoutMs?: number;
  /** Retries on 429, 503 and refused connections; `false` turns them off. */
  retry?: RetryOptions | false;
  /** Route of {@link RtoolClient.functionCall} unless a call says otherwise; default "v2". */
  version?: RouteVersion;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** The `fetch` to use; default the global one. */
  fetch?: FetchFunction;
}

/** What the client needs of `fetch`. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

/** Per-request options. */
export interface RequestOptions {
  /** Abandons the request (an `RtoolAbortError` with reason "aborted"). */
  signal?: AbortSignal;
  /** Overrides the client's deadline for this request. */
  timeoutMs?: number;
}

/** Options of a function call. */
export interface CallOptions extends RequestOptions {
  /** `/v1/function_call` or `/v2/function_call`; default the client's `version`. */
  version?: RouteVersion;
  /**
   * Latest-wins key (an agent's id, say): a new call with the same key aborts this one, which
   * then rejects with `RtoolAbortError` reason "superseded" (test with `isSuperseded`).
   */
  key?: string;
}

/** Options of {@link RtoolClient.waitUntilReady}. */
export interface WaitOptions extends RequestOptions {
  /** Pause between polls; default 250 ms. */
  intervalMs?: number;
}

/** Statuses of the error codes an SSE `error` event can carry (the stream itself was a 200). */
const STREAM_ERROR_STATUS: Record<string, number> = {
  invalid_request: 400,
  unsupported_tools: 422,
  queue_full: 429,
  model_loading: 503,
  model_failed: 503,
  shutting_down: 503,
  timeout: 504,
};

/**
 * A client of one rtool-server.
 *
 * @example
 * ```ts
 * const rtool = new RtoolClient({ baseUrl: "http://127.0.0.1:8899", apiKey: process.env.RTOOL_KEY });
 * const reply = await rtool.functionCall({ query: "move up", tools }, { key: "ship-1" });
 * if (reply.valid) console.log(reply.function, reply.args); // move { direction: "up" }
 * for await (const event of rtool.streamFunctionCall({ query: "fire", tools })) {
 *   if ("head" in event) console.log(event.head, event.text);
 *   else console.log(event.call.function);
 * }
 * ```
 */
export class RtoolClient {
  readonly baseUrl: string;
  private readonly latest = new LatestWins();
  private readonly retry: Required<RetryOptions>;
  private readonly fetchImpl: FetchFunction;

  constructor(private readonly options: RtoolClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? "http://127.0.0.1:8899").replace(/\/+$/, "");
    this.retry = retryPolicy(options.retry);
    this.fetchImpl = options.fetch ?? ((url, init) => fetch(url, init));
  }

  /** `GET /health`: whether the server is up and its model loaded. */
  async health(options: RequestOptions = {}): Promise<HealthReply> {
    return this.json<HealthReply>("/health", { method: "GET" }, options);
  }

  /**
   * Polls `/health` until the model is loaded; rejects with `RtoolTimeoutError` at the deadline
   * and with `RtoolHttpError` (code `model_failed`) when the model failed to load.
   */
  async waitUntilReady(options: WaitOptions = {}): Promise<HealthReply> {
    const scope = this.scope("/health", options);
    try {
      for (;;) {
        const health = await this.health({ signal: scope.signal, timeoutMs: 0 }).catch((error: unknown) => {
          if (error instanceof RtoolNetworkError) return null;
          throw error;
        });
        if (health?.loaded) return health;
        if (health?.status === "error") {
          const message = health.error ?? "the model failed to load";
          throw new RtoolHttpError(this.url("/health"), 503, "model_failed", null, [], message, 1);
        }
        await sleep(options.intervalMs ?? 250, scope.signal);
      }
    } catch (error) {
      throw scope.abortError() ?? error;
    } finally {
      scope.end();
    }
  }

  /**
   * `POST /v1|v2/function_call`: one command in, one typed call out. `valid` tells whether the
   * call passed the tools' schemas; an invalid call is a reply, not an error.
   */
  async functionCall(input: FunctionCallInput, options: CallOptions = {}): Promise<FunctionCallReply> {
    const path = this.callPath(options.version);
    const init = this.post(wireBody(input, false), prefixHash(input.system, input.tools));
    return this.json<FunctionCallReply>(path, init, options);
  }

  /**
   * The same call with `stream: true`: yields each head as it finishes (`text` null for an
   * unused head), then `{ call }`. Breaking out of the loop cancels the request.
   */
  async *streamFunctionCall(
    input: FunctionCallInput,
    options: CallOptions = {},
  ): AsyncGenerator<FunctionCallEvent, void, undefined> {
    const path = this.callPath(options.version);
    const url = this.url(path);
    const init = this.post(wireBody(input, true), prefixHash(input.system, input.tools));
    const scope = this.scope(path, options);
    let finished = false;
    try {
      const { response, attempts } = await this.send(url, init, scope);
      if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
        yield { call: await readJson<FunctionCallReply>(url, response) };
        finished = true;
        return;
      }
      if (!response.body) throw new RtoolProtocolError(url, "the event stream has no body");
      for await (const message of readSse(response.body)) {
        if (message.event === "head") {
          const head = parseJson<Partial<HeadEventData> & { head: string }>(url, message.data);
          yield {
            head: head.head,
            text: head.text === NULL_HEAD || head.text === undefined ? null : head.text,
            done: head.done ?? true,
          };
        } else if (message.event === "call") {
          yield { call: parseJson<FunctionCallReply>(url, message.data) };
          finished = true;
          return;
        } else if (message.event === "error") {
          const code = parseJson<{ code?: string }>(url, message.data).code ?? "internal";
          throw RtoolHttpError.fromBody(url, STREAM_ERROR_STATUS[code] ?? 500, message.data, attempts);
        }
      }
      throw new RtoolProtocolError(url, "the event stream ended before its call event");
    } catch (error) {
      throw scope.abortError() ?? error;
    } finally {
      // A consumer that stops early leaves the body unread; aborting closes the connection.
      if (!finished) scope.abort("aborted");
      scope.end();
    }
  }

  /** `POST /v1/chat/completions`: the OpenAI-compatible route (tool calls in `choices[0].message`). */
  async chatCompletions(request: ChatCompletionsInput, options: CallOptions = {}): Promise<ChatCompletion> {
    const system = request.messages
      .filter((m) => m.role === "system" || m.role === "developer")
      .map((m) => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => p.text).join("")))
      .join("\n");
    const init = this.post({ ...request, stream: false }, prefixHash(system || null, request.tools));
    return this.json<ChatCompletion>("/v1/chat/completions", init, options);
  }

  /** Aborts the live call for a latest-wins key (it rejects with reason "aborted"); true if there was one. */
  cancel(key: string): boolean {
    return this.latest.cancel(key);
  }

  /** Aborts every live keyed call. */
  cancelAll(): void {
    this.latest.cancelAll();
  }

  /** Latest-wins keys with a call in flight. */
  liveKeys(): string[] {
    return this.latest.keys();
  }

  private callPath(version: RouteVersion | undefined): string {
    return `/${version ?? this.options.version ?? "v2"}/function_call`;
  }

  private url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  private scope(path: string, options: CallOptions): RequestScope {
    return new RequestScope({
      url: this.url(path),
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? 10_000,
      signal: options.signal,
      key: options.key,
      latest: this.latest,
    });
  }

  private post(body: unknown, prefix: string): RequestInit {
    return {
      method: "POST",
      headers: { "content-type": "application/json", "x-rtool-prefix": prefix },
      body: JSON.stringify(body),
    };
  }

  private async json<T>(path: string, init: RequestInit, options: CallOptions): Promise<T> {
    const url = this.url(path);
    const scope = this.scope(path, options);
    try {
      const { response } = await this.send(url, init, scope);
      return await readJson<T>(url, response);
    } catch (error) {
      throw scope.abortError() ?? error;
    } finally {
      scope.end();
    }
  }

  /** Sends with retries; resolves with the first non-retryable success, throws typed errors. */
  private async send(
    url: string,
    init: RequestInit,
    scope: RequestScope,
  ): Promise<{ response: Response; attempts: number }> {
    const headers: Record<string, string> = {
      ...this.options.headers,
      ...(init.headers as Record<string, string>),
    };
    if (this.options.apiKey !== undefined) headers.authorization = `Bearer ${this.options.apiKey}`;
    for (let attempt = 0; ; attempt++) {
      const attempts = attempt + 1;
      const canRetry = attempt < this.retry.retries;
      let response: Response;
      try {
        response = await this.fetchImpl(url, { ...init, headers, signal: scope.signal });
      } catch (error) {
        const aborted = scope.abortError();
        if (aborted) throw aborted;
        if (!canRetry) throw new RtoolNetworkError(url, attempts, error);
        await this.pause(attempt, null, scope);
        continue;
      }
      if (response.ok) return { response, attempts };
      const body = await response.text().catch(() => "");
      if (!RETRY_STATUSES.has(response.status) || !canRetry) {
        throw RtoolHttpError.fromBody(url, response.status, body, attempts);
      }
      await this.pause(attempt, response.headers.get("retry-after"), scope);
    }
  }

  private async pause(attempt: number, retryAfter: string | null, scope: RequestScope): Promise<void> {
    try {
      await sleep(retryDelayMs(attempt, this.retry, retryAfter), scope.signal);
    } catch (error) {
      throw scope.abortError() ?? error;
    }
  }
}

function wireBody(input: FunctionCallInput, stream: boolean): Record<string, unknown> {
  const { query, messages, ...rest } = input;
  const body: Record<string, unknown> = { ...rest, stream };
  body.messages = messages ?? [{ role: "user", content: query }];
  return body;
}

async function readJson<T>(url: string, response: Response): Promise<T> {
  return parseJson<T>(url, await response.text());
}

function parseJson<T>(url: string, text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new RtoolProtocolError(url, `the reply is not JSON: ${text.slice(0, 120)}`, { cause: error });
  }
}
