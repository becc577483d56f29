/**
 * A function caller on a text-completions engine: the multi-head prompts (the prompt followed by
 * each head's tag) go out as one batched completion request with the heads' stop texts, and
 * the continuations come back as heads, mapped to a call by the same `@rtool/core` code as the
 * local runtime's. The engine cannot apply token-level constraints, so heads are decoded free
 * and the call is validated afterwards (`valid`, `errors`).
 */
import {
  buildPrompt,
  type HeadName,
  headNames,
  headTag,
  mapHeadsToCall,
  maxParameterCount,
  NULL_MARKER,
  normalizeTools,
  stopMarkers,
  type ToolSpec,
} from "@rtool/core";
import type { Caller, CallerEvent, CallerRequest, CallerResult } from "../caller";
import type { PromptFormat } from "../model-host";
import type { CompletionChoice, CompletionEngine, CompletionRequest } from "./types";

const DEFAULT_MAX_TOKENS = 32;

/** The completion request of a call, and the heads its prompts stand for (same order). */
export interface HeadsRequest {
  tools: ToolSpec[];
  heads: HeadName[];
  completion: CompletionRequest;
}

/**
 * The batched completion request for a call: one prompt per head sharing the whole call prompt
 * as prefix, greedy unless asked, stop texts kept in the output (so `<|null|>` can be told from an
 * empty value) and end of sequence ignored, as the local decoder does. One request carries one
 * stop list, so it holds every head's stop texts; a head that ends at another head's closing tag
 * (a well-formed head never writes one) is decoded again by {@link redoRequest}.
 *
 * @example
 * ```ts
 * const { heads, completion } = headsRequest("v2", { query: "go left", tools });
 * // heads: ["function", "arg1"]; completion.prompts: [`${prompt}<function>`, `${prompt}<arg1>`]
 * ```
 */
export function headsRequest(format: PromptFormat, request: CallerRequest): HeadsRequest {
  const tools = normalizeTools(request.tools);
  const prompt = buildPrompt(format, {
    query: request.query,
    tools,
    environment: request.environment,
    history: request.history,
    system: request.system,
  });
  const heads = headNames(maxParameterCount(tools), request.includeContent ?? false);
  return {
    tools,
    heads,
    completion: {
      prompts: heads.map((head) => prompt + headTag(head)),
      maxTokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
      temperature: request.temperature ?? 0,
      stop: [...new Set(heads.flatMap(stopMarkers))],
      ignoreEos: true,
      includeStopInOutput: true,
    },
  };
}

/**
 * The request that decodes `heads` again (those a foreign closing tag cut short) under the stop
 * texts they all share, so none can stop at another's tag: exactly the local decoder's heads,
 * each cut at its own first stop text by {@link readHead}.
 */
export function redoRequest(
  first: CompletionRequest,
  indices: readonly number[],
  heads: readonly HeadName[],
) {
  const own = indices.map((i) => stopMarkers(heads[i]!));
  const shared = own[0]!.filter((stop) => own.every((stops) => stops.includes(stop)));
  return { ...first, prompts: indices.map((i) => first.prompts[i]!), stop: shared };
}

/** A head read from its continuation: its value (null for `<|null|>`), or the foreign stop text that cut it. */
export type HeadReading = { value: string | null } | { foreign: string };

/**
 * Reads `head` from its continuation, given the stop texts the request sent: the text before the
 * first stop text in it (engines that keep it), else the whole text with the engine's
 * `stop_reason` (engines that trim it). A stop text that is not one of the head's own means
 * the head would have gone on when decoded alone.
 */
export function readHead(choice: CompletionChoice, head: HeadName, sent: readonly string[]): HeadReading {
  const own = stopMarkers(head);
  let at = -1;
  let marker: string | null = null;
  for (const stop of new Set([...sent, ...own])) {
    const found = choice.text.indexOf(stop);
    if (found >= 0 && (at < 0 || found < at)) {
      at = found;
      marker = stop;
    }
  }
  marker ??= choice.stopReason;
  if (marker !== null && !own.includes(marker)) return { foreign: marker };
  if (marker === NULL_MARKER) return { value: null };
  return { value: at >= 0 ? choice.text.slice(0, at) : choice.text };
}

/**
 * A {@link Caller} on a {@link CompletionEngine}: each request's prompt format, else `format`.
 *
 * @example
 * ```ts
 * const caller = new RemoteCaller(new OpenAiCompletions({ url: "http://gpu:8000" }));
 * const result = await caller.call({ query: "move up", tools, format: "v2" }); // { function: "move", args: {...}, valid: true, ... }
 * ```
 */
export class RemoteCaller implements Caller {
  constructor(
    readonly completions: CompletionEngine,
    /** Format of requests that name none. */
    readonly format: PromptFormat = "v1",
  ) {}

  async call(request: CallerRequest): Promise<CallerResult> {
    const started = performance.now();
    const { tools, heads, completion } = headsRequest(request.format ?? this.format, request);
    const result = await this.completions.complete(completion);
    const texts: Record<string, string | null> = {};
    const redo: number[] = [];
    heads.forEach((head, i) => {
      const reading = readHead(result.choices[i]!, head, completion.stop);
      if ("foreign" in reading) redo.push(i);
      else texts[head] = reading.value;
    });
    let steps = result.steps;
    if (redo.length > 0) {
      const again = redoRequest(completion, redo, heads);
      const second = await this.completions.complete(again);
      steps += second.steps;
      redo.forEach((i, k) => {
        const reading = readHead(second.choices[k]!, heads[i]!, stopMarkers(heads[i]!));
        texts[heads[i]!] = "foreign" in reading ? null : reading.value;
      });
    }
    const ordered = Object.fromEntries(heads.map((head) => [head, texts[head] ?? null]));
    const mapped = mapHeadsToCall(ordered, tools);
    const totalMs = performance.now() - started;
    return {
      function: mapped.function,
      args: mapped.args,
      heads: ordered,
      valid: mapped.valid,
      errors: mapped.errors,
      timings: {
        // The engine does prefill and decode in one request and does not say how long each took.
        prefillMs: 0,
        decodeMs: totalMs,
        steps,
        cachedPrefixTokens: result.cachedTokens,
        totalMs,
      },
    };
  }

  /** The call's heads once the engine has answered (it answers all at once), then the call. */
  async *stream(request: CallerRequest): AsyncIterable<CallerEvent> {
    const call = await this.call(request);
    for (const [head, text] of Object.entries(call.heads)) yield { head, text: text ?? null, done: true };
    yield { call };
  }
}
