/**
 * `GET /health`: always 200 while the process serves, so probes and reference clients can tell
 * "up" from "ready": `status` is "ok" unless the model failed to load, `loaded` is true once it
 * answers calls.
 */
import type { HealthReply } from "@rtool/contract";
import { Hono } from "hono";
import type { ServerDeps } from "../deps";
import { redactPaths } from "../http/redact-paths";

/**
 * The health route, to mount at `/health`.
 *
 * @example
 * ```ts
 * app.route("/health", createHealthRoute(deps));
 * // GET /health -> {"status":"ok","loaded":true,"model":"rt-tiny","version":"0.1.0","provider":"cpu",...}
 * ```
 */
export function createHealthRoute(deps: ServerDeps): Hono {
  return new Hono().get("/", (c) => {
    const { host, queue } = deps;
    const reply: HealthReply = {
      status: host.state === "failed" ? "error" : "ok",
      loaded: host.state === "ready",
      state: host.state,
      // Open without a key: the model's directory and the paths in a load error stay private.
      model: redactPaths(host.modelName),
      version: deps.version,
      provider: host.provider,
      format: deps.format,
      queue: { running: queue.running, waiting: queue.waiting },
      ...(host.error ? { error: redactPaths(host.error.message) } : {}),
    };
    return c.json(reply);
  });
}
