/**
 * Sequences over one model, as llama.cpp's `llama_batch` + `llama_decode`: callers open sequences
 * (a prompt, or a branch forked from a parent sequence that shares the parent's KV), hand in the
 * tokens each sequence continues with, and get logits per sequence. Where the KV lives, which
 * columns each row may see (the tree mask), the positions, the prefix cache and eviction are all
 * this file's; the decoders above see sequence ids and logits only.
 *
 * A sequence and every sequence forked from it (its family) share one KV state: the root's
 * tokens, then the forks' tokens as they come, each row masked to see its own sequence only. So
 * one step over several forks is one forward pass, exactly the tree the multi-head decoder runs.
 * Steps of different families (other requests) go to the runtime side by side; with the `merge`
 * option (a {@link BatchedRuntime} underneath) they are merged into shared passes with everyone
 * else's, so a host builds its shared batch from options alone.
 */
import type { DecoderRuntime, KvState, StepTiming } from "../runtime/types";
import { BatchedRuntime, type BatchedRuntimeOptions } from "./batched-runtime";
import { SequenceGoneError, type SequenceGoneReason } from "./errors";
import { PrefixCache, type PrefixCacheStats } from "./prefix-cache";
import { buildStepMask, type MaskRow } from "./tree-mask";

/** A sequence of one {@link SequenceBatch}; ids are never reused by it. */
export type SequenceId = number;

/** Options of {@link SequenceBatch.open}. */
export interface OpenSequenceOptions {
  /**
   * Fork this sequence: the new one begins with the parent's positions as they are now (its KV
   * is shared, never copied), then goes its own way. The parent may go on as well; neither sees
   * the other's later tokens.
   */
  parent?: SequenceId;
  /**
   * KV the tokens continue (a root sequence's first `past.length` positions, e.g. from a cache
   * the caller keeps). Not with `parent`; with it, the prefix cache is not consulted.
   */
  past?: KvState;
  /** Look the tokens up in the prefix cache and store them once computed; default true when there is one. */
  reusePrefix?: boolean;
  /** Keep the root's KV as one state once its tokens are computed ({@link SequenceBatch.kvOf}). */
  keepKv?: boolean;
}

/** One sequence's part of a {@link SequenceBatch.step}. */
export interface SequenceStep {
  /** The sequence to advance (open, and named once per step). */
  seq: SequenceId;
  /** Tokens to append (after any of the sequence's tokens from `open` not computed yet). */
  tokens: readonly number[];
  /**
   * Position of the first token; default the sequence's length. An earlier position drops the
   * sequence's tokens from there on first (a rejected draft, a head that starts over), as
   * llama.cpp's `llama_kv_cache_seq_rm`; the sequence must have no uncomputed tokens then.
   */
  position?: number;
  /** Logits for the last this many tokens fed; default 1 (the next token only). */
  logits?: number;
}

/** What {@link SequenceBatch.step} gives back. */
export interface SequenceStepResult {
  /** Per step entry, in order: [logits, vocabSize] row-major (views of one pass's logits). */
  logits: Float32Array[];
  /**
   * The pass's wait and time when a batching runtime ran it (the slowest family's, when the step
   * spanned several); absent from a plain session.
   */
  timing?: StepTiming;
}

/** What {@link SequenceBatch.info} tells about a sequence. */
export interface SequenceInfo {
  /** Positions, computed or not (the next token's position). */
  length: number;
  /** Of them, tokens given to `open` that no step has computed yet. */
  pending: number;
  /** Leading tokens whose KV came from the prefix cache at `open`. */
  cachedTokens: number;
  /** The sequence it was forked from (released or not), or null for a root. */
  parent: SequenceId | null;
}

/**
 * How a {@link SequenceBatch} merges concurrent steps into shared forward passes: `policy`
 * ("cost" by default: merge only while the merged pass is modelled cheaper), `currentSignal` (the
 * abort signal of the request the calling code works for, read on every step: a step of an
 * aborted request is refused with a `RequestAbortedError`, and one still queued leaves the
 * queue), `onPass` (told after every pass), `mergeWindowMs` (how long a step that finds the model
 * idle waits for others to join its pass), `maxRows`, `maxPast`.
 */
export type SequenceMergeOptions = BatchedRuntimeOptions;

