/**
 * Overload and shutdown: every 429 and 503 carries Retry-After; a shutdown with calls that
 * never finish by themselves ends within its deadline, answering them 503; the CLI exits within
 * `--shutdown-timeout` on SIGTERM, and a Ctrl-C delivered twice (as under `bunx`) still drains.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postJson } from "../../src/testing/http";
import { sampleBody } from "../../src/testing/sample-tools";
import { scriptedModel } from "../../src/testing/scripted-caller";
import { FIXTURE, listen, longCompletion, until } from "./harness";

setDefaultTimeout(60_000);

const NEVER = new Promise<void>(() => {});

describe("overload", () => {
  test("every 429 has Retry-After, from the queue depth", async () => {
    const { server, base } = await listen({
      model: scriptedModel({ gate: NEVER }),
      concurrency: 2,
      maxWaiting: 2,
    });
    const controller = new AbortController();
    try {
      const held = Array.from({ length: 4 }, () =>
        fetch(`${base}/v1/function_call`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(sampleBody()),
          signal: controller.signal,
        }).catch(() => null),
      );
      expect(await until(() => server.queue.waiting === 2)).toBe(true);
      const refused = await Promise.all(
        Array.from({ length: 32 }, () => postJson(`${base}/v1/function_call`, sampleBody())),
      );
      for (const reply of refused) {
        expect(reply.status).toBe(429);
        expect(Number(reply.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
      controller.abort();
      await Promise.all(held);
    } finally {
      await server.close();
    }
  });

  test("503 while the model loads has Retry-After (shutdown's 503s: see below)", async () => {
    const { server, base } = await listen({ model: new Promise(() => {}), shutdownTimeoutMs: 200 });
    const loading = await postJson(`${base}/v1/function_call`, sampleBody());
    expect(loading.status).toBe(503);
    expect(loading.headers.get("retry-after")).not.toBeNull();
    await server.close();
  });
});

describe("shutdown", () => {
  test("close() with calls that never end: they get 503 with Retry-After within the deadline", async () => {
    const { server, base } = await listen({ model: scriptedModel({ gate: NEVER }), shutdownTimeoutMs: 500 });
    const calls = Array.from({ length: 4 }, () => postJson(`${base}/v1/function_call`, sampleBody()));
    expect(await until(() => server.queue.running === 4)).toBe(true);
    const started = performance.now();
    await server.close();
    const took = performance.now() - started;
    expect(took).toBeLessThan(500 + 1000);
    for (const reply of await Promise.all(calls)) {
      expect(reply.status).toBe(503);
      expect(reply.headers.get("retry-after")).not.toBeNull();
    }
  });

  const CLI = join(import.meta.dir, "../../src/cli.ts");
  async function startCli(): Promise<{ child: Bun.Subprocess<"ignore", "pipe", "pipe">; url: string }> {
    // The fixture decodes in ~1 ms a pass; the deadline (1 s) is what bounds the exit.
    const flags = "--port 0 --format v2 --threads 1 --shutdown-timeout 1000".split(" ");
    const child = Bun.spawn(["bun", CLI, "--model", FIXTURE, ...flags], {
      env: { ...process.env, RTOOL_CACHE_DIR: mkdtempSync(join(tmpdir(), "rtool-reliability-")) },
      stdout: "pipe",
      stderr: "pipe",
    });
    let text = "";
    const reader = child.stdout.getReader();
    const end = performance.now() + 30_000;
    while (!/loaded/.test(text) && performance.now() < end) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
    if (!url) throw new Error(`the CLI did not start: ${text}`);
    return { child, url };
  }

  for (const signals of [["SIGTERM"], ["SIGINT", "SIGINT"]] as const) {
    test(`${signals.join(" + ")} with long work in flight: exit 0 within the deadline`, async () => {
      const { child, url } = await startCli();
      const calls = Array.from({ length: 4 }, () =>
        postJson(`${url}/v1/completions`, longCompletion(480)).then(
          (r) => r.status,
          () => 0,
        ),
      );
      await Bun.sleep(300);
      const started = performance.now();
      for (const signal of signals) child.kill(signal);
      const code = await child.exited;
      expect(code).toBe(0);
      // The deadline is 1 s; the slack covers process teardown on a loaded machine. What this
      // guards against is a drain with no deadline (51 s before) or a second SIGINT skipping it.
      expect(performance.now() - started).toBeLessThan(1000 + 5000);
      for (const status of await Promise.all(calls)) expect([200, 503]).toContain(status);
    });
  }
});
