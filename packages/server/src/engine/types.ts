/**
 * The engine interface: what serves the routes. `/v1|v2/function_call` use the engine's caller
 * (one for both prompt formats; each request names its own), `/v1/completions` its text completions. Two implementations: the
 * local runtime (`loadCallers`, with {@link LocalCompletions}) and a remote OpenAI-compatible
 * completions endpoint such as vLLM or SGLang ({@link createOpenAiEngine}).
 */
import type { Caller } from "../caller";

/** One batched completion request: every prompt is continued on its own, in one go. */
export interface CompletionRequest {
  /** Prompts as text, or as token ids. At least one. */
  prompts: readonly (string | readonly number[])[];
  /** Tokens to generate per prompt at most (the stop marker's token included). */
  maxTokens: number;
  /** 0 is greedy. */
  temperature: number;
  /** Texts that end a continuation; the continuation's text ends before the first one. */
  stop: readonly string[];
  /** Seed of sampling at temperature > 0. */
  seed?: number;
  /** Keep going past the model's end-of-sequence tokens (vLLM's `ignore_eos`). */
  ignoreEos?: boolean;
  /** Append the stop text that ended a continuation to its text (vLLM's `include_stop_str_in_output`). */
  includeStopInOutput?: boolean;
  /** Aborts the request (client gone, deadline passed). */
  signal?: AbortSignal;
}

/** One continuation. */
export interface CompletionChoice {
  text: string;
  /** `stop`: a stop text or end-of-sequence token ended it; `length`: `maxTokens` did. */
  finishReason: "stop" | "length";
  /** The stop text that ended it; null for end of sequence, `length`, or when the engine does not say. */
  stopReason: string | null;
  /** Tokens generated. */
  tokens: number;
}

/** The continuations of a {@link CompletionRequest}, in the order of its prompts. */
export interface CompletionResult {
  choices: CompletionChoice[];
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens whose KV came from a prefix cache (0 when unknown). */
  cachedTokens: number;
  /** Forward passes run (0 when unknown, e.g. on a remote engine). */
  steps: number;
}

/** Text completions over a batch of prompts. */
export interface CompletionEngine {
  complete(request: CompletionRequest): Promise<CompletionResult>;
}

/**
 * A loaded model as the server uses it: one caller for both prompt formats (each request names
 * its format), so the model's prefix cache is one too.
 */
export interface LoadedModel {
  caller: Caller;
  /** Execution provider in use; "remote" for a remote engine. */
  provider: "cpu" | "cuda" | "remote";
  /** Text completions (`/v1/completions`), when the model serves them. */
  completions?: CompletionEngine;
  /** Forward passes run and the steps they served (more steps than passes: calls shared passes). */
  batchStats?(): { passes: number; steps: number };
  /** Releases the runtime. */
  dispose?(): Promise<void>;
}

/** A model as the routes use it: a caller (for both prompt formats) and text completions. */
export interface Engine extends LoadedModel {
  completions: CompletionEngine;
}
