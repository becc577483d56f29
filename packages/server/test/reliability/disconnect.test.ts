/**
 * Abandoned work stops: a client that disconnects (a real `fetch` aborted by its
 * AbortController) or times out frees its queue slot at once and its decoding at the next pass,
 * is logged at info as 499 (never a 500), and leaves the server free for fresh calls.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { LoadedCallers } from "../../src/load-callers";
import type { RtoolServer } from "../../src/server";
import { postJson } from "../../src/testing/http";
import { fixtureBody, sampleBody } from "../../src/testing/sample-tools";
import { scriptedModel } from "../../src/testing/scripted-caller";
import { listen, longCompletion, slowFixture, until } from "./harness";

setDefaultTimeout(60_000);

const PASS_MS = 20; // a 400-token completion takes > 8 s
let loaded: LoadedCallers;
let server: RtoolServer;
let base: string;
const internal: unknown[] = [];

beforeAll(async () => {
  loaded = await slowFixture(PASS_MS);
  ({ server, base } = await listen({
    model: loaded,
    concurrency: 16,
    requestTimeoutMs: 1500,
    onInternalError: (e) => internal.push(e),
  }));
});
afterAll(() => server.close());

/**
 * Starts `n` requests and aborts them (a real disconnect) once all of them are running (and,
 * with `passes`, once the model has run a few passes for them).
 */
async function abandon(
  target: { server: RtoolServer; base: string },
  n: number,
  path: string,
  body: unknown,
  passes?: () => number,
): Promise<void> {
  const { server, base } = target;
  const controllers = Array.from({ length: n }, () => new AbortController());
  const replies = controllers.map((controller) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: controller.signal,
    }).catch(() => null),
  );
  expect(await until(() => server.queue.running === n)).toBe(true);
  if (passes) {
    const before = passes();
    expect(await until(() => passes() > before + 2)).toBe(true);
  }
  for (const controller of controllers) controller.abort();
  await Promise.all(replies);
}

describe("disconnects", () => {
  test("16 abandoned long completions stop decoding; a fresh function call answers in < 3 s", async () => {
    await abandon(
      { server, base },
      16,
      "/v1/completions",
      longCompletion(400),
      () => loaded.batchStats().passes,
    );
    // The slots come back at once, the passes stop within one pass.
    expect(await until(() => server.queue.running === 0, 1000)).toBe(true);
    await Bun.sleep(4 * PASS_MS);
    const settled = loaded.batchStats().passes;
    await Bun.sleep(10 * PASS_MS);
    expect(loaded.batchStats().passes).toBe(settled);
    expect(loaded.batchStats().abortedSteps).toBeGreaterThan(0);

    const started = performance.now();
    const reply = await postJson(`${base}/v1/function_call`, fixtureBody());
    expect(reply.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  test("abandoned function calls (JSON and SSE) free their slots and are 499 at info level, never 500", async () => {
    // Calls that never finish by themselves: only the disconnect can end them.
    const logged: string[] = [];
    const held = await listen({
      model: scriptedModel({ gate: new Promise(() => {}) }),
      onInfo: (m) => logged.push(m),
      onInternalError: (e) => internal.push(e),
    });
    try {
      await abandon(held, 4, "/v1/function_call", sampleBody());
      expect(await until(() => held.server.queue.running === 0, 1000)).toBe(true);
      await abandon(held, 4, "/v1/function_call", { ...sampleBody(), stream: true });
      expect(await until(() => held.server.queue.running === 0, 1000)).toBe(true);
      await abandon(held, 4, "/v1/chat/completions", sampleBody());
      expect(await until(() => held.server.queue.running === 0, 1000)).toBe(true);
      expect(await until(() => logged.length >= 8, 2000)).toBe(true);
      expect(logged.every((m) => m.includes("closed the connection"))).toBe(true);
      expect(internal).toEqual([]);
      const metrics = await (await fetch(`${held.base}/metrics`)).text();
      expect(metrics).not.toMatch(/status="500"/);
      expect(metrics).toMatch(/route="\/v1\/function_call",method="POST",status="499"/);
    } finally {
      await held.server.close();
    }
  });

  test("a timed-out request (504) leaves /health's running count at once", async () => {
    const reply = await postJson(`${base}/v1/completions`, longCompletion(400));
    expect(reply.status).toBe(504);
    expect(reply.headers.get("retry-after")).toBeNull();
    const health = (await (await fetch(`${base}/health`)).json()) as { queue: { running: number } };
    expect(health.queue.running).toBe(0);
    const settled = loaded.batchStats().passes;
    await Bun.sleep(10 * PASS_MS);
    expect(loaded.batchStats().passes - settled).toBeLessThanOrEqual(1);
  });
});
