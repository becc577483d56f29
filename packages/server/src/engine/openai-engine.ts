/**
 * The remote engine: text completions from an OpenAI-compatible `/v1/completions` endpoint
 * (vLLM, SGLang, or another rtool-server), with a deadline per attempt, retries with jittered
 * back-off on connection failures and overload statuses, and a 502/504 {@link EngineError}
 * naming the reason when the engine cannot give a usable answer.
 */
import { z } from "zod";
import { EngineError } from "./errors";
import { RemoteCaller } from "./remote-caller";
import type {
  CompletionChoice,
  CompletionEngine,
  CompletionRequest,
  CompletionResult,
  Engine,
} from "./types";

/** Options of {@link OpenAiCompletions} and {@link createOpenAiEngine}. */
export interface OpenAiEngineOptions {
  /** The engine: a base URL (`http://gpu:8000`, `http://gpu:8000/v1`) or the completions URL itself. */
  url: string;
  /** `model` sent with each request; omitted when not given (vLLM and SGLang then use their one model). */
  model?: string;
  /** Sent as `Authorization: Bearer KEY`. */
  apiKey?: string;
  /** Longest one attempt may take before 504; default 10 s. */
  timeoutMs?: number;
  /** Attempts after the first on connection failures and 429/500/502/503/504; default 2. */
  retries?: number;
  /** First back-off; doubles per retry, with jitter; default 100 ms. */
  backoffMs?: number;
  /** The fetch to use (tests); default the global one. */
  fetch?: typeof fetch;
}

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);

