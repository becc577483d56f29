/**
 * HTTP transport to an rtool-server through `@rtool/client`: `POST /v1|v2/function_call`, as one
 * JSON reply or as Server-Sent Events (a `head` event per finished head, then the `call`), so a game can act on
 * the function head before the arguments are decoded. Failures are split into "try again later"
 * ({@link ServerUnavailableError}: no connection, 5xx, 429) and "this request is wrong"
 * ({@link RequestRejectedError}: other 4xx), because only the first warrants back-off.
 */
import {
  type FunctionCallReply,
  type FunctionTool,
  RtoolClient as HttpClient,
  type Issue,
  type PromptFormat,
  RtoolAbortError,
  RtoolHttpError,
} from "@rtool/client";
import { type ApiErrorCode, NULL_HEAD, REQUEST_ERROR_CODES } from "@rtool/contract/calls";

/** Prompt format, i.e. which route: `/v1/function_call` or `/v2/function_call` (the call contract's). */
export type { PromptFormat };

/** What one call sends: a function-call request in the plugin's terms (camelCase, `format` picks the route). */
export interface TransportRequest {
  format: PromptFormat;
  query: string;
  tools: readonly FunctionTool[];
  environment?: readonly string[];
  history?: readonly string[];
  system?: string;
  maxTokens?: number;
}

/** One problem the server found with a call (the contract's issue). */
export type { Issue as ServerIssue };

/**
 * The server's reply as the plugin needs it: the contract's function-call reply, of which only
 * the fields below are required (a test transport or an in-page engine may leave out the rest).
 */
export type CallReply = Pick<FunctionCallReply, "success" | "function" | "args" | "heads" | "latency_ms"> &
  Partial<Pick<FunctionCallReply, "valid" | "errors" | "error" | "content" | "timings">>;

/** A head that finished decoding, streamed before the call is complete. */
export interface HeadUpdate {
  head: string;
  text: string;
  done: boolean;
}

/** Options of one {@link Transport.send}. */
export interface SendOptions {
  signal?: AbortSignal;
  /** Called for each streamed head (only when the transport streams). */
  onHead?: (head: HeadUpdate) => void;
}

/** Sends call requests; the plugin's only way to reach a server. */
export interface Transport {
  send(request: TransportRequest, options?: SendOptions): Promise<CallReply>;
}

/** The server cannot take the request now (no connection, 5xx, 429): back off and retry. */
export class ServerUnavailableError extends Error {
  /** HTTP status, or null when no response came. */
  readonly status: number | null;
  /** The server's `Retry-After`, in ms, when it sent one. */
  readonly retryAfterMs: number | null;
  constructor(message: string, status: number | null, retryAfterMs: number | null = null) {
    super(message);
    this.name = "ServerUnavailableError";
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The server refused this request (400, 401, 413, 422): retrying it unchanged will not help. */
export class RequestRejectedError extends Error {
  readonly status: number;
  /** The server's error code, e.g. `invalid_request`. */
  readonly code: string;
  /** The request field concerned, when the server named one. */
  readonly field: string | null;
  constructor(message: string, status: number, code: string, field: string | null) {
    super(message);
    this.name = "RequestRejectedError";
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** Options of {@link createHttpTransport}. */
export interface HttpTransportOptions {
  /** Base URL of the server, e.g. `http://127.0.0.1:8899` (a path prefix is kept). */
  serverUrl: string;
  /** Sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** Ask for Server-Sent Events to get heads as they finish; default false. */
  stream?: boolean;
  /** The fetch to use; default the global one. */
  fetch?: typeof fetch;
}

/**
 * Creates the HTTP transport over `@rtool/client` (which also sends the `X-Rtool-Prefix`
 * routing header). Its own retries and deadline are off: the plugin's client decides when to
 * retry (back-off shared by all agents) and when a reply is too late.
 *
 * @example
 * const transport = createHttpTransport({ serverUrl: "http://127.0.0.1:8899", stream: true });
 * const reply = await transport.send(
 *   { format: "v2", query: "Move the paddle.", tools, environment: ["ball=400,120"] },
 *   { onHead: (h) => console.log(h.head, h.text) },
 * );
 */
export function createHttpTransport(options: HttpTransportOptions): Transport {
  const doFetch = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const http = new HttpClient({
    baseUrl: options.serverUrl.replace(/\/+$/, ""),
    apiKey: options.apiKey,
    timeoutMs: 0,
    retry: false,
    fetch: (url, init) => doFetch(url, init),
  });
  const stream = options.stream ?? false;

  return {
    async send(request: TransportRequest, sendOptions: SendOptions = {}): Promise<CallReply> {
      const input = {
        query: request.query,
        tools: request.tools,
        ...(request.environment ? { environment: request.environment } : {}),
        ...(request.history ? { history: request.history } : {}),
        ...(request.system !== undefined ? { system: request.system } : {}),
        ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
      };
      const callOptions = { version: request.format, signal: sendOptions.signal };
      try {
        if (!stream) return await http.functionCall(input, callOptions);
        for await (const event of http.streamFunctionCall(input, callOptions)) {
          if ("call" in event) return event.call;
          sendOptions.onHead?.({ head: event.head, text: event.text ?? NULL_HEAD, done: event.done });
        }
        throw new ServerUnavailableError("the event stream ended before the call", null);
      } catch (error) {
        throw classify(error, sendOptions.signal);
      }
    },
  };
}

/** Maps `@rtool/client`'s errors onto the two kinds the plugin acts on (and aborts onto AbortError). */
function classify(error: unknown, signal: AbortSignal | undefined): Error {
  if (error instanceof ServerUnavailableError || error instanceof RequestRejectedError) return error;
  if (error instanceof RtoolAbortError || signal?.aborted) {
    return Object.assign(new Error("the request was aborted"), { name: "AbortError" });
  }
  if (error instanceof RtoolHttpError) {
    if (error.status === 429 || error.status >= 500 || !REQUEST_ERROR_CODES.has(error.code as ApiErrorCode)) {
      return new ServerUnavailableError(`server answered ${error.status}: ${error.message}`, error.status);
    }
    return new RequestRejectedError(
      `server refused the request (${error.status} ${error.code}): ${error.message}`,
      error.status,
      error.code,
      error.field,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ServerUnavailableError(`cannot reach the server: ${message}`, null);
}
