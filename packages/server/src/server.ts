/**
 * `createServer`: the app, its model, queue and metrics, and a listener under Bun (`Bun.serve`)
 * or Node (`@hono/node-server`), with a bounded graceful `close()`: stop accepting, let the calls
 * in flight finish until the shutdown deadline, answer the rest 503, release the model.
 */
import type { AddressInfo } from "node:net";
import { VERSION } from "@rtool/core";
import type { Hono } from "hono";
import { type AppOptions, createApp } from "./app";
import { CallQueue, DEFAULT_CONCURRENCY } from "./batching/call-queue";
import type { ServerDeps } from "./deps";
import { ApiError } from "./http/api-error";
import { DEFAULT_JSON_BODY_OPTIONS } from "./http/json-body";
import { createMetrics, type ServerMetrics } from "./metrics";
import { isLoopback, LOOPBACK_HOSTS } from "./middleware/allowed-hosts";
import { type LoadedModel, ModelHost, type PromptFormat } from "./model-host";

/** Options of {@link createServer}. */
export interface ServerOptions extends AppOptions {
  /** The model, or a promise of it: the server answers 503 on call routes until it resolves. */
  model: LoadedModel | Promise<LoadedModel>;
  /** Name shown by `/health`; default "model". */
  modelName?: string;
  /** Prompt format of `/v1/function_call` and `/v1/chat/completions`; default "v1". */
  format?: PromptFormat;
  /**
   * Interface to bind; default 127.0.0.1 (loopback only). Bound to loopback, the server answers
   * only to loopback `Host` names unless `allowedHosts` says otherwise.
   */
  hostname?: string;
  /** Longest `close()` waits for calls in flight before answering them 503; default 10 s. */
  shutdownTimeoutMs?: number;
  /** Port; default 8899; 0 picks a free one. */
  port?: number;
  /** Calls decoded at once (they share forward passes); default {@link DEFAULT_CONCURRENCY}. */
  concurrency?: number;
  /** Calls waiting beyond those before 429; default 64. */
  maxWaiting?: number;
  /** Largest request body in bytes; default 1 MiB. */
  maxBodyBytes?: number;
  /** Deepest JSON nesting accepted; default 64. */
  maxJsonDepth?: number;
  /**
   * Which listener `listen()` uses; default Bun's under Bun, else Node's. ("node" is for Node:
   * `@hono/node-server` replaces the global `Response`, which breaks `Bun.serve` in the same process.)
   */
  runtime?: "bun" | "node";
}

/** Where a listening server is. */
export interface ListeningAddress {
  hostname: string;
  port: number;
  /** `http://hostname:port` */
  url: string;
}

/** A created server. */
export interface RtoolServer {
  readonly app: Hono;
  readonly host: ModelHost;
  readonly queue: CallQueue;
  readonly metrics: ServerMetrics;
  /** Starts listening; resolves with the bound address. */
  listen(): Promise<ListeningAddress>;
  /**
   * Stops accepting connections, lets calls in flight finish for up to the shutdown timeout,
   * answers those still running 503, closes the connections and releases the model. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Creates an rtool server.
 *
 * @example
 * ```ts
 * import { createServer } from "@rtool/server";
 * const server = createServer({ model: loadCallers("models/rt-tiny"), modelName: "rt-tiny", port: 8899 });
 * const { url } = await server.listen(); // http://127.0.0.1:8899
 * process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
 * ```
 */
export function createServer(options: ServerOptions): RtoolServer {
  const metrics = createMetrics();
  const host = new ModelHost(options.modelName ?? "model", options.model);
  metrics.setCacheStatsSource(() => host.cacheStats());
  metrics.setBatchStatsSource(() => host.batchStats());
  const queue = new CallQueue({
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    maxWaiting: options.maxWaiting ?? 64,
    onChange: (running, waiting) => metrics.setQueue(running, waiting),
  });
  const deps: ServerDeps = {
    host,
    queue,
    metrics,
    limits: {
      maxBytes: options.maxBodyBytes ?? DEFAULT_JSON_BODY_OPTIONS.maxBytes,
      maxDepth: options.maxJsonDepth ?? DEFAULT_JSON_BODY_OPTIONS.maxDepth,
    },
    format: options.format ?? "v1",
    version: VERSION,
  };
  const hostname = options.hostname ?? "127.0.0.1";
  const shutdown = new AbortController();
  const app = createApp(deps, {
    ...options,
    allowedHosts: options.allowedHosts ?? (isLoopback(hostname) ? LOOPBACK_HOSTS : undefined),
    shutdownSignal: shutdown.signal,
  });
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;
  const runtime = options.runtime ?? (typeof Bun !== "undefined" ? "bun" : "node");
  const requestTimeoutS = Math.ceil((options.requestTimeoutMs ?? 30_000) / 1000);
  let stopListening: (() => Promise<void>) | null = null;
  /** Closes every connection, idle or not (the last step of a shutdown). */
  let dropConnections: () => void = () => {};
  let closing: Promise<void> | null = null;

  const listen = async (): Promise<ListeningAddress> => {
    if (stopListening) throw new Error("the server is already listening");
    if (closing) throw new Error("the server was closed");
    if (runtime === "bun") {
      const server = Bun.serve({
        fetch: app.fetch,
        hostname,
        port: options.port ?? 8899,
        // Bun closes idle sockets after 10 s by default; a queued call may legitimately wait longer.
        idleTimeout: Math.min(255, requestTimeoutS + 5),
      });
      stopListening = () => server.stop(false);
      dropConnections = () => void server.stop(true);
      return address(hostname, server.port!);
    }
    // Loaded only under Node: see `runtime`.
    const { serve: serveNode } = await import("@hono/node-server");
    return new Promise((resolve, reject) => {
      const server = serveNode(
        { fetch: app.fetch, hostname, port: options.port ?? 8899 },
        (info: AddressInfo) => resolve(address(hostname, info.port)),
      );
      server.once("error", reject);
      dropConnections = () => (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      stopListening = () =>
        new Promise<void>((done) => {
          server.close(() => done());
          // Keep-alive sockets with no request in flight would hold close() open.
          (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
        });
    });
  };

  const close = (): Promise<void> => {
    closing ??= (async () => {
      // Done when no call runs or waits and every HTTP request in flight has had its reply
      // (some may not have reached the queue yet).
      const stopped = stopListening?.() ?? Promise.resolve();
      const drained = Promise.all([queue.close(), stopped]);
      // The last tenth (at most 1 s) of the deadline is for the 503 replies to leave.
      const grace = Math.min(1000, shutdownTimeoutMs / 10);
      if (!(await settlesWithin(drained, shutdownTimeoutMs - grace))) {
        // Every call still running or waiting gets 503, and its work stops at its next step.
        shutdown.abort(
          new ApiError(503, "shutting_down", null, "the server is shutting down; the call was not finished"),
        );
        await settlesWithin(drained, grace);
      }
      dropConnections();
      await settlesWithin(stopped, 250);
      // A model still loading (or a pass that ignores the abort) must not hold the exit.
      await settlesWithin(host.dispose(), 500);
    })();
    return closing;
  };

  return { app, host, queue, metrics, listen, close };
}

/** Whether `promise` settled within `ms` (its outcome is not needed, only that it ended). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function address(hostname: string, port: number): ListeningAddress {
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  return { hostname, port, url: `http://${shown}:${port}` };
}
