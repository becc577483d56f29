/**
 * Bounds the time one request may take: past the limit the client gets 504, and the request's
 * abort signal fires so a call still waiting in the queue is dropped instead of run for nobody.
 * The same signal fires when the client disconnects.
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
export function requestTimeout(ms: number): MiddlewareHandler<RequestSignalEnv> {
  return async (c, next) => {
    const controller = new AbortController();
    const disconnected = c.req.raw.signal;
    c.set("signal", AbortSignal.any([controller.signal, disconnected]));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new ApiError(504, "timeout", null, `the request took longer than ${ms} ms`);
        controller.abort(error);
        reject(error);
      }, ms);
    });
    try {
      await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}
