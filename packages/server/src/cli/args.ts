/**
 * `rtool-server` command-line parsing: `serve` (the default) and `pull`, every value checked
 * here so a typo ends in a usage message (exit 2), never in a half-started server.
 */
import { parseArgs } from "node:util";
import { DEFAULT_CONCURRENCY } from "../batching/call-queue";
import type { PromptFormat } from "../model-host";

/** A command line the CLI cannot run; `option` names the flag concerned. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(
    readonly option: string | null,
    message: string,
  ) {
    super(option ? `${option}: ${message}` : message);
  }
}

/** Options of `rtool-server [serve]`. */
export interface ServeArgs {
  command: "serve";
  /** A model directory, or "rt-tiny" for the embedded model. */
  model: string;
  provider: "cpu" | "cuda" | "auto";
  quant: "none" | "int8" | "int4";
  port: number;
  host: string;
  threads?: number;
  /** Prompt-lookup drafts per head and pass; default the model's (`defaultDraftTokens`). */
  draftTokens?: number;
  /** Greedy answers kept by exact prompt (0: off); default the server's (256). */
  answerCache?: number;
  /** Ms a step finding the session idle waits for other requests' steps; default 0. */
  mergeWindowMs?: number;
  format: PromptFormat;
  cors: string[];
  apiKey?: string;
  concurrency: number;
  maxWaiting: number;
  timeoutMs: number;
  /** Longest a shutdown waits for calls in flight before answering them 503. */
  shutdownTimeoutMs: number;
  /** Host names the server answers to; default the loopback names when bound to loopback, else any. */
  allowedHosts?: string[];
  /** Load weights without the NaN/Inf check. */
  skipWeightCheck: boolean;
  /** Run the model's forward passes in a worker thread, so HTTP never waits on a pass. */
  sessionWorker?: boolean;
  /** "local" runs the model here; "openai" decodes on a remote OpenAI-compatible completions endpoint. */
  engine: "local" | "openai";
  /** The remote engine (`--engine openai`), e.g. http://gpu-1:8000. */
  engineUrl?: string;
  engineModel?: string;
  engineKey?: string;
  engineTimeoutMs: number;
  engineRetries: number;
  /** Sent as `X-Rtool-Backend` on every response (behind a load balancer). */
  name?: string;
}

/** Options of `rtool-server pull REPO_ID`. */
export interface PullArgs {
  command: "pull";
  repo: string;
  dir?: string;
  endpoint?: string;
  revision: string;
}

export type CliArgs = ServeArgs | PullArgs | { command: "help" } | { command: "version" };

