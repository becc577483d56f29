/**
 * Text completions on the local runtime with the tree-batched decoder: the prompts of one
 * request are branches of one tree. Their longest common token prefix is prefilled once (or
 * found in the prefix cache), each prompt's remaining tokens start its branch, and one forward
 * pass per step advances every live prompt. Each continuation is the one the prompt would get
 * decoded alone: a branch sees the shared prefix and its own tokens only. Prompts that share
 * little are split over several trees, so one forward pass never takes an unbounded batch.
 */
import { type CallerModel, decodePrompt, type HeadPlan, SequenceBatch, VocabIndex } from "@rtool/core";
import { CompletionInputError } from "./errors";
import type { CompletionChoice, CompletionEngine, CompletionRequest, CompletionResult } from "./types";

/** Options of {@link LocalCompletions}. */
export interface LocalCompletionsOptions {
  /** Bytes of KV kept for shared prefixes; default 64 MiB; 0 turns the cache off. */
  prefixCacheBytes?: number;
  /**
   * The sequence batch to decode in, e.g. the one the call lanes share (its prefix cache then
   * serves completions too, and `prefixCacheBytes` is ignored). Default: one of its own.
   */
  sequences?: SequenceBatch;
  /** Token ids that end a continuation unless `ignoreEos`; default the config's `eos_token_id`. */
  eosTokenIds?: readonly number[];
  /**
   * Most prompt tokens outside the shared prefix that one tree takes (they all enter the first
   * forward pass, whose mask grows with their square); prompts past it go to further trees.
   * Default 2048.
   */
  branchTokens?: number;
}

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * OpenAI-style completions over a loaded model.
 *
 * @example
 * ```ts
 * const completions = new LocalCompletions({ runtime, tokenizer });
 * const { choices } = await completions.complete({
 *   prompts: [`${prompt}<function>`, `${prompt}<arg1>`], maxTokens: 16, temperature: 0,
 *   stop: ["</function>", "</arg1>", "<|null|>"],
 * });
 * choices[0].text; // "move"
 * ```
 */
export class LocalCompletions implements CompletionEngine {
  private readonly vocab: VocabIndex;
  private readonly sequences: SequenceBatch;
  private readonly eosTexts: string[];
  private readonly branchTokens: number;

  constructor(
    readonly model: CallerModel,
    options: LocalCompletionsOptions = {},
  ) {
    this.vocab = new VocabIndex(model.tokenizer);
    const bytes = options.prefixCacheBytes ?? DEFAULT_CACHE_BYTES;
    this.sequences = options.sequences ?? new SequenceBatch(model.runtime, { prefixCacheBytes: bytes });
    const eos = options.eosTokenIds ?? [model.runtime.config.eosTokenId ?? []].flat();
    this.branchTokens = options.branchTokens ?? 2048;
    this.eosTexts = [...new Set(eos.filter((id) => id < this.vocab.size).map((id) => this.vocab.text(id)))];
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const { runtime } = this.model;
    const prompts = request.prompts.map((prompt, i) => this.tokenize(prompt, i));
    const limit = runtime.config.maxPositionEmbeddings;
    prompts.forEach((ids, i) => {
      // Fed tokens need positions: the prompt, then every generated token but the last.
      if (ids.length + request.maxTokens - 1 > limit) {
        throw new CompletionInputError(
          `prompt[${i}]`,
          `${ids.length} prompt tokens + max_tokens ${request.maxTokens} exceed the model's context of ${limit} tokens`,
        );
      }
    });
    // Greedy continuations of equal prompts are equal: decode each distinct prompt once.
    const keys = prompts.map((ids, i) => (request.temperature === 0 ? ids.join(",") : `#${i}`));
    const distinct = [...new Map(keys.map((key, i) => [key, prompts[i]!])).entries()];
    const stops = request.stop.filter((s) => s.length > 0);
    const eosStops = request.ignoreEos ? [] : this.eosTexts.filter((t) => !stops.includes(t));
    const byKey = new Map<string, CompletionChoice>();
    let cachedTokens = 0;
    let steps = 0;
    for (const group of branchGroups(
      distinct.map(([, ids]) => ids),
      this.branchTokens,
    )) {
      const members = group.map((i) => distinct[i]!);
      const shared = sharedPrefixLength(members.map(([, ids]) => ids));
      const prefix = members[0]![1].slice(0, shared);
      const plans: HeadPlan[] = members.map(([key, ids]) => ({
        name: key,
        tagIds: ids.slice(shared),
        stops: { value: [...stops, ...eosStops], null: [] },
        constraint: null,
      }));
      request.signal?.throwIfAborted();
      const decoded = await decodePrompt({
        runtime,
        vocab: this.vocab,
        sequences: this.sequences,
        prompt: prefix,
        heads: plans,
        maxTokens: request.maxTokens,
        temperature: request.temperature,
        seed: request.seed,
        skipForced: false,
      });
      cachedTokens += decoded.cachedTokens;
      steps += decoded.steps;
      for (const head of decoded.heads) {
        const marker = head.stoppedBy === "marker" ? head.marker : null;
        const userStop = marker !== null && stops.includes(marker) ? marker : null;
        byKey.set(head.name, {
          text: head.text + (request.includeStopInOutput && userStop !== null ? userStop : ""),
          finishReason: marker !== null ? "stop" : "length",
          stopReason: userStop,
          tokens: head.tokenIds.length,
        });
      }
    }
    const choices = keys.map((key) => ({ ...byKey.get(key)! }));
    return {
      choices,
      promptTokens: prompts.reduce((sum, ids) => sum + ids.length, 0),
      completionTokens: choices.reduce((sum, c) => sum + c.tokens, 0),
      cachedTokens,
      steps,
    };
  }

  private tokenize(prompt: string | readonly number[], index: number): number[] {
    const field = `prompt[${index}]`;
    const ids = typeof prompt === "string" ? this.model.tokenizer.encode(prompt) : [...prompt];
    if (ids.length === 0) throw new CompletionInputError(field, "must not be empty");
    const size = this.model.runtime.config.vocabSize;
    const bad = ids.findIndex((id) => !Number.isInteger(id) || id < 0 || id >= size);
    if (bad >= 0) {
      throw new CompletionInputError(`${field}[${bad}]`, `token id ${ids[bad]} is outside 0..${size - 1}`);
    }
    return ids;
  }
}

/**
 * Length of the longest token prefix all prompts share, leaving every prompt at least one token
 * of its own (a branch starts from its first own token).
 */
export function sharedPrefixLength(prompts: readonly (readonly number[])[]): number {
  let shared = Math.min(...prompts.map((ids) => ids.length - 1));
  const first = prompts[0]!;
  for (const ids of prompts) {
    let i = 0;
    while (i < shared && ids[i] === first[i]) i++;
    shared = i;
  }
  return shared;
}

/**
 * Prompts (by index, in order) split into trees: a prompt joins the current tree unless that
 * would put more than `budget` tokens outside the tree's shared prefix. A tree always takes at
 * least one prompt (alone, all of it but its last token is the shared prefix).
 */
export function branchGroups(prompts: readonly (readonly number[])[], budget: number): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  for (let i = 0; i < prompts.length; i++) {
    const candidate = [...current, i];
    const members = candidate.map((k) => prompts[k]!);
    const shared = sharedPrefixLength(members);
    const outside = members.reduce((sum, ids) => sum + ids.length - shared, 0);
    if (current.length > 0 && outside > budget) {
      groups.push(current);
      current = [i];
    } else current = candidate;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
