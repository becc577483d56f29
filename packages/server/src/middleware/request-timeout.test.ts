/**
 * A request leaves nothing behind on the server-wide shutdown signal: no abort listener added to
 * it outlives the request (plain and streamed replies, success, error and timeout alike), and
 * the per-request signals built from it are collectable once the request ends. Without this,
 * every request would grow the shutdown signal's listener list for the server's lifetime.
 */

import { heapStats } from "bun:jsc";
import { describe, expect, test } from "bun:test";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { createServer } from "../server";
import { postJson } from "../testing/http";
import { sampleBody } from "../testing/sample-tools";
import { scriptedModel } from "../testing/scripted-caller";
import { type RequestSignalEnv, requestTimeout } from "./request-timeout";

/** A shutdown signal that counts the abort listeners attached to it and not yet removed. */
function countedShutdown() {
  const controller = new AbortController();
  const signal = controller.signal;
  const live = new Set<unknown>();
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((type: string, listener: EventListener, options?: AddEventListenerOptions) => {
    if (type === "abort") live.add(listener);
    add(type, listener, options);
  }) as typeof signal.addEventListener;
  signal.removeEventListener = ((type: string, listener: EventListener, options?: EventListenerOptions) => {
    if (type === "abort") live.delete(listener);
    remove(type, listener, options);
  }) as typeof signal.removeEventListener;
  return { signal, live };
}

function abortSignals(): number {
  Bun.gc(true);
  return heapStats().objectTypeCounts.AbortSignal ?? 0;
}

describe("requestTimeout and the shutdown signal", () => {
  test("no abort listener stays on the shutdown signal after plain, failed, timed-out and streamed requests", async () => {
    const shutdown = countedShutdown();
    const app = new Hono<RequestSignalEnv>();
    app.use("*", requestTimeout(20, shutdown.signal));
    app.post("/ok", (c) => c.json({ aborted: c.get("signal").aborted }));
    app.post("/fails", () => {
      throw new Error("boom");
    });
    app.post("/slow", async (c) => {
      await Bun.sleep(100);
      return c.json({});
    });
    app.post("/stream", (c) =>
      streamSSE(c, async (stream) => {
        await stream.writeSSE({ data: String(c.get("signal").aborted) });
      }),
    );
    app.onError((error, c) => c.json({ error: String(error) }, 500));
    for (let i = 0; i < 25; i++) {
      for (const path of ["/ok", "/fails", "/slow", "/stream"]) {
        const reply = await app.request(path, { method: "POST" });
        await reply.text();
      }
    }
    expect(shutdown.live.size).toBe(0);
  });

  test("a shutdown still aborts a request in flight", async () => {
    const shutdown = new AbortController();
    const app = new Hono<RequestSignalEnv>();
    app.use("*", requestTimeout(10_000, shutdown.signal));
    app.post("/wait", (c) => new Promise<Response>(() => void c));
    app.onError((error, c) => c.json({ error: String(error) }, 503));
    const pending = app.request("/wait", { method: "POST" });
    await Bun.sleep(5);
    shutdown.abort(new Error("shutting down"));
    const reply = await pending;
    expect(reply.status).toBe(503);
    expect(await reply.text()).toContain("shutting down");
  });

  test("500 sequential calls through a real server leave no request signal alive", async () => {
    const server = createServer({ model: scriptedModel(), port: 0, onInfo: () => {} });
    const { url } = await server.listen();
    try {
      // warm up: the first requests create long-lived objects (routes, the model, pools)
      for (let i = 0; i < 20; i++) await (await postJson(`${url}/v1/function_call`, sampleBody())).text();
      const before = abortSignals();
      for (let i = 0; i < 500; i++) {
        const reply = await postJson(`${url}/v1/function_call`, sampleBody());
        expect(reply.status).toBe(200);
        await reply.text();
      }
      // Each request makes several signals (Bun's, the timeout's, the combined one); a leak of
      // any of them would add at least 500.
      expect(abortSignals() - before).toBeLessThan(100);
    } finally {
      await server.close();
    }
  });
});
