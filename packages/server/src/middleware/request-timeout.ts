/**
 * Bounds the time one request may take: past the limit the client gets 504, and the request's
 * abort signal fires so a call still waiting in the queue is dropped instead of run for nobody.
 * The same signal fires when the client disconnects, and when a shutdown's deadline passes
 * (`shutdown`, whose reason is the 503 the client gets).
 * For a streamed reply the middleware is done once the stream starts; the route itself then
 * watches the stream.
 */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../http/api-error";

/** Variables set by {@link requestTimeout}. */
export interface RequestSignalEnv {
  Variables: { signal: AbortSignal };
}

/**
 * Request-timeout middleware.
 *
 * @example
 * ```ts
 * app.use("/v1/*", requestTimeout(30_000));
 * app.post("/v1/x", (c) => queue.run(work, c.get("signal")));
 * ```
 */
export function requestTimeout(ms: number, shutdown?: AbortSignal): MiddlewareHandler<RequestSignalEnv> {
  return async (c, next) => {
    const timeout = new AbortController();
    const sources = [timeout.signal, c.req.raw.signal];
    if (shutdown) sources.push(shutdown);
    // AbortSignal.any adds no listener to its sources and they hold the combined signal weakly,
    // so a request leaves nothing on the server-wide shutdown signal once it is gone
    // (request-timeout.test.ts counts both). A hand-made `shutdown.addEventListener` here would
    // need removing when a streamed reply ends, long after this middleware returns.
    const signal = AbortSignal.any(sources);
    c.set("signal", signal);
    const timer = setTimeout(() => {
      timeout.abort(new ApiError(504, "timeout", null, `the request took longer than ${ms} ms`));
    }, ms);
    // The request ends the moment its signal fires (its reason is the reply: 504, 503, or the
    // client's abort, logged as 499); the work behind it stops at its next step.
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      await Promise.race([next(), aborted]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort!);
    }
  };
}
