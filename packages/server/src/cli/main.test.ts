/**
 * The `rtool-server` executable as a child process: usage errors, pull against a fake hub, and
 * graceful shutdown (SIGTERM while calls are in flight: they complete, the process exits 0).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeHub } from "../testing/fake-hub";
import { postJson } from "../testing/http";
import { fixtureBody } from "../testing/sample-tools";
import { runCli } from "./main";

// Loading a model (or spawning the CLI) takes seconds on a busy machine.
setDefaultTimeout(60_000);

const CLI = join(import.meta.dir, "../cli.ts");
const FIXTURE = join(import.meta.dir, "../../../core/test/fixtures/qwen3-tied");
const work = mkdtempSync(join(tmpdir(), "rtool-cli-"));
const env: Record<string, string | undefined> = { ...process.env, RTOOL_CACHE_DIR: join(work, "cache") };
delete env.RTOOL_API_KEY;
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the CLI in this process (fast) with console output captured. */
async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = { log: console.log, error: console.error };
  console.log = (...parts: unknown[]) => out.push(parts.join(" "));
  console.error = (...parts: unknown[]) => err.push(parts.join(" "));
  try {
    const code = await runCli(args);
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  } finally {
    Object.assign(console, saved);
  }
}

/** Reads a child's stdout line by line until `pattern` matches. */
async function waitFor(lines: AsyncIterator<string>, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the server ended before printing ${pattern}`);
    const match = value.match(pattern);
    if (match) return match;
  }
}

async function* linesOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buffer = "";
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let at = buffer.indexOf("\n");
    while (at >= 0) {
      yield buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      at = buffer.indexOf("\n");
    }
  }
}

describe("rtool-server", () => {
  test("--help and --version exit 0", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("rtool-server pull REPO_ID");
    const version = await run(["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  test("bad flags and a missing model directory exit 2 with a message", async () => {
    const bad = await run(["--provider", "tpu"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--provider");
    const quant = await run(["--model", FIXTURE, "--quant", "int3"]);
    expect(quant.code).toBe(2);
    expect(quant.stderr).toContain("--quant");
    const missing = await run(["--model", join(work, "nope")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("is not a directory");
  });

  test("pull REPO_ID --endpoint downloads from a (fake) hub", async () => {
    const hub = startFakeHub("org/m", { "config.json": "{}", "model.safetensors": "12345678" });
    try {
      const dir = join(work, "pulled");
      const result = await run(["pull", "org/m", "--dir", dir, "--endpoint", hub.url]);
      expect(result.code).toBe(0);
      expect(existsSync(join(dir, "model.safetensors"))).toBe(true);
    } finally {
      hub.stop();
    }
  });

  test("--help lists every route the server answers", async () => {
    const help = await run(["--help"]);
    for (const route of [
      "GET /health",
      "GET /v1/models",
      "POST /v1/function_call",
      "POST /v2/function_call",
      "POST /v1/chat/completions",
      "POST /v1/completions",
      "GET /metrics",
      "GET /openapi.json",
      "GET /docs",
    ])
      expect(help.stdout.replace(/\s+/g, " ")).toContain(route);
  });

  test('pull against an unreachable hub is an error: exit 1, the cause printed, no "done"', async () => {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const closed = `http://127.0.0.1:${probe.port}`;
    probe.stop(true);
    const result = await run(["pull", "org/m", "--dir", join(work, "never"), "--endpoint", closed]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("rtool-server pull:");
    expect(`${result.stdout}\n${result.stderr}`).not.toMatch(/\bdone\b/);
  });

  test("SIGTERM during in-flight calls: they complete and the process exits 0", async () => {
    const child = Bun.spawn(
      [
        "bun",
        CLI,
        "--model",
        FIXTURE,
        "--port",
        "0",
        "--format",
        "v2",
        "--threads",
        "1",
        "--concurrency",
        "1",
      ],
      { env, stdout: "pipe", stderr: "pipe" },
    );
    const lines = linesOf(child.stdout)[Symbol.asyncIterator]();
    const [, url] = await waitFor(lines, /listening on (http:\/\/\S+)/);
    await waitFor(lines, /loaded/);
    let signalledAt = 0;
    const finishedAt: number[] = [];
    const calls = Array.from({ length: 12 }, (_, i) =>
      postJson(`${url}/v2/function_call`, fixtureBody(`go up ${i}`)).then(async (reply) => {
        finishedAt.push(performance.now());
        return { status: reply.status, body: (await reply.json()) as { success: boolean } };
      }),
    );
    await Promise.race(calls);
    signalledAt = performance.now();
    child.kill("SIGTERM");
    const replies = await Promise.all(calls);
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(replies.every((r) => r.body.success)).toBe(true);
    // Some calls were still in flight when the signal came, and finished afterwards.
    expect(finishedAt.filter((t) => t > signalledAt).length).toBeGreaterThan(0);
    expect(await child.exited).toBe(0);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });
});
