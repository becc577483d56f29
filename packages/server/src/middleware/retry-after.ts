/**
 * `Retry-After` on every 429 and 503, so well-behaved clients back off for about as long as the
 * queue ahead of them needs instead of retrying at once (which is what kept 128 clients
 * hammering a full server).
 */
import type { MiddlewareHandler } from "hono";

/**
 * Middleware that adds `Retry-After` (whole seconds, from `seconds()`) to 429 and 503 replies
 * that carry none.
 *
 * @example
 * ```ts
 * app.use("*", retryAfter(() => queue.retryAfterSeconds()));
 * ```
 */
export function retryAfter(seconds: () => number): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const status = c.res.status;
    if ((status === 429 || status === 503) && !c.res.headers.has("retry-after")) {
      c.res.headers.set("Retry-After", String(Math.max(1, Math.ceil(seconds()))));
    }
  };
}
