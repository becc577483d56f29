/**
 * Optional bearer key: when a key is set, every route but the open ones needs
 * `Authorization: Bearer KEY` (401 otherwise). Keys are compared in constant time.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../http/api-error";

/** Options of {@link apiKey}. */
export interface ApiKeyOptions {
  key: string;
  /** Paths served without a key; default `["/health"]`. */
  openPaths?: readonly string[];
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Bearer-key middleware.
 *
 * @example
 * ```ts
 * app.use("*", apiKey({ key: process.env.RTOOL_API_KEY! }));
 * // curl -H "Authorization: Bearer $RTOOL_API_KEY" http://127.0.0.1:8899/v1/function_call ...
 * ```
 */
export function apiKey(options: ApiKeyOptions): MiddlewareHandler {
  if (options.key.length === 0) throw new RangeError("apiKey: the key must not be empty");
  const expected = digest(options.key);
  const open = new Set(options.openPaths ?? ["/health"]);
  return async (c, next) => {
    if (open.has(c.req.path) || c.req.method === "OPTIONS") return next();
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    // Hashing first makes both sides the same length, so the comparison leaks nothing about the key.
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
      c.header("WWW-Authenticate", 'Bearer realm="rtool"');
      throw new ApiError(
        401,
        "unauthorized",
        "authorization",
        match ? "the API key is wrong" : "an `Authorization: Bearer KEY` header is required",
      );
    }
    return next();
  };
}
