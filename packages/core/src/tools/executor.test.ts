/**
 * The executor in this thread: every failure mode returns its typed result (never a throw), the
 * handler gets parsed arguments and a signal that fires on timeout, and the audit hook sees
 * every execution.
 */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { defineTool } from "./define-tool";
import type { ExecutionResult } from "./execution-result";
import { type AuditEntry, ToolExecutor } from "./executor";
import { ToolRegistry } from "./registry";

function setup(options: { timeoutMs?: number } = {}) {
  const seen: { signal?: AbortSignal } = {};
  const audit: AuditEntry[] = [];
  const registry = new ToolRegistry([
    defineTool({
      name: "move",
      parameters: z.object({ direction: z.enum(["up", "down"]), steps: z.number().int().default(1) }),
      handler: ({ direction, steps }, context) => `${direction} x${steps} (${context.tool})`,
    }),
    defineTool({
      name: "fail",
      parameters: { type: "object", properties: {} },
      handler: () => {
        throw new TypeError("bad state");
      },
    }),
    defineTool({
      name: "reject",
      parameters: { type: "object", properties: {} },
      handler: async () => Promise.reject("plain string"),
    }),
    defineTool({
      name: "wait",
      parameters: { type: "object", properties: { ms: { type: "number" } }, required: ["ms"] },
      handler: async ({ ms }, { signal }) => {
        seen.signal = signal;
        await Bun.sleep(ms);
        return "finished";
      },
    }),
  ]);
  const executor = new ToolExecutor(registry, {
    timeoutMs: options.timeoutMs ?? 1000,
    onAudit: (entry) => audit.push(entry),
  });
  return { executor, audit, seen };
}

function expectFailure(result: ExecutionResult, status: ExecutionResult["status"]) {
  expect(result.ok).toBe(false);
  expect(result.status).toBe(status);
  if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
}

describe("ToolExecutor (in-process)", () => {
  test("a valid call runs its handler with parsed arguments", async () => {
    const { executor } = setup();
    const result = await executor.execute({
      function: "move",
      args: { direction: "up" },
      valid: true,
      errors: [],
    });
    expect(result).toMatchObject({
      ok: true,
      status: "ok",
      value: "up x1 (move)",
      tool: "move",
      isolated: false,
    });
    expect(result.args).toEqual({ direction: "up", steps: 1 });
    expect(result.timings.totalMs).toBeGreaterThanOrEqual(result.timings.handlerMs);
  });

  test("unknown tool: a name not registered, or no function at all", async () => {
    const { executor } = setup();
    const unknown = await executor.execute({ function: "jump", args: {} });
    expectFailure(unknown, "unknown_tool");
    if (!unknown.ok) expect(unknown.message).toContain("move, fail, reject, wait");
    const none = await executor.execute({
      function: null,
      args: {},
      valid: false,
      errors: [{ path: "function", message: "no function was called" }],
    });
    expectFailure(none, "unknown_tool");
  });

  test("invalid arguments: refused by the schema, or already marked invalid by the decoder", async () => {
    const { executor } = setup();
    const bad = await executor.execute({ function: "move", args: { direction: "left" } });
    expectFailure(bad, "invalid_arguments");
    if (!bad.ok) expect(bad.issues?.[0].path).toBe("args.direction");
    const marked = await executor.execute({
      function: "move",
      args: {},
      valid: false,
      errors: [{ path: "args.direction", message: 'missing required parameter "direction"' }],
    });
    expectFailure(marked, "invalid_arguments");
    if (!marked.ok) expect(marked.message).toContain("args.direction");
  });

  test("handler error: a thrown Error keeps its name; a rejected non-Error is described", async () => {
    const { executor } = setup();
    const thrown = await executor.execute({ function: "fail", args: {} });
    expectFailure(thrown, "handler_error");
    if (!thrown.ok) expect(thrown.error).toMatchObject({ name: "TypeError", message: "bad state" });
    const rejected = await executor.execute({ function: "reject", args: {} });
    expectFailure(rejected, "handler_error");
    if (!rejected.ok) expect(rejected.error?.message).toBe("plain string");
  });

  test("timeout: the result comes at the deadline and the handler's signal fires", async () => {
    const { executor, seen } = setup({ timeoutMs: 40 });
    const result = await executor.execute({ function: "wait", args: { ms: 2000 } });
    expectFailure(result, "timeout");
    if (!result.ok) expect(result.timeoutMs).toBe(40);
    expect(seen.signal?.aborted).toBe(true);
    expect(result.timings.totalMs).toBeLessThan(1500);
  });

  test("aborted: the caller's signal ends the execution", async () => {
    const { executor, seen } = setup();
    const controller = new AbortController();
    const pending = executor.execute({ function: "wait", args: { ms: 2000 } }, { signal: controller.signal });
    await Bun.sleep(10);
    controller.abort();
    expectFailure(await pending, "aborted");
    expect(seen.signal?.aborted).toBe(true);
    // Already aborted: the handler is not started at all.
    seen.signal = undefined;
    const already = await executor.execute(
      { function: "wait", args: { ms: 1 } },
      { signal: AbortSignal.abort() },
    );
    expectFailure(already, "aborted");
    expect(seen.signal).toBeUndefined();
  });

  test("the audit hook sees every execution; a throwing hook changes nothing", async () => {
    const { executor, audit } = setup();
    await executor.execute({ function: "move", args: { direction: "down", steps: 2 } });
    await executor.execute({ function: "jump", args: {} });
    expect(audit.map((e) => [e.tool, e.result.status, e.source])).toEqual([
      ["move", "ok", "execute"],
      ["jump", "unknown_tool", "execute"],
    ]);
    expect(audit[0].args).toEqual({ direction: "down", steps: 2 });
    expect(audit[0].callId).toBe(audit[0].result.callId);
    const noisy = new ToolExecutor(new ToolRegistry(), {
      onAudit: () => {
        throw new Error("log down");
      },
    });
    expectFailure(await noisy.execute({ function: "x", args: {} }), "unknown_tool");
  });
});
