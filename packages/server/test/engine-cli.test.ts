/**
 * `rtool-server --engine openai --engine-url URL` and `--name`: the flags, and the executable
 * serving function calls from a scripted engine on 127.0.0.1, naming itself in `X-Rtool-Backend`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parseCliArgs, UsageError } from "../src/cli/args";
import { postJson } from "../src/testing/http";
import { sampleBody } from "../src/testing/sample-tools";

const CLI = join(import.meta.dir, "../src/cli.ts");

describe("engine flags", () => {
  test("--engine openai with its options", () => {
    const args = parseCliArgs(
      [
        "--engine",
        "openai",
        "--engine-url",
        "http://gpu-1:8000",
        "--engine-model",
        "rt-0.5b",
        "--engine-timeout",
        "2500",
        "--engine-retries",
        "0",
      ],
      { RTOOL_ENGINE_KEY: "k", RTOOL_BACKEND_NAME: "edge-1" },
    );
    expect(args).toMatchObject({
      command: "serve",
      engine: "openai",
      engineUrl: "http://gpu-1:8000",
      engineModel: "rt-0.5b",
      engineKey: "k",
      engineTimeoutMs: 2500,
      engineRetries: 0,
      name: "edge-1",
    });
    expect(parseCliArgs([])).toMatchObject({ engine: "local", engineTimeoutMs: 10_000, engineRetries: 2 });
  });

  const bad: [string[], string][] = [
    [["--engine", "openai"], "--engine-url"],
    [["--engine", "openai", "--engine-url", "gpu:8000"], "--engine-url"],
    [["--engine", "tgi"], "--engine"],
    [["--engine-url", "http://gpu:8000"], "--engine-url"],
    [["--engine-key", "k"], "--engine-key"],
    [["--engine", "openai", "--engine-url", "http://g", "--engine-retries", "11"], "--engine-retries"],
    [["--name", "a b"], "--name"],
  ];
  for (const [argv, option] of bad) {
    test(`rejects ${argv.join(" ")}`, () => {
      let error: unknown;
      try {
        parseCliArgs(argv);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).option).toBe(option);
    });
  }
});

describe("rtool-server --engine openai", () => {
  let engine: ReturnType<typeof Bun.serve>;
  const prompts: number[] = [];

  beforeAll(() => {
    engine = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (request) => {
        const body = (await request.json()) as { prompt: string[] };
        prompts.push(body.prompt.length);
        const texts = ["grip</function>", "12</arg1>", "<|null|>", "<|null|>", "<|null|>"];
        return Response.json({
          choices: texts.map((text, index) => ({ index, text, finish_reason: "stop" })),
        });
      },
    });
  });
  afterAll(() => engine.stop(true));

  test("serves calls from the engine, names itself, and stops on SIGTERM", async () => {
    const child = Bun.spawn(
      [
        process.execPath,
        CLI,
        "--engine",
        "openai",
        "--engine-url",
        `http://127.0.0.1:${engine.port}`,
        "--port",
        "0",
        "--name",
        "edge-1",
      ],
      { stdout: "pipe", stderr: "pipe", env: { ...process.env, RTOOL_API_KEY: "" } },
    );
    try {
      const url = await listeningUrl(child.stdout);
      const reply = await postJson(`${url}/v2/function_call`, sampleBody("grip with 12 newtons"));
      expect(reply.status).toBe(200);
      expect(reply.headers.get("x-rtool-backend")).toBe("edge-1");
      expect(await reply.json()).toMatchObject({ function: "grip", args: { force: 12 }, valid: true });
      expect(prompts).toEqual([5]);
      const health = await fetch(`${url}/health`);
      expect(health.headers.get("x-rtool-backend")).toBe("edge-1");
      expect(await health.json()).toMatchObject({ loaded: true, provider: "remote" });
      child.kill("SIGTERM");
      expect(await child.exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});

/** The URL the server prints once it listens. */
async function listeningUrl(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`rtool-server ended before listening; it printed: ${text}`);
    text += decoder.decode(value, { stream: true });
    const match = text.match(/listening on (http:\/\/\S+)/);
    if (match) {
      reader.releaseLock();
      return match[1]!;
    }
  }
}