/** The part of an OpenAI completion reply rtool reads (vLLM's `stop_reason`, SGLang's `matched_stop`). */
const replySchema = z.object({
  choices: z.array(
    z.object({
      index: z.number().int().min(0).optional(),
      text: z.string(),
      finish_reason: z.string().nullish(),
      stop_reason: z.union([z.string(), z.number()]).nullish(),
      matched_stop: z.union([z.string(), z.number()]).nullish(),
    }),
  ),
  usage: z
    .object({
      prompt_tokens: z.number().optional(),
      completion_tokens: z.number().optional(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
    })
    .nullish(),
});

/**
 * `/v1/completions` of `url`, from a base URL or the endpoint itself.
 *
 * @example
 * ```ts
 * completionsUrl("http://gpu:8000");    // "http://gpu:8000/v1/completions"
 * completionsUrl("http://gpu:8000/v1/"); // "http://gpu:8000/v1/completions"
 * ```
 */
export function completionsUrl(url: string): string {
  const base = url.replace(/\/+$/, "");
  if (base.endsWith("/completions")) return base;
  if (base.endsWith("/v1")) return `${base}/completions`;
  return `${base}/v1/completions`;
}

/**
 * Completions from a remote OpenAI-compatible engine: all prompts of a request in one HTTP call.
 *
 * @example
 * ```ts
 * const engine = new OpenAiCompletions({ url: "http://gpu:8000", model: "rtool/rt-0.5b" });
 * const { choices } = await engine.complete({ prompts: ["a", "b"], maxTokens: 8, temperature: 0, stop: [] });
 * ```
 */
export class OpenAiCompletions implements CompletionEngine {
  readonly url: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;

  constructor(readonly options: OpenAiEngineOptions) {
    this.url = completionsUrl(options.url);
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retries = options.retries ?? 2;
    this.backoffMs = options.backoffMs ?? 100;
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const body = JSON.stringify({
      ...(this.options.model !== undefined ? { model: this.options.model } : {}),
      prompt: request.prompts,
      max_tokens: request.maxTokens,
      temperature: request.temperature,
      stop: request.stop,
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      n: 1,
      echo: false,
      stream: false,
      // vLLM and SGLang extensions: stop texts that are special tokens must be seen, and kept.
      skip_special_tokens: false,
      ignore_eos: request.ignoreEos ?? false,
      include_stop_str_in_output: request.includeStopInOutput ?? false,
      no_stop_trim: request.includeStopInOutput ?? false,
    });
    const reply = await this.post(body, request.signal);
    return this.parse(reply, request.prompts.length);
  }

  /** POSTs with retries; resolves with the reply text of a 2xx answer. */
  private async post(body: string, signal: AbortSignal | undefined): Promise<string> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= this.retries;
      const deadline = AbortSignal.timeout(this.timeoutMs);
      const both = signal ? AbortSignal.any([signal, deadline]) : deadline;
      let response: Response;
      try {
        response = await this.fetch(this.url, { method: "POST", headers, body, signal: both });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (deadline.aborted) throw this.timeout();
        if (last) throw new EngineError("unreachable", this.url, `unreachable (${describe(error)})`);
        await this.backOff(attempt, signal);
        continue;
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (deadline.aborted) throw this.timeout();
        throw new EngineError("unreachable", this.url, `the reply broke off (${describe(error)})`);
      }
      if (response.ok) return text;
      if (!RETRY_STATUSES.has(response.status) || last) {
        const detail = text.trim().slice(0, 300);
        throw new EngineError(
          "http_status",
          this.url,
          `answered ${response.status}${detail ? `: ${detail}` : ""}`,
        );
      }
      await this.backOff(attempt, signal);
    }
  }

  private parse(text: string, prompts: number): CompletionResult {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new EngineError("malformed", this.url, `the reply is not JSON (${describe(error)})`);
    }
    const parsed = replySchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = issue.path.length > 0 ? issue.path.join(".") : "reply";
      throw new EngineError(
        "malformed",
        this.url,
        `the reply is not a completion (${where}: ${issue.message})`,
      );
    }
    const { choices, usage } = parsed.data;
    if (choices.length < prompts) {
      throw new EngineError(
        "malformed",
        this.url,
        `${choices.length} choices came back for ${prompts} prompts`,
      );
    }
    const ordered: CompletionChoice[] = new Array(prompts);
    choices.forEach((choice, position) => {
      const index = choice.index ?? position;
      if (index >= prompts || ordered[index]) {
        throw new EngineError(
          "malformed",
          this.url,
          `choice index ${index} is repeated or beyond ${prompts} prompts`,
        );
      }
      const stop = choice.stop_reason ?? choice.matched_stop;
      ordered[index] = {
        text: choice.text,
        finishReason: choice.finish_reason === "length" ? "length" : "stop",
        stopReason: typeof stop === "string" ? stop : null,
        tokens: 0,
      };
    });
    return {
      choices: ordered,
      promptTokens: usage?.prompt_tokens ?? 0,
      completionTokens: usage?.completion_tokens ?? 0,
      cachedTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
      steps: 0,
    };
  }

  private timeout(): EngineError {
    return new EngineError("timeout", this.url, `no answer within ${this.timeoutMs} ms`);
  }

  private backOff(attempt: number, signal: AbortSignal | undefined): Promise<void> {
    const ms = this.backoffMs * 2 ** attempt * (0.5 + Math.random() / 2);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}

/**
 * An {@link Engine} on a remote OpenAI-compatible completions endpoint: function calls are
 * decoded there as one batched request of head prompts and parsed here with `@rtool/core`'s
 * `calls` code; `/v1/completions` is passed through.
 *
 * @example
 * ```ts
 * const server = createServer({
 *   model: createOpenAiEngine({ url: "http://gpu-1:8000", model: "rtool/rt-0.5b" }),
 *   modelName: "rtool/rt-0.5b",
 * });
 * ```
 */
export function createOpenAiEngine(options: OpenAiEngineOptions): Engine {
  const completions = new OpenAiCompletions(options);
  return {
    caller: new RemoteCaller(completions),
    provider: "remote",
    completions,
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && !error.message.includes(code)
    ? `${code}: ${error.message}`
    : error.message;
}
