import { describe, expect, test } from "bun:test";
import { parseCliArgs, UsageError } from "./args";

describe("parseCliArgs", () => {
  test("defaults: embedded model, cpu, loopback, port 8899, v1", () => {
    expect(parseCliArgs([])).toMatchObject({
      command: "serve",
      model: "rt-tiny",
      provider: "cpu",
      quant: "none",
      port: 8899,
      host: "127.0.0.1",
      format: "v1",
      cors: [],
      concurrency: 16,
    });
  });

  test("every serve flag", () => {
    const args = parseCliArgs([
      "--model",
      "models/q",
      "--provider",
      "auto",
      "--port",
      "0",
      "--host",
      "::1",
      "--threads",
      "2",
      "--draft-tokens",
      "0",
      "--answer-cache",
      "0",
      "--merge-window",
      "2",
      "--format",
      "v2",
      "--cors",
      "http://a",
      "--cors",
      "http://b",
      "--api-key",
      "k",
      "--concurrency",
      "4",
      "--max-waiting",
      "8",
      "--timeout",
      "5000",
      "--name",
      "b1",
    ]);
    expect(args).toEqual({
      command: "serve",
      model: "models/q",
      provider: "auto",
      quant: "none",
      port: 0,
      host: "::1",
      threads: 2,
      draftTokens: 0,
      answerCache: 0,
      mergeWindowMs: 2,
      format: "v2",
      cors: ["http://a", "http://b"],
      apiKey: "k",
      concurrency: 4,
      maxWaiting: 8,
      timeoutMs: 5000,
      shutdownTimeoutMs: 10_000,
      skipWeightCheck: false,
      engine: "local",
      engineTimeoutMs: 10_000,
      engineRetries: 2,
      name: "b1",
    });
  });

  test("--host alone binds every interface", () => {
    expect(parseCliArgs(["--host"])).toMatchObject({ host: "0.0.0.0" });
    expect(parseCliArgs(["--host", "--port", "1"])).toMatchObject({ host: "0.0.0.0", port: 1 });
  });

  test("--session-worker runs forward passes in a worker thread; off by default", () => {
    expect(parseCliArgs(["--session-worker"])).toMatchObject({ sessionWorker: true });
    expect(parseCliArgs([])).not.toHaveProperty("sessionWorker");
  });

  test("the API key may come from RTOOL_API_KEY", () => {
    expect(parseCliArgs([], { RTOOL_API_KEY: "env-key" })).toMatchObject({ apiKey: "env-key" });
  });

  test("help, version, pull", () => {
    expect(parseCliArgs(["--help"])).toEqual({ command: "help" });
    expect(parseCliArgs(["-v"])).toEqual({ command: "version" });
    expect(
      parseCliArgs(["pull", "Qwen/Qwen3-0.6B", "--dir", "m", "--endpoint", "http://127.0.0.1:9"]),
    ).toEqual({
      command: "pull",
      repo: "Qwen/Qwen3-0.6B",
      dir: "m",
      endpoint: "http://127.0.0.1:9",
      revision: "main",
    });
  });

  const bad: [string[], string | null][] = [
    [["--provider", "tpu"], "--provider"],
    [["--format", "v3"], "--format"],
    [["--quant", "int3"], "--quant"],
    [["--port", "70000"], "--port"],
    [["--port", "abc"], "--port"],
    [["--threads", "0"], "--threads"],
    [["--draft-tokens", "1.5"], "--draft-tokens"],
    [["--draft-tokens", "65"], "--draft-tokens"],
    [["--bogus"], null],
    [["frobnicate"], null],
    [["pull"], "pull"],
    [["pull", "a/b", "c"], "pull"],
    [["pull", "a b"], "REPO_ID"],
    [["pull", "a/b", "--endpoint", "ftp://x"], "--endpoint"],
    [["--dir", "x"], "--dir"],
    [["--api-key", ""], "--api-key"],
  ];
  for (const [argv, option] of bad) {
    test(`rejects ${argv.join(" ")}`, () => {
      try {
        parseCliArgs(argv);
        throw new Error("expected a UsageError");
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        expect((error as UsageError).option).toBe(option);
      }
    });
  }
});
