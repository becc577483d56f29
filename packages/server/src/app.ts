/**
 * The Hono app: middleware (metrics, CORS, API key, timeout) around the routes, and one error
 * handler that turns every failure into a JSON error naming the field.
 */
import { Hono } from "hono";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isAbortError, RequestAbortedError } from "./cancel/abort-scope";
import type { ServerDeps } from "./deps";
import { ApiError } from "./http/api-error";
import { allowedHosts } from "./middleware/allowed-hosts";
import { apiKey } from "./middleware/api-key";
import { requestTimeout } from "./middleware/request-timeout";
import { retryAfter } from "./middleware/retry-after";
import { createChatCompletionsRoute } from "./routes/chat-completions";
import { createCompletionsRoute } from "./routes/completions";
import { createFunctionCallRoute } from "./routes/function-call";
import { createHealthRoute } from "./routes/health";
import { createMetricsRoute } from "./routes/metrics";
import { createModelsRoute } from "./routes/models";
import { createOpenApiRoutes } from "./routes/openapi";

/** HTTP options of {@link createApp}. */
export interface AppOptions {
  /** Bearer key required on every route but `/health`; none by default. */
  apiKey?: string;
  /** Origins allowed by CORS; CORS is off (same-origin only) by default. `"*"` never comes with credentials. */
  corsOrigins?: readonly string[];
  /** Longest a call request may take, queue wait included; default 30 s. */
  requestTimeoutMs?: number;
  /** Sent as `X-Rtool-Backend` on every response, so a load balancer's client can tell which backend answered. */
  backendName?: string;
  /**
   * Host names (`Host` header, port ignored) the server answers to; others get 421. `"*"` or
   * undefined: any. `createServer` defaults to the loopback names when bound to loopback.
   */
  allowedHosts?: readonly string[];
  /** Errors that become 500s are reported here; default `console.error`. */
  onInternalError?: (error: unknown) => void;
  /** Routine events (a client that left before its reply); default `console.info`. */
  onInfo?: (message: string) => void;
  /** Aborts every call in flight (its reason, a 503, is their reply): a shutdown's deadline. */
  shutdownSignal?: AbortSignal;
}

/** Routes and the methods they answer (HEAD comes with GET), for 405 replies. */
export const ROUTE_METHODS: Readonly<Record<string, readonly string[]>> = {
  "/health": ["GET", "HEAD"],
  "/v1/function_call": ["POST"],
  "/v2/function_call": ["POST"],
  "/v1/chat/completions": ["POST"],
  "/v1/completions": ["POST"],
  "/v1/models": ["GET", "HEAD"],
  "/openapi.json": ["GET", "HEAD"],
  "/docs": ["GET", "HEAD"],
  "/metrics": ["GET", "HEAD"],
};

/** Routes, for the metrics label (raw URLs would make unbounded label sets). */
export const ROUTES = Object.keys(ROUTE_METHODS);

/** Status logged and counted for a client that closed its connection before the reply (nginx's 499). */
export const CLIENT_CLOSED = 499;

const CALL_ROUTES = ["/v1/function_call", "/v2/function_call", "/v1/chat/completions", "/v1/completions"];

/**
 * Builds the app over shared {@link ServerDeps}.
 *
 * @example
 * ```ts
 * const app = createApp(deps, { apiKey: "secret", corsOrigins: ["http://localhost:5173"] });
 * Bun.serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 8899 });
 * ```
 */
export function createApp(deps: ServerDeps, options: AppOptions = {}): Hono {
  const app = new Hono();
  const known = new Set<string>(ROUTES);
  const onInternalError = options.onInternalError ?? ((error) => console.error("rtool-server:", error));
  const onInfo = options.onInfo ?? ((message) => console.info(`rtool-server: ${message}`));

  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    const route = known.has(c.req.path) ? c.req.path : "unmatched";
    deps.metrics.observeRequest(route, c.req.method, c.res.status, (performance.now() - started) / 1000);
  });
  // nosniff and friends; HSTS means nothing to a plain-HTTP server on loopback.
  app.use("*", secureHeaders({ strictTransportSecurity: false }));
  app.use(
    "*",
    retryAfter(() => deps.queue.retryAfterSeconds()),
  );
  const backendName = options.backendName;
  if (backendName !== undefined) {
    app.use("*", async (c, next) => {
      c.header("X-Rtool-Backend", backendName);
      await next();
    });
  }
  if (options.allowedHosts) app.use("*", allowedHosts(options.allowedHosts));
  if (options.corsOrigins && options.corsOrigins.length > 0) {
    const origins = [...options.corsOrigins];
    app.use(
      "*",
      cors({
        origin: origins.includes("*") ? "*" : origins,
        allowMethods: ["GET", "POST", "OPTIONS"],
        allowHeaders: ["Content-Type", "Authorization"],
        credentials: false,
        maxAge: 600,
      }),
    );
  }
  if (options.apiKey !== undefined) app.use("*", apiKey({ key: options.apiKey }));
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  for (const path of CALL_ROUTES) app.use(path, requestTimeout(timeoutMs, options.shutdownSignal));

  app.route("/health", createHealthRoute(deps));
  app.route("/v1/function_call", createFunctionCallRoute(deps, deps.format));
  app.route("/v2/function_call", createFunctionCallRoute(deps, "v2"));
  app.route("/v1/chat/completions", createChatCompletionsRoute(deps));
  app.route("/v1/completions", createCompletionsRoute(deps));
  app.route("/v1/models", createModelsRoute(deps));
  app.route("/metrics", createMetricsRoute(deps));
  app.route("/", createOpenApiRoutes(deps));

  app.notFound((c) => {
    const methods = ROUTE_METHODS[c.req.path];
    if (methods) {
      c.header("Allow", methods.join(", "));
      const error = new ApiError(
        405,
        "method_not_allowed",
        "method",
        `${c.req.path} answers ${methods.join(", ")}, not ${c.req.method}`,
      );
      return c.json(error.toJSON(), 405);
    }
    const error = new ApiError(404, "not_found", "path", `no route ${c.req.method} ${c.req.path}`);
    return c.json(error.toJSON(), 404);
  });
  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(error.toJSON(), error.status);
    // Work stopped because its request aborted: the timeout's own 504, or a client that left.
    if (error instanceof RequestAbortedError && error.reason instanceof ApiError) {
      return c.json(error.reason.toJSON(), error.reason.status);
    }
    if (isAbortError(error) || c.req.raw.signal.aborted) {
      onInfo(`${c.req.method} ${c.req.path}: the client closed the connection before the reply`);
      const closed = new ApiError(
        CLIENT_CLOSED as ContentfulStatusCode,
        "client_closed",
        null,
        "the client closed the connection",
      );
      return c.json(closed.toJSON(), CLIENT_CLOSED as ContentfulStatusCode);
    }
    if (error instanceof HTTPException) {
      const status = error.status as ContentfulStatusCode;
      return c.json(new ApiError(status, "invalid_request", null, error.message).toJSON(), status);
    }
    onInternalError(error);
    return c.json(new ApiError(500, "internal", null, "internal error; see the server log").toJSON(), 500);
  });
  return app;
}