/** The `--help` text. */
export const USAGE = `rtool-server: real-time function calling over HTTP

Usage:
  rtool-server [options]                serve a model (default: the embedded rt-tiny)
  rtool-server pull REPO_ID [--dir DIR] [--endpoint URL] [--revision REV]
                                        download a model from the Hugging Face hub

Options:
  --model DIR|rt-tiny      model directory (config.json, model.safetensors, tokenizer.json); default rt-tiny
  --provider cpu|cuda|auto execution provider; default cpu
  --quant none|int8|int4   quantize float weights on load; default none (AWQ checkpoints load as they are)
  --port N                 port; default 8899 (0 picks a free one)
  --host [ADDR]            interface to bind; default 127.0.0.1; --host alone binds 0.0.0.0
  --threads N              ONNX Runtime intra-op threads; default the physical cores
  --draft-tokens N         tokens each head may draft per pass from the prompt (0: off); default 4 for
                           models up to 50M parameters, 0 above
  --answer-cache N         greedy answers kept by exact prompt tokens and settings, so a repeated
                           prompt needs no forward pass (0: off); default 256
  --merge-window MS        a step that finds the model idle waits this long for other requests' steps
                           to share its forward pass (agents ticking together); default 0
  --format v1|v2           prompt format of /v1/function_call and /v1/chat/completions; default v1
  --cors ORIGIN            allow this browser origin (repeatable; "*" allows any, never with credentials)
  --api-key KEY            require "Authorization: Bearer KEY" on all but /health (or set RTOOL_API_KEY)
  --concurrency N          calls decoded at once, sharing forward passes; default ${DEFAULT_CONCURRENCY}
  --max-waiting N          calls queued beyond those before 429; default 64
  --timeout MS             request timeout; default 30000
  --shutdown-timeout MS    on SIGINT/SIGTERM, longest wait for calls in flight before they get 503;
                           default 10000
  --allowed-hosts NAMES    comma-separated Host names to answer (others get 421; "*": any); default
                           localhost, 127.0.0.1 and ::1 when bound to loopback, else any
  --skip-weight-check      load weights without checking them for NaN/Inf
  --session-worker         run forward passes in a worker thread, so requests never wait on a pass in
                           progress to be read or answered (experimental: on 2 cores it halved the
                           arena's rates; measure with bench:arena --compare-session-worker)
  --engine local|openai    where heads are decoded: here (default) or on a remote OpenAI-compatible
                           /v1/completions endpoint (vLLM, SGLang, another rtool-server)
  --engine-url URL         the remote engine, e.g. http://gpu-1:8000 (with --engine openai)
  --engine-model NAME      model name sent to the engine; default the engine's only model
  --engine-key KEY         bearer key for the engine (or set RTOOL_ENGINE_KEY)
  --engine-timeout MS      longest one engine request may take (then 504); default 10000
  --engine-retries N       retries on connection failures and 429/5xx; default 2
  --name NAME              backend name sent as X-Rtool-Backend (or set RTOOL_BACKEND_NAME)
  -h, --help               this text
  -v, --version            the version

Routes: GET /health, GET /v1/models, POST /v1/function_call, POST /v2/function_call,
POST /v1/chat/completions, POST /v1/completions, GET /metrics, GET /openapi.json, GET /docs.
Pull: HF_TOKEN is sent when set; --endpoint (or HF_ENDPOINT) points at a mirror.`;

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(option, `must be one of ${allowed.join(", ")}, got "${value}"`);
  }
  return value as T;
}

