/**
 * HTTP transport to an rtool-server: `POST /v1|v2/function_call`, as one JSON reply or as
 * Server-Sent Events (a `head` event per finished head, then the `call`), so a game can act on
 * the function head before the arguments are decoded. Failures are split into "try again later"
 * ({@link ServerUnavailableError}: no connection, 5xx, 429) and "this request is wrong"
 * ({@link RequestRejectedError}: other 4xx), because only the first warrants back-off.
 */
import { SseParser } from "./sse-parser";
import type { FunctionTool } from "./tool-schema";

/** Prompt format, i.e. which route: `/v1/function_call` or `/v2/function_call`. */
export type PromptFormat = "v1" | "v2";

/** What one call sends. */
export interface CallRequest {
  format: PromptFormat;
  query: string;
  tools: readonly FunctionTool[];
  environment?: readonly string[];
  history?: readonly string[];
  system?: string;
  maxTokens?: number;
}

/** One problem the server found with a call. */
export interface ServerIssue {
  path: string;
  message: string;
}

/** The server's reply (the fields the plugin uses; the server may send more). */
export interface CallReply {
  success: boolean;
  function: string | null;
  args: Record<string, unknown>;
  heads: Record<string, string>;
  latency_ms: number;
  valid?: boolean;
  errors?: ServerIssue[];
  error?: string | null;
  content?: string | null;
}

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
  send(request: CallRequest, options?: SendOptions): Promise<CallReply>;
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

interface ErrorBody {
  error?: string;
  code?: string;
  field?: string | null;
}

/**
 * Creates the HTTP transport.
 *
 * @example
 * const transport = createHttpTransport({ serverUrl: "http://127.0.0.1:8899", stream: true });
 * const reply = await transport.send(
 *   { format: "v2", query: "Move the paddle.", tools, environment: ["ball=400,120"] },
 *   { onHead: (h) => console.log(h.head, h.text) },
 * );
 */
export function createHttpTransport(options: HttpTransportOptions): Transport {
  const base = options.serverUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const stream = options.stream ?? false;

  return {
    async send(request: CallRequest, sendOptions: SendOptions = {}): Promise<CallReply> {
      const body: Record<string, unknown> = {
        messages: [{ role: "user", content: request.query }],
        tools: request.tools,
        stream,
      };
      if (request.environment) body.environment = request.environment;
      if (request.history) body.history = request.history;
      if (request.system !== undefined) body.system = request.system;
      if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (stream) headers.Accept = "text/event-stream";
      if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
      let response: Response;
      try {
        response = await doFetch(`${base}/${request.format}/function_call`, {
          method: "POST",
          headers,
          body: JSON.stringify(body),
          signal: sendOptions.signal,
        });
      } catch (error) {
        if (isAbort(error)) throw error;
        throw new ServerUnavailableError(`cannot reach ${base}: ${describe(error)}`, null);
      }
      if (!response.ok) throw await errorFrom(response);
      const type = response.headers.get("content-type") ?? "";
      if (type.includes("text/event-stream")) return readStream(response, sendOptions);
      return (await response.json()) as CallReply;
    },
  };
}

async function readStream(response: Response, options: SendOptions): Promise<CallReply> {
  if (!response.body) throw new ServerUnavailableError("the event stream has no body", response.status);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const event of parser.push(decoder.decode(value, { stream: true }))) {
        if (event.event === "head") options.onHead?.(JSON.parse(event.data) as HeadUpdate);
        else if (event.event === "call") return JSON.parse(event.data) as CallReply;
        else if (event.event === "error")
          throw errorFromStream(JSON.parse(event.data) as ErrorBody, response.status);
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  throw new ServerUnavailableError("the event stream ended before the call", response.status);
}

async function errorFrom(response: Response): Promise<Error> {
  let body: ErrorBody = {};
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    // A proxy's HTML error page: keep the status only.
  }
  const status = response.status;
  if (status === 429 || status >= 500) {
    const retryAfter = Number(response.headers.get("retry-after"));
    return new ServerUnavailableError(
      `server answered ${status}${body.error ? `: ${body.error}` : ""}`,
      status,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
    );
  }
  return errorFromBody(body, status);
}

/** Error codes rtool-server gives a request that is itself wrong; every other code means "later". */
const REQUEST_ERROR_CODES: ReadonlySet<string> = new Set([
  "invalid_json",
  "invalid_request",
  "body_too_large",
  "unsupported_tools",
  "unauthorized",
  "not_found",
]);

/** An `error` event inside a 200 event stream: only the code tells the two kinds apart. */
function errorFromStream(body: ErrorBody, status: number): Error {
  const code = body.code ?? "internal";
  if (!REQUEST_ERROR_CODES.has(code)) {
    return new ServerUnavailableError(`server error ${code}: ${body.error ?? ""}`.trim(), status);
  }
  return errorFromBody(body, status);
}

function errorFromBody(body: ErrorBody, status: number): Error {
  const code = body.code ?? "http_error";
  return new RequestRejectedError(
    `server refused the request (${status} ${code})${body.error ? `: ${body.error}` : ""}`,
    status,
    code,
    body.field ?? null,
  );
}

function isAbort(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: string }).name === "AbortError";
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