/** Options of {@link SequenceBatch}. */
export interface SequenceBatchOptions {
  /** Where root sequences' prompts are looked up and stored; none prefills every prompt. */
  prefixCache?: PrefixCache | null;
  /**
   * Without `prefixCache`: a prefix cache of its own holding at most this many bytes of KV
   * (LRU); default 0, none.
   */
  prefixCacheBytes?: number;
  /**
   * Open sequences kept; beyond it the least recently used one without open forks, and not in a
   * step, is evicted (later use says so). Default 4096.
   */
  maxSequences?: number;
  /**
   * Merge the steps that arrive while a forward pass runs (other families', other callers' of
   * this batch) into the next pass, each getting exactly what it would get alone: the batch
   * then runs on a merging runtime over the one given (its `runtime`). `true` for the defaults.
   * Default: no merging, each family's step is a pass of its own.
   */
  merge?: boolean | SequenceMergeOptions;
}

/** What {@link SequenceBatch.stats} tells. */
export interface SequenceBatchStats {
  /** Forward passes run (over a merging runtime: its passes, shared with other batches on it). */
  passes: number;
  /** Steps those passes served (more than `passes`: steps shared passes). */
  steps: number;
  /** Steps refused or dropped because their request was aborted (`merge.currentSignal`). */
  abortedSteps: number;
  /** Open sequences. */
  sequences: number;
  /** The prefix cache's hits, misses, entries and tokens held; null without one. */
  prefixCache: PrefixCacheStats | null;
}

/** One KV state shared by a root sequence and its forks. */
interface Family {
  kv: KvState;
  busy: boolean;
  failed: boolean;
}

/** The columns of the family's KV a sequence sees, in position order. */
interface View {
  /** Columns [0, prefix) are seen. */
  prefix: number;
  /** Further columns, after the prefix. */
  columns: number[];
}

interface Sequence {
  id: SequenceId;
  family: Family;
  parent: Sequence | null;
  /** Positions taken from the parent at `open`. */
  inherited: number;
  /** Null until the parent's first `inherited` positions are computed. */
  view: View | null;
  /** Tokens from `open` not computed yet. */
  pending: number[];
  /** The whole token list of a root whose KV goes to the prefix cache once computed. */
  cacheTokens: readonly number[] | null;
  cachedTokens: number;
  keepKv: boolean;
  kv: KvState | null;
  forks: number;
}

/** Rows of one family's pass, built before it runs. */
interface FamilyPass {
  family: Family;
  tokenIds: number[];
  positions: number[];
  maskRows: MaskRow[];
  logitRows: number[];
  /** Roots whose tokens this pass completes: their KV is kept or cached after it. */
  completed: Sequence[];
  /** Per entry of the step (in this family): its index in the step and its logits count. */
  entries: { index: number; logits: number }[];
}

/**
 * Sequences of one model and the forward passes that advance them.
 *
 * @example
 * ```ts
 * const engine = new SequenceBatch(model.runtime, { prefixCacheBytes: 64 << 20, merge: true });
 * const prompt = engine.open(promptIds);                        // prefix reuse: cached tokens are not fed again
 * const heads = tags.map(() => engine.open([], { parent: prompt }));
 * const { logits } = await engine.step(heads.map((seq, i) => ({ seq, tokens: tags[i] }))); // one pass, prompt included
 * for (const seq of [...heads, prompt]) engine.release(seq);
 * ```
 */
export class SequenceBatch {
  /** Open sequences, least recently used first. */
  private readonly sequences = new Map<SequenceId, Sequence>();
  /** Why recent ids are gone (bounded: the oldest reasons are forgotten). */
  private readonly gone = new Map<SequenceId, SequenceGoneReason>();
  private nextId = 1;
  /**
   * The runtime the passes run on: the one given, or with `merge` the merging runtime over it
   * (callers that share this batch name this one as their model's runtime).
   */
  readonly runtime: DecoderRuntime;
  /** Where root sequences' prompts are looked up and stored (callers sharing the batch share it). */
  readonly prefixCache: PrefixCache | null;
  private readonly maxSequences: number;
  /** Passes and steps run on a runtime that does not count them itself. */
  private readonly ownCounters = { passes: 0, steps: 0, abortedSteps: 0 };

