/**
 * `createRealtimeCaller`: a command in, a typed validated function call out. Builds the prompt,
 * reuses the KV of its longest cached token prefix, prefills the rest once, decodes the
 * function and argument heads in parallel (constrained by default) and maps them to the chosen
 * tool's schema.
 */

import { DEFAULT_PREFIX_CACHE_BYTES, PrefixCache, type PrefixCacheStats } from "../batch/prefix-cache";
import { SequenceBatch } from "../batch/sequence-batch";
import { headValueText } from "../calls/head-value";
import { mapHeadsToCall } from "../calls/map-heads";
import { buildHeadConstraints, type HeadConstraints } from "../decode/constraints/build";
import type { TextConstraint } from "../decode/head-text";
import type { HeadOutcome, HeadPlan } from "../decode/multi-head";
import { decodePrompt } from "../decode/prefix-decode";
import { defaultDraftTokens } from "../decode/prompt-lookup";
import { VocabIndex } from "../decode/token-vocab";
import { buildPromptText, PromptFormatError, systemPrefixText } from "../prompt/build";
import { END_OF_TURN, type HeadName, headCloseTag, headNames, headTag, NULL_MARKER } from "../prompt/heads";
import type { PromptFormat } from "../prompt/request";
import { maxParameterCount, type ToolSpec, toToolSpecs } from "../prompt/tools";
import { AnswerCache } from "./answer-cache";
import { CallerInputError, PromptTooLongError } from "./errors";
import { EventChannel } from "./event-channel";
import { SerialQueue } from "./serial-queue";
import { cacheSystemTurn } from "./system-turn";
import {
  type AnswerStore,
  type CallerModel,
  type CallHeads,
  type CallRequest,
  type CallResult,
  type CallStreamEvent,
  DEFAULT_COPY_BIAS,
  type RealtimeCallerOptions,
} from "./types";

export type {
  AnswerStore,
  CachedAnswer,
  CallerModel,
  CallHeads,
  CallRequest,
  CallResult,
  CallStreamEvent,
  CallTimings,
  RealtimeCallerOptions,
} from "./types";

const DEFAULT_MAX_TOKENS = 32;

function stopsOf(head: HeadName) {
  return { value: [headCloseTag(head), END_OF_TURN], null: [NULL_MARKER] };
}

function checkStrings(value: unknown, path: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new CallerInputError(path, "must be an array of strings");
  value.forEach((item, i) => {
    if (typeof item !== "string") throw new CallerInputError(`${path}[${i}]`, "must be a string");
  });
  return value;
}

interface PreparedCall {
  tools: ToolSpec[];
  promptIds: number[];
  /** The system turn's ids when `cacheSystemTurn` is on and they begin `promptIds`. */
  systemIds: readonly number[] | null;
  plans: HeadPlan[];
  maxTokens: number;
  temperature: number;
  seed: number;
  includeContent: boolean;
}

/**
 * Turns commands into validated function calls with one model. Calls on one caller run one at a
 * time (they share the runtime session and the prefix cache).
 *
 * @example
 * ```ts
 * const model = await loadModel("models/rt-tiny");
 * const rt = await createRealtimeCaller(model, { format: "v2" });
 * const result = await rt.call({ query: "Amiya, skill two", tools });
 * // { function: "use_skill", args: { unit_id: "Amiya", skill_id: "s2" }, valid: true, ... }
 * for await (const ev of rt.stream({ query: "retreat Texas", tools })) console.log(ev);
 * // the format is a field of the request: one caller and its prefix cache serve both
 * await rt.call({ query: "retreat Texas", tools, format: "v1" });
 * ```
 */
export class RealtimeCaller {
  private readonly cache: PrefixCache | null;
  /** Where calls' prompts and heads are opened as sequences (its prefix cache is `cache`). */
  private readonly sequences: SequenceBatch;
  private readonly vocab: VocabIndex;
  private readonly queue = new SerialQueue();
  private readonly tagIds = new Map<HeadName, number[]>();
  /** Format of requests that name none; undefined: each request must name its own. */
  readonly format: PromptFormat | undefined;
  readonly constrained: boolean;
  readonly skipForcedTokens: boolean;
  readonly draftTokens: number;
  /** The copy nudge of free-text heads (see `RealtimeCallerOptions.copyBias`). */
  readonly copyBias: number;
  readonly cacheSystemTurn: boolean;
  /** Token ids of recent system turns (tokenizing a long turn per call would cost more than its lookup). */
  private readonly systemIds = new Map<string, readonly number[]>();
  /** Greedy calls' answers by prompt and settings (shared by a server's lanes), or null. */
  private readonly answers: AnswerStore | null;