function integer(option: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(option, `must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

/**
 * Parses `argv` (without the runtime and script).
 *
 * @example
 * ```ts
 * parseCliArgs(["--model", "models/qwen", "--port", "0"]); // { command: "serve", model: "models/qwen", port: 0, ... }
 * parseCliArgs(["pull", "org/model", "--dir", "models/x"]);  // { command: "pull", repo: "org/model", ... }
 * ```
 */
export function parseCliArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): CliArgs {
  // `--host` may stand alone (bind every interface); parseArgs needs a value, so supply it.
  const args = argv.flatMap((arg, i) =>
    arg === "--host" && (i + 1 >= argv.length || argv[i + 1]!.startsWith("-"))
      ? ["--host", "0.0.0.0"]
      : [arg],
  );
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    throw new UsageError(null, error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };
  if (values.version) return { command: "version" };

  if (positionals[0] === "pull") {
    const repo = positionals[1];
    if (!repo || positionals.length > 2)
      throw new UsageError("pull", "needs exactly one REPO_ID, e.g. Qwen/Qwen3-0.6B");
    if (!/^[\w.-]+(\/[\w.-]+)?$/.test(repo))
      throw new UsageError("REPO_ID", `"${repo}" is not a repository id`);
    const endpoint = values.endpoint ?? env.HF_ENDPOINT;
    if (endpoint !== undefined && !/^https?:\/\//.test(endpoint)) {
      throw new UsageError("--endpoint", `must be an http(s) URL, got "${endpoint}"`);
    }
    return { command: "pull", repo, dir: values.dir, endpoint, revision: values.revision ?? "main" };
  }
  if (positionals.length > 0 && positionals[0] !== "serve") {
    throw new UsageError(null, `unknown command "${positionals[0]}"; see --help`);
  }
  for (const flag of ["dir", "endpoint", "revision"] as const) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag}`, "belongs to `rtool-server pull`");
  }
  // An empty RTOOL_API_KEY counts as unset; an empty --api-key is a mistake.
  const apiKey = values["api-key"] ?? (env.RTOOL_API_KEY || undefined);
  if (apiKey !== undefined && apiKey.length === 0) throw new UsageError("--api-key", "must not be empty");
  const engine = oneOf("--engine", values.engine ?? "local", ["local", "openai"] as const);
  const engineUrl = values["engine-url"];
  if (engine === "openai" && engineUrl === undefined) {
    throw new UsageError("--engine-url", "is required with --engine openai");
  }
  if (engineUrl !== undefined && !/^https?:\/\/[^/]/.test(engineUrl)) {
    throw new UsageError("--engine-url", `must be an http(s) URL, got "${engineUrl}"`);
  }
  if (engine === "local") {
    for (const flag of [
      "engine-url",
      "engine-model",
      "engine-key",
      "engine-timeout",
      "engine-retries",
    ] as const) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag}`, "needs --engine openai");
    }
  }
  const name = values.name ?? (env.RTOOL_BACKEND_NAME || undefined);
  if (name !== undefined && !/^[\w.:-]{1,64}$/.test(name)) {
    throw new UsageError("--name", `must be 1-64 letters, digits, "_", ".", ":" or "-", got "${name}"`);
  }
  return {
    command: "serve",
    engine,
    engineUrl,
    engineModel: values["engine-model"],
    engineKey: values["engine-key"] ?? (env.RTOOL_ENGINE_KEY || undefined),
    engineTimeoutMs: integer("--engine-timeout", values["engine-timeout"], 1, 3_600_000) ?? 10_000,
    engineRetries: integer("--engine-retries", values["engine-retries"], 0, 10) ?? 2,
    name,
    model: values.model ?? "rt-tiny",
    provider: oneOf("--provider", values.provider ?? "cpu", ["cpu", "cuda", "auto"] as const),
    quant: oneOf("--quant", values.quant ?? "none", ["none", "int8", "int4"] as const),
    port: integer("--port", values.port, 0, 65535) ?? 8899,
    host: values.host ?? "127.0.0.1",
    threads: integer("--threads", values.threads, 1, 1024),
    draftTokens: integer("--draft-tokens", values["draft-tokens"], 0, 64),
    answerCache: integer("--answer-cache", values["answer-cache"], 0, 1_000_000),
    mergeWindowMs: integer("--merge-window", values["merge-window"], 0, 1000),
    format: oneOf("--format", values.format ?? "v1", ["v1", "v2"] as const),
    cors: values.cors ?? [],
    apiKey,
    concurrency: integer("--concurrency", values.concurrency, 1, 256) ?? DEFAULT_CONCURRENCY,
    maxWaiting: integer("--max-waiting", values["max-waiting"], 0, 100_000) ?? 64,
    timeoutMs: integer("--timeout", values.timeout, 1, 3_600_000) ?? 30_000,
    shutdownTimeoutMs: integer("--shutdown-timeout", values["shutdown-timeout"], 0, 3_600_000) ?? 10_000,
    allowedHosts: hostList(values["allowed-hosts"]),
    skipWeightCheck: values["skip-weight-check"] ?? false,
    ...(values["session-worker"] ? { sessionWorker: true } : {}),
  };
}

function hostList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const bad = names.find(
    (name) => name !== "*" && !/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*|[\w.-]+)$/.test(name),
  );
  if (names.length === 0 || bad !== undefined) {
    throw new UsageError("--allowed-hosts", `must be comma-separated host names, got "${value}"`);
  }
  return names;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      model: { type: "string" },
      provider: { type: "string" },
      quant: { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      threads: { type: "string" },
      "draft-tokens": { type: "string" },
      "answer-cache": { type: "string" },
      "merge-window": { type: "string" },
      format: { type: "string" },
      cors: { type: "string", multiple: true },
      "api-key": { type: "string" },
      concurrency: { type: "string" },
      "max-waiting": { type: "string" },
      timeout: { type: "string" },
      "shutdown-timeout": { type: "string" },
      "allowed-hosts": { type: "string" },
      "skip-weight-check": { type: "boolean" },
      "session-worker": { type: "boolean" },
      engine: { type: "string" },
      "engine-url": { type: "string" },
      "engine-model": { type: "string" },
      "engine-key": { type: "string" },
      "engine-timeout": { type: "string" },
      "engine-retries": { type: "string" },
      name: { type: "string" },
      dir: { type: "string" },
      endpoint: { type: "string" },
      revision: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
}