  constructor(runtime: DecoderRuntime, options: SequenceBatchOptions = {}) {
    if (options.merge) {
      if (runtime instanceof BatchedRuntime)
        throw new RangeError("SequenceBatch: `merge` over a runtime that merges already");
      runtime = new BatchedRuntime(runtime, options.merge === true ? {} : options.merge);
    }
    this.runtime = runtime;
    const cacheBytes = options.prefixCacheBytes ?? 0;
    if (!(cacheBytes >= 0)) throw new RangeError(`prefixCacheBytes must be >= 0, got ${cacheBytes}`);
    this.prefixCache =
      options.prefixCache ?? (cacheBytes > 0 ? new PrefixCache(runtime, { maxBytes: cacheBytes }) : null);
    this.maxSequences = options.maxSequences ?? 4096;
    if (!(this.maxSequences >= 1))
      throw new RangeError(`maxSequences must be >= 1, got ${this.maxSequences}`);
  }

  /**
   * Opens a sequence of `tokens`: a root (with prefix reuse, or after `past`), or a fork of
   * `parent`. Nothing runs yet: the tokens are computed by the next step of the sequence or of
   * any fork of it.
   */
  open(tokens: readonly number[], options: OpenSequenceOptions = {}): SequenceId {
    const id = this.nextId++;
    let sequence: Sequence;
    if (options.parent !== undefined) {
      if (options.past) throw new RangeError("open: `past` and `parent` exclude each other");
      const parent = this.held(options.parent, "parent");
      parent.forks++;
      const inherited = lengthOf(parent);
      sequence = {
        ...this.blank(id, parent.family),
        parent,
        inherited,
        // resolved now when the parent's positions are computed, else by the step that computes them
        view: parent.view && parent.pending.length === 0 ? viewPrefix(parent.view, inherited) : null,
      };
    } else {
      const reuse = !options.past && this.prefixCache !== null && options.reusePrefix !== false;
      const match = reuse ? this.prefixCache!.lookup(tokens) : { length: 0, kv: null };
      const past = options.past ?? match.kv ?? this.runtime.emptyKv();
      sequence = {
        ...this.blank(id, { kv: past, busy: false, failed: false }),
        view: { prefix: past.length, columns: [] },
        cacheTokens: reuse && match.length < tokens.length ? tokens.slice() : null,
        cachedTokens: match.length,
      };
    }
    sequence.pending = tokens.slice(sequence.cachedTokens);
    sequence.keepKv = options.keepKv === true;
    this.sequences.set(id, sequence);
    this.evictOverLimit();
    return id;
  }