  constructor(
    readonly model: CallerModel,
    options: RealtimeCallerOptions,
  ) {
    if (options.format !== undefined) checkFormat(options.format);
    if (!model.tokenizer)
      throw new CallerInputError("model.tokenizer", "the model was created without a tokenizer");
    if (model.tokenizer.size > model.runtime.config.vocabSize) {
      throw new CallerInputError(
        "model.tokenizer",
        `the tokenizer has ${model.tokenizer.size} tokens, more than the model's vocabulary of ${model.runtime.config.vocabSize}`,
      );
    }
    const cacheBytes = options.prefixCacheBytes ?? DEFAULT_PREFIX_CACHE_BYTES;
    if (!(cacheBytes >= 0)) throw new CallerInputError("prefixCacheBytes", `must be >= 0, got ${cacheBytes}`);
    this.format = options.format;
    this.constrained = options.constrained ?? true;
    this.skipForcedTokens = options.skipForcedTokens ?? true;
    this.draftTokens = options.draftTokens ?? defaultDraftTokens(model.runtime.config);
    if (!(Number.isInteger(this.draftTokens) && this.draftTokens >= 0))
      throw new CallerInputError("draftTokens", `must be a non-negative integer, got ${options.draftTokens}`);
    this.copyBias = options.copyBias ?? DEFAULT_COPY_BIAS;
    if (!(Number.isFinite(this.copyBias) && this.copyBias >= 0))
      throw new CallerInputError("copyBias", `must be a finite number >= 0, got ${options.copyBias}`);
    this.cacheSystemTurn = options.cacheSystemTurn ?? false;
    if (options.sequences && options.sequences.runtime !== model.runtime) {
      throw new CallerInputError("sequences", "must run on the caller's model runtime");
    }
    this.cache = options.sequences
      ? options.sequences.prefixCache
      : (options.prefixCache ??
        (cacheBytes > 0 ? new PrefixCache(model.runtime, { maxBytes: cacheBytes }) : null));
    this.sequences = options.sequences ?? new SequenceBatch(model.runtime, { prefixCache: this.cache });
    this.vocab = VocabIndex.of(model.tokenizer);
    this.answers = options.answerCache ?? null;
  }

  /** Decodes one call. Bad input rejects with a `CallerInputError`/`ToolSchemaError` naming the field. */
  async call(request: CallRequest): Promise<CallResult> {
    return this.run(request, undefined);
  }

  /**
   * Decodes one call, yielding each head as it finishes (argument heads once the function is
   * known, since the function can change what they may hold), then `{ call }`.
   */
  async *stream(request: CallRequest): AsyncGenerator<CallStreamEvent> {
    const channel = new EventChannel<CallStreamEvent>();
    this.run(request, (head) =>
      channel.push({ head: head.name as HeadName, text: headText(head), done: true }),
    ).then(
      (call) => {
        channel.push({ call });
        channel.close();
      },
      (error) => channel.fail(error),
    );
    yield* channel;
  }

  /**
   * Prefills the system turn (system prompt + tools) into the prefix cache, so the first call
   * with these tools only prefills its user turn.
   */
  async warmUp(
    request: Pick<CallRequest, "tools" | "system" | "format">,
  ): Promise<{ tokens: number; ms: number }> {
    const tools = toToolSpecs(request.tools);
    const turn = systemPrefixText(this.formatOf(request), { tools, system: request.system });
    const ids = this.model.tokenizer.encode(turn.text, { plainRanges: turn.plain });
    return this.queue.run(async () => {
      const started = performance.now();
      await this.sequences.prefill(ids);
      return { tokens: ids.length, ms: performance.now() - started };
    });
  }

  /** Counters of the prefix cache (all zero when it is off). */
  cacheStats(): PrefixCacheStats {
    return (
      this.cache?.stats() ?? {
        hits: 0,
        misses: 0,
        evictions: 0,
        cachedTokens: 0,
        reusedTokens: 0,
        entries: 0,
        bytes: 0,
        maxBytes: 0,
      }
    );
  }

  /** Drops every cached prefix. */
  clearCache(): void {
    this.cache?.clear();
  }

