/**
 * @rtool/client: a small typed client for rtool-server (no dependencies beyond `fetch`):
 * `/health`, `/v1|v2/function_call` as JSON or Server-Sent Events, `/v1/chat/completions`,
 * with the API key, deadlines, retries on 429/503, latest-wins cancellation and the
 * `X-Rtool-Prefix` routing header.
 *
 * @example
 * ```ts
 * import { isSuperseded, RtoolClient } from "@rtool/client";
 * const rtool = new RtoolClient({ baseUrl: "http://127.0.0.1:8899" });
 * await rtool.waitUntilReady({ timeoutMs: 60_000 });
 * try {
 *   const reply = await rtool.functionCall({ query: "move up", tools }, { key: "ship-1" });
 *   if (reply.valid) ship[reply.function!](reply.args);
 * } catch (error) {
 *   if (!isSuperseded(error)) throw error; // a newer call for ship-1 replaced this one
 * }
 * ```
 * @packageDocumentation
 */
export {
  type CallOptions,
  type FetchFunction,
  type RequestOptions,
  RtoolClient,
  type RtoolClientOptions,
  type WaitOptions,
} from "./client";
export {
  type AbortReason,
  isSuperseded,
  RtoolAbortError,
  RtoolClientError,
  RtoolHttpError,
  RtoolNetworkError,
  RtoolProtocolError,
  RtoolTimeoutError,
} from "./errors";
export { fnv1a64, prefixHash } from "./prefix-hash";
export { parseRetryAfter, RETRY_STATUSES, type RetryOptions, retryDelayMs, retryPolicy } from "./retry";
export { readSse, type SseMessage } from "./sse";
// The wire types, inferred from the call contract's schemas.
export type * from "./types";