  /**
   * Advances each named sequence by its tokens in one forward pass per family, and returns the
   * logits each asked for. A sequence may appear once per step, and a family's sequences must be
   * stepped together (one step at a time per family).
   */
  async step(steps: readonly SequenceStep[]): Promise<SequenceStepResult> {
    const sequences = this.checkStep(steps);
    const passes = new Map<Family, FamilyPass>();
    steps.forEach((entry, index) => {
      const s = sequences[index]!;
      let pass = passes.get(s.family);
      if (!pass) {
        pass = {
          family: s.family,
          tokenIds: [],
          positions: [],
          maskRows: [],
          logitRows: [],
          completed: [],
          entries: [],
        };
        passes.set(s.family, pass);
      }
      this.resolve(pass, s);
      if (entry.position !== undefined) s.view = viewPrefix(s.view!, entry.position);
      const fed = [...s.pending, ...entry.tokens];
      const logits = entry.logits ?? 1;
      if (s.pending.length > 0) this.completes(pass, s);
      s.pending = [];
      fed.forEach((token, i) => {
        place(pass, s, token, i >= fed.length - logits);
      });
      pass.entries.push({ index, logits });
    });
    const logits = new Array<Float32Array>(steps.length);
    let timing: StepTiming | undefined;
    const results = await Promise.allSettled(
      [...passes.values()].map(async (pass) => {
        const passTiming = await this.run(pass, logits);
        if (
          passTiming &&
          (!timing || passTiming.passMs + passTiming.waitMs > timing.passMs + timing.waitMs)
        ) {
          timing = passTiming;
        }
      }),
    );
    const failed = results.find((r) => r.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return { logits, timing };
  }

  /**
   * Makes the prefix cache hold `tokens` as an entry of their own (a system turn that later
   * prompts continue from), computing in one pass what its longest cached prefix lacks; a run
   * inside a longer entry becomes an entry by itself. Returns the tokens computed (0 when they
   * were cached, or there is no cache).
   */
  async prefill(tokens: readonly number[]): Promise<number> {
    const cache = this.prefixCache;
    if (!cache || tokens.length === 0 || cache.holds(tokens)) return 0;
    const seq = this.open(tokens);
    const root = this.sequences.get(seq)!;
    try {
      const computed = root.pending.length;
      if (computed === 0) cache.insert(tokens, root.family.kv);
      else await this.step([{ seq, tokens: [] }]);
      return computed;
    } finally {
      this.release(seq);
    }
  }

  /** Forgets a sequence. Its open forks keep their positions (the KV they share stays theirs). */
  release(seq: SequenceId): void {
    const s = this.sequences.get(seq);
    if (!s) return;
    this.forget(s, "released");
  }

  /** Length, uncomputed tokens, cached tokens and parent of an open sequence. */
  info(seq: SequenceId): SequenceInfo {
    const s = this.held(seq);
    return {
      length: lengthOf(s),
      pending: s.pending.length,
      cachedTokens: s.cachedTokens,
      parent: s.parent?.id ?? null,
    };
  }

  /**
   * The KV of a root sequence's tokens as one state (shared with the prefix cache; read-only),
   * when it was opened with `keepKv` or cached and a step computed its tokens; else null.
   */
  kvOf(seq: SequenceId): KvState | null {
    return this.held(seq).kv;
  }

  /** Open sequences. */
  get size(): number {
    return this.sequences.size;
  }

  /** Passes, steps and aborted steps so far, open sequences, and the prefix cache's state. */
  stats(): SequenceBatchStats {
    const counters = this.runtime instanceof BatchedRuntime ? this.runtime.counters : this.ownCounters;
    return {
      ...counters,
      sequences: this.sequences.size,
      prefixCache: this.prefixCache?.stats() ?? null,
    };
  }

  private blank(id: SequenceId, family: Family): Sequence {
    return {
      id,
      family,
      parent: null,
      inherited: 0,
      view: null,
      pending: [],
      cacheTokens: null,
      cachedTokens: 0,
      keepKv: false,
      kv: null,
      forks: 0,
    };
  }

  /** The open sequence `seq` (marked as just used), or a {@link SequenceGoneError}. */
  private held(seq: SequenceId, role: "sequence" | "parent" = "sequence"): Sequence {
    const s = this.sequences.get(seq);
    if (!s) throw new SequenceGoneError(seq, this.gone.get(seq) ?? "unknown", role);
    if (s.family.failed) throw new SequenceGoneError(seq, "failed", role);
    this.sequences.delete(seq);
    this.sequences.set(seq, s);
    return s;
  }

  /** Checks a step before anything changes: sequences open, once each, families free, positions and counts in range. */
  private checkStep(steps: readonly SequenceStep[]): Sequence[] {
    const seen = new Set<Sequence>();
    return steps.map((entry) => {
      const s = this.held(entry.seq);
      if (seen.has(s)) throw new RangeError(`step: sequence ${entry.seq} appears twice`);
      seen.add(s);
      if (s.family.busy) {
        throw new RangeError(
          `step: sequence ${entry.seq}'s family is in a step already; step its sequences together`,
        );
      }
      const length = lengthOf(s);
      if (entry.position !== undefined) {
        if (s.pending.length > 0)
          throw new RangeError(`step: sequence ${entry.seq} has uncomputed tokens; no position`);
        if (!(Number.isInteger(entry.position) && entry.position >= 0 && entry.position <= length)) {
          throw new RangeError(
            `step: position ${entry.position} of sequence ${entry.seq} outside [0, ${length}]`,
          );
        }
      }
      const fed = s.pending.length + entry.tokens.length;
      const logits = entry.logits ?? 1;
      if (fed === 0) throw new RangeError(`step: sequence ${entry.seq} has no tokens to feed`);
      if (!(Number.isInteger(logits) && logits >= 1 && logits <= fed)) {
        throw new RangeError(`step: logits ${logits} of sequence ${entry.seq} outside [1, ${fed}]`);
      }
      return s;
    });
  }

  /** Gives `s` its view, computing its ancestors' uncomputed tokens in `pass` first. */
  private resolve(pass: FamilyPass, s: Sequence): void {
    if (s.view) return;
    const parent = s.parent!;
    this.resolve(pass, parent);
    if (parent.pending.length > 0) {
      this.completes(pass, parent);
      for (const token of parent.pending) place(pass, parent, token, false);
      parent.pending = [];
    }
    s.view = viewPrefix(parent.view!, s.inherited);
  }

  /** Notes a root whose tokens `pass` completes, when its KV is to be kept or cached. */
  private completes(pass: FamilyPass, s: Sequence): void {
    if (!s.parent && (s.keepKv || s.cacheTokens)) pass.completed.push(s);
  }

  private async run(pass: FamilyPass, logits: Float32Array[]): Promise<StepTiming | undefined> {
    const { family } = pass;
    family.busy = true;
    let output: Awaited<ReturnType<DecoderRuntime["step"]>>;
    this.ownCounters.passes++;
    this.ownCounters.steps++;
    try {
      output = await this.runtime.step({
        tokenIds: pass.tokenIds,
        positions: pass.positions,
        attentionMask: buildStepMask(family.kv.length, pass.maskRows),
        past: family.kv,
        logitRows: pass.logitRows,
      });
    } catch (error) {
      family.failed = true; // its sequences' views already name the rows that did not run
      throw error;
    } finally {
      family.busy = false;
    }
    family.kv = output.present;
    const vocab = this.runtime.config.vocabSize;
    let row = 0;
    for (const { index, logits: count } of pass.entries) {
      logits[index] = output.logits.subarray(row * vocab, (row + count) * vocab);
      row += count;
    }
    for (const root of pass.completed) this.keep(root);
    return output.timing;
  }

  /** Keeps a computed root's KV as one state, and caches it when it was opened for that. */
  private keep(root: Sequence): void {
    const view = root.view!;
    if (view.columns.length > 0) return; // forks' tokens interleave with it: not one run
    root.kv = this.runtime.sliceKv(root.family.kv, view.prefix);
    if (root.cacheTokens) this.prefixCache?.insert(root.cacheTokens, root.kv);
    root.cacheTokens = null;
  }

  private forget(s: Sequence, reason: SequenceGoneReason): void {
    this.sequences.delete(s.id);
    if (s.parent) s.parent.forks--;
    this.gone.set(s.id, reason);
    if (this.gone.size > 4 * this.maxSequences) this.gone.delete(this.gone.keys().next().value as SequenceId);
  }

  private evictOverLimit(): void {
    if (this.sequences.size <= this.maxSequences) return;
    for (const s of this.sequences.values()) {
      if (s.forks > 0 || s.family.busy) continue;
      this.forget(s, "evicted");
      if (this.sequences.size <= this.maxSequences) return;
    }
  }
}

/** Positions of `s`, computed or not. */
function lengthOf(s: Sequence): number {
  const computed = s.view ? s.view.prefix + s.view.columns.length : s.inherited;
  return computed + s.pending.length;
}

/**
 * The view of the first `length` positions of `view` (a fork's start, or a rewind: the dropped
 * positions' KV columns stay, unseen).
 */
function viewPrefix(view: View, length: number): View {
  if (length <= view.prefix) return { prefix: length, columns: [] };
  return { prefix: view.prefix, columns: view.columns.slice(0, length - view.prefix) };
}

/**
 * Appends one row to `pass`: `token` of sequence `s` at the KV's next column, at the sequence's
 * next position, seeing the sequence's columns and itself.
 */
function place(pass: FamilyPass, s: Sequence, token: number, withLogits: boolean): void {
  const view = s.view!;
  const column = pass.family.kv.length + pass.tokenIds.length;
  if (withLogits) pass.logitRows.push(pass.tokenIds.length);
  pass.maskRows.push({ visiblePrefix: view.prefix, ownColumns: view.columns.slice() });
  pass.positions.push(view.prefix + view.columns.length);
  pass.tokenIds.push(token);
  if (view.columns.length === 0 && view.prefix === column) view.prefix++;
  else view.columns.push(column);
}