  private async run(
    request: CallRequest,
    onHead: ((head: HeadOutcome) => void) | undefined,
  ): Promise<CallResult> {
    const preparing = performance.now();
    const prepared = this.prepare(request);
    const queuedAt = performance.now();
    const waits = { prepareMs: queuedAt - preparing, queuedMs: 0 };
    // A greedy call decodes to what the same prompt and settings gave before: no lane, no pass.
    const answerKey =
      this.answers && prepared.temperature === 0
        ? AnswerCache.keyOf({ ...prepared, constrained: this.constrained })
        : null;
    const known = answerKey === null ? undefined : this.answers!.get(answerKey);
    if (known) {
      for (const head of known.heads) onHead?.(head);
      return Promise.resolve(answeredCall(known.result, prepared.promptIds.length, waits, preparing));
    }
    return this.queue.run(async () => {
      waits.queuedMs = performance.now() - queuedAt;
      if (answerKey === null) return this.decode(prepared, waits, onHead);
      const reported: HeadOutcome[] = [];
      const result = await this.decode(prepared, waits, (head) => {
        reported.push(head);
        onHead?.(head);
      });
      const { timings: _timings, ...answer } = result;
      this.answers!.set(answerKey, { heads: reported, result: answer });
      return result;
    });
  }

  /** Validates the request and tokenizes its prompt and head tags (no model work). */
  private prepare(request: CallRequest): PreparedCall {
    if (typeof request !== "object" || request === null)
      throw new CallerInputError("request", "must be an object");
    if (typeof request.query !== "string") throw new CallerInputError("query", "must be a string");
    if (!Array.isArray(request.tools))
      throw new CallerInputError("tools", "must be an array of function tools");
    const tools = toToolSpecs(request.tools);
    const environment = checkStrings(request.environment, "environment");
    const history = checkStrings(request.history, "history");
    if (request.system !== undefined && typeof request.system !== "string") {
      throw new CallerInputError("system", "must be a string");
    }
    const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
    if (!Number.isInteger(maxTokens) || maxTokens < 1) {
      throw new CallerInputError("maxTokens", `must be a positive integer, got ${maxTokens}`);
    }
    const temperature = request.temperature ?? 0;
    if (!Number.isFinite(temperature) || temperature < 0) {
      throw new CallerInputError("temperature", `must be a finite number >= 0, got ${temperature}`);
    }
    const seed = request.seed ?? 0;
    if (!Number.isInteger(seed)) throw new CallerInputError("seed", `must be an integer, got ${seed}`);
    const includeContent = request.includeContent ?? false;
    if (typeof includeContent !== "boolean")
      throw new CallerInputError("includeContent", "must be a boolean");

    // The request's text (query, environment, history, system, tools) never becomes control tokens.
    const format = this.formatOf(request);
    const prompt = buildPromptText(format, {
      query: request.query,
      tools,
      environment,
      history,
      system: request.system,
    });
    const promptIds = this.model.tokenizer.encode(prompt.text, { plainRanges: prompt.plain });
    const systemIds =
      this.cacheSystemTurn && this.cache
        ? this.systemTurnIds(format, tools, request.system, promptIds)
        : null;
    const plans = headNames(maxParameterCount(tools), includeContent).map(
      (name): HeadPlan => ({ name, tagIds: this.tagIdsOf(name), stops: stopsOf(name), constraint: null }),
    );
    const tagTokens = Math.max(...plans.map((p) => p.tagIds.length));
    // Fed tokens need positions: the tag, then every generated token but the last.
    const headTokens = tagTokens + maxTokens - 1;
    const limit = this.model.runtime.config.maxPositionEmbeddings;
    if (promptIds.length + headTokens > limit)
      throw new PromptTooLongError(promptIds.length, headTokens, limit);
    return { tools, promptIds, systemIds, plans, maxTokens, temperature, seed, includeContent };
  }

  /** The request's format, else the caller's default; a clear error when neither names one. */
  private formatOf(request: Pick<CallRequest, "format">): PromptFormat {
    const format = request.format ?? this.format;
    if (format === "v1" || format === "v2") return format;
    const got = format === undefined ? "none, and this caller has no default" : JSON.stringify(format);
    throw new CallerInputError("format", `must be "v1" or "v2", got ${got}`);
  }

