/**
 * Answers of greedy calls, found again by their exact prompt tokens and decode settings. At
 * temperature 0 a prompt seen before decodes to the heads it gave then, so a call whose prompt
 * repeats (a game agent whose world did not change since its last call, e.g. a ship whose move
 * the wall refused) needs no forward pass at all. LRU by entries.
 */
import type { ToolSpec } from "../prompt/tools";
import type { AnswerStore, CachedAnswer } from "./types";

export type { CachedAnswer };

/** What decides a greedy call's answer besides the model: its prompt and how its heads are decoded. */
export interface AnswerKeyParts {
  promptIds: readonly number[];
  tools: readonly ToolSpec[];
  maxTokens: number;
  includeContent: boolean;
  constrained: boolean;
}

/** Counters of an {@link AnswerCache}. */
export interface AnswerCacheStats {
  hits: number;
  misses: number;
  entries: number;
}

/**
 * LRU map from a greedy call's prompt and settings to its answer. Share one between callers of
 * the same model (a server's lanes); never between models.
 *
 * @example
 * ```ts
 * const answers = new AnswerCache(256);
 * const lanes = [0, 1].map(() => new RealtimeCaller(model, { sequences, answerCache: answers }));
 * ```
 */
export class AnswerCache implements AnswerStore {
  private readonly entries = new Map<string, CachedAnswer>();
  private hits = 0;
  private misses = 0;

  constructor(readonly maxEntries = 256) {
    if (!(Number.isInteger(maxEntries) && maxEntries >= 1))
      throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  }

  /** The key of a call (tools in full: the constraints come from them, not from the prompt text). */
  static keyOf(parts: AnswerKeyParts): string {
    const settings = `${parts.maxTokens}|${parts.includeContent}|${parts.constrained}`;
    return `${settings}|${JSON.stringify(parts.tools)}|${parts.promptIds.join(",")}`;
  }

  /** The answer stored under `key` (a copy, marked as just used), or undefined. */
  get(key: string): CachedAnswer | undefined {
    const found = this.entries.get(key);
    if (!found) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, found);
    return structuredClone(found);
  }

  /** Stores an answer (a copy), dropping the least recently used beyond `maxEntries`. */
  set(key: string, answer: CachedAnswer): void {
    this.entries.delete(key);
    this.entries.set(key, structuredClone(answer));
    while (this.entries.size > this.maxEntries)
      this.entries.delete(this.entries.keys().next().value as string);
  }

  stats(): AnswerCacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size };
  }
}
