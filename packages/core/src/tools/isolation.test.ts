/**
 * Handler isolation: handlers run in worker threads; one that throws, hangs, calls
 * `process.exit` or throws outside its promise yields a typed result, and the executor (and
 * this process) carries on with a fresh worker.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { ExecutionResult } from "./execution-result";
import { ToolExecutor } from "./executor";
import { registry } from "./testing/isolated-tools";

const executor = new ToolExecutor(registry, {
  timeoutMs: 3000,
  isolation: { module: new URL("./testing/isolated-tools.ts", import.meta.url), workers: 2 },
});

// Starting a worker thread and importing the module can take seconds on a loaded machine.
setDefaultTimeout(60_000);
beforeAll(() => executor.warmUp());
afterAll(() => executor.close());

const echo = () => executor.execute({ function: "echo", args: { text: "ab", times: 2 } });

function expectStatus(result: ExecutionResult, status: ExecutionResult["status"]) {
  expect(result.status).toBe(status);
  expect(result.isolated).toBe(true);
}

describe("worker isolation", () => {
  test("a handler runs in a worker with parsed arguments", async () => {
    const result = await echo();
    expectStatus(result, "ok");
    if (result.ok) expect(result.value).toEqual({ text: "abab", thread: "worker" });
  });

  test("a throwing handler: handler_error with its name, and the worker keeps serving", async () => {
    const result = await executor.execute({ function: "throws", args: {} });
    expectStatus(result, "handler_error");
    if (!result.ok) expect(result.error).toMatchObject({ name: "RangeError", message: "the handler failed" });
    expectStatus(await echo(), "ok");
  });

  test("a hanging handler: timeout, its worker is terminated, the next call gets a fresh one", async () => {
    const result = await executor.execute({ function: "hangs", args: {} }, { timeoutMs: 200 });
    expectStatus(result, "timeout");
    expectStatus(await echo(), "ok");
  });

  test("process.exit in a handler ends only its worker: worker_exit with the code", async () => {
    const result = await executor.execute({ function: "exits", args: {} });
    expectStatus(result, "worker_exit");
    if (!result.ok) expect(result.exitCode).toBe(3);
    expectStatus(await echo(), "ok");
  });

  test("an error thrown outside the handler's promise, and an unclonable result, are handler errors", async () => {
    const later = await executor.execute({ function: "throws_later", args: {} });
    expectStatus(later, "handler_error");
    if (!later.ok) expect(later.message).toContain("outside the handler's promise");
    const unclonable = await executor.execute({ function: "unclonable", args: {} });
    expectStatus(unclonable, "handler_error");
    expectStatus(await echo(), "ok");
  });

  test("calls beyond the workers queue; abort while running stops the handler", async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => executor.execute({ function: "slow", args: { ms: 60 } })),
    );
    expect(results.map((r) => r.status)).toEqual(["ok", "ok", "ok"]);
    expect(Math.max(...results.map((r) => r.timings.queuedMs))).toBeGreaterThan(20);
    const controller = new AbortController();
    const pending = executor.execute({ function: "slow", args: { ms: 5000 } }, { signal: controller.signal });
    await Bun.sleep(50);
    controller.abort();
    expectStatus(await pending, "aborted");
    expectStatus(await echo(), "ok");
  });

  test("a tool the registry knows but the module does not export is a handler error", async () => {
    const { defineTool } = await import("./define-tool");
    const { ToolRegistry } = await import("./registry");
    const extra = new ToolRegistry([
      ...registry.list(),
      defineTool({ name: "ghost", parameters: { type: "object", properties: {} }, handler: () => 1 }),
    ]);
    const ghostly = new ToolExecutor(extra, {
      isolation: { module: new URL("./testing/isolated-tools.ts", import.meta.url) },
    });
    try {
      const result = await ghostly.execute({ function: "ghost", args: {} });
      expectStatus(result, "handler_error");
      if (!result.ok) expect(result.message).toContain('exports no tool "ghost"');
    } finally {
      await ghostly.close();
    }
  });
});
