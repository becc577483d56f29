/** `GET /metrics`: the server's Prometheus metrics in the text exposition format. */
import { Hono } from "hono";
import type { ServerDeps } from "../deps";

/**
 * The metrics route, to mount at `/metrics`.
 *
 * @example
 * ```ts
 * app.route("/metrics", createMetricsRoute(deps));
 * // GET /metrics -> rtool_http_requests_total{route="/v1/function_call",method="POST",status="200"} 3 ...
 * ```
 */
export function createMetricsRoute(deps: ServerDeps): Hono {
  return new Hono().get("/", async (c) => {
    const { registry } = deps.metrics;
    return c.body(await registry.metrics(), 200, { "Content-Type": registry.contentType });
  });
}