  /** The system turn's ids, when they begin the prompt's (they do wherever the turn ends on a special token). */
  private systemTurnIds(
    format: PromptFormat,
    tools: ToolSpec[],
    system: string | undefined,
    promptIds: readonly number[],
  ): readonly number[] | null {
    // Keyed by the turn's text, which differs between formats: v1 and v2 turns never collide.
    const turn = systemPrefixText(format, { tools, system });
    const text = turn.text;
    let ids = this.systemIds.get(text);
    if (!ids) {
      ids = this.model.tokenizer.encode(text, { plainRanges: turn.plain });
      if (this.systemIds.size >= 32) this.systemIds.delete(this.systemIds.keys().next().value as string);
      this.systemIds.set(text, ids);
    }
    if (ids.length >= promptIds.length) return null;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== promptIds[i]) return null;
    return ids;
  }

  private async decode(
    call: PreparedCall,
    waits: { prepareMs: number; queuedMs: number },
    onHead: ((head: HeadOutcome) => void) | undefined,
  ): Promise<CallResult> {
    const started = performance.now();
    const runtime = this.model.runtime;
    const { promptIds, tools } = call;
    if (call.systemIds) await cacheSystemTurn(this.sequences, call.systemIds);
    let plans = call.plans;
    let refine: ((finished: HeadOutcome) => ReadonlyMap<string, TextConstraint | null> | null) | undefined;
    if (this.constrained) {
      const options = { includeContent: call.includeContent };
      const initial = buildHeadConstraints(tools, null, options);
      plans = plans.map((p) => ({ ...p, constraint: constraintOf(initial, p.name) }));
      refine = (finished) => {
        if (finished.name !== "function") return null;
        const name = finished.isNull ? null : headValueText(finished.text);
        const narrowed = buildHeadConstraints(tools, name, options);
        return new Map(
          plans.filter((p) => p.name !== "function").map((p) => [p.name, constraintOf(narrowed, p.name)]),
        );
      };
    }
    const decoded = await decodePrompt({
      runtime,
      vocab: this.vocab,
      sequences: this.sequences,
      prompt: promptIds,
      heads: plans,
      maxTokens: call.maxTokens,
      temperature: call.temperature,
      seed: call.seed,
      skipForced: this.skipForcedTokens,
      promptIds,
      draftTokens: this.draftTokens,
      copyBias: this.copyBias,
      refine,
      holdReportsUntil: this.constrained ? "function" : undefined,
      onHeadDone: onHead,
    });

    const heads: CallHeads = {};
    for (const head of decoded.heads) heads[head.name as HeadName] = headText(head);
    const mapped = mapHeadsToCall(heads, tools);
    return {
      function: mapped.function,
      args: mapped.args,
      heads,
      valid: mapped.valid,
      errors: mapped.errors,
      warnings: mapped.warnings,
      timings: {
        prefillMs: decoded.firstStepMs,
        decodeMs: decoded.restMs,
        steps: decoded.steps,
        cachedPrefixTokens: decoded.cachedTokens,
        promptTokens: promptIds.length,
        prefilledTokens: promptIds.length - decoded.cachedTokens,
        fedTokens: decoded.fedTokens,
        forcedTokens: decoded.heads.reduce((sum, h) => sum + h.forcedTokens, 0),
        draftedTokens: decoded.drafts.fed,
        keptDraftTokens: decoded.drafts.kept,
        queuedMs: waits.queuedMs,
        prepareMs: waits.prepareMs,
        batchWaitMs: decoded.batch.waitMs,
        forwardMs: decoded.batch.passMs,
        sharedSteps: decoded.batch.sharedSteps,
        answerCached: false,
        totalMs: performance.now() - started,
      },
    };
  }

  private tagIdsOf(name: HeadName): number[] {
    let ids = this.tagIds.get(name);
    if (!ids) {
      ids = this.model.tokenizer.encode(headTag(name));
      this.tagIds.set(name, ids);
    }
    return ids;
  }
}

/** A call answered from the answer cache: the stored call, with timings that say no pass ran. */
function answeredCall(
  answer: Omit<CallResult, "timings">,
  promptTokens: number,
  waits: { prepareMs: number; queuedMs: number },
  started: number,
): CallResult {
  return {
    ...answer,
    timings: {
      prefillMs: 0,
      decodeMs: 0,
      steps: 0,
      cachedPrefixTokens: promptTokens,
      promptTokens,
      prefilledTokens: 0,
      fedTokens: 0,
      forcedTokens: 0,
      draftedTokens: 0,
      keptDraftTokens: 0,
      queuedMs: 0,
      prepareMs: waits.prepareMs,
      batchWaitMs: 0,
      forwardMs: 0,
      sharedSteps: 0,
      answerCached: true,
      totalMs: performance.now() - started - waits.prepareMs,
    },
  };
}

function checkFormat(format: unknown): PromptFormat {
  if (format !== "v1" && format !== "v2") throw new PromptFormatError(format);
  return format;
}

function constraintOf(constraints: HeadConstraints, head: string): TextConstraint | null {
  return constraints[head as HeadName] ?? null;
}

/** A head's value as the call sees it: null for `<|null|>`. */
function headText(head: HeadOutcome): string | null {
  return head.isNull ? null : head.text;
}

/**
 * Creates a {@link RealtimeCaller} for a loaded model.
 *
 * @example
 * ```ts
 * const rt = await createRealtimeCaller(model, { format: "v1" });
 * const { function: fn, args, valid, timings } = await rt.call({ query: "move north", tools });
 * ```
 */
export async function createRealtimeCaller(
  model: CallerModel,
  options: RealtimeCallerOptions,
): Promise<RealtimeCaller> {
  return new RealtimeCaller(model, options);
}
