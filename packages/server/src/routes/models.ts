/**
 * `GET /v1/models`: the OpenAI model list, with the one model this server serves, for clients
 * that list models before they call.
 */
import { Hono } from "hono";
import type { ServerDeps } from "../deps";

/**
 * The models route, to mount at `/v1/models`.
 *
 * @example
 * ```ts
 * app.route("/v1/models", createModelsRoute(deps));
 * // GET /v1/models -> {"object":"list","data":[{"id":"rt-tiny","object":"model","created":0,"owned_by":"rtool"}]}
 * ```
 */
export function createModelsRoute(deps: ServerDeps): Hono {
  const created = Math.floor(Date.now() / 1000);
  return new Hono().get("/", (c) =>
    c.json({
      object: "list",
      data: [{ id: deps.host.modelName, object: "model", created, owned_by: "rtool" }],
    }),
  );
}
