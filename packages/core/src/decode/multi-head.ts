/**
 * The tree-batched multi-head decode loop. The prompt is in the KV once; every head is a branch
 * whose tokens sit at positions n, n+1, ... after the prompt, and one forward pass per step
 * advances every live branch by one token under a mask that lets a branch see the prompt and its
 * own tokens only. Finished heads leave the batch at once; tokens a constraint forces are emitted
 * without a forward pass; with prompt-lookup drafts a head may also advance by several tokens
 * in one pass (drafts greedy decoding would not have chosen are dropped, so output is unchanged).
 */
import type { DecoderRuntime, KvState } from "../runtime/types";
import {
  classifyHeadText,
  type DoneText,
  forcedEnding,
  type HeadStops,
  type HeadTextState,
  type TextConstraint,
} from "./head-text";
import { draftFromPrompt } from "./prompt-lookup";
import { type AllowedTokens, chooseGreedy, chooseSampled, seededRandom } from "./token-choice";
import type { VocabIndex } from "./token-vocab";
import { buildStepMask, type MaskRow } from "./tree-mask";

/** One head to decode. */
export interface HeadPlan {
  /** e.g. `"function"`, `"arg1"`, `"content"`. */
  name: string;
  /** The head's tag as token ids (one added token, or several text tokens). */
  tagIds: readonly number[];
  stops: HeadStops;
  /** Null decodes the head unconstrained. */
  constraint: TextConstraint | null;
}

/** How a head ended. */
export type HeadStopReason = "marker" | "forced" | "maxTokens" | "noValidToken";

/** The decoded head. */
export interface HeadOutcome {
  name: string;
  /** The value, stop marker stripped. */
  text: string;
  /** Ended by `<|null|>`: no value. */
  isNull: boolean;
  /** The stop marker that ended it, if any. */
  marker: string | null;
  stoppedBy: HeadStopReason;
  /** Every token of the head after its tag, forced ones and the stop marker included. */
  tokenIds: number[];
  /** Of `tokenIds`, how many were emitted without a forward pass. */
  forcedTokens: number;
  /** Times the head started over because a narrowed constraint ruled out what it had written. */
  restarts: number;
}

/** Input of {@link decodeHeads}. */
export interface DecodeHeadsInput {
  runtime: DecoderRuntime;
  vocab: VocabIndex;
  /** KV of the first `past.length` prompt tokens (from the prefix cache, or empty). */
  past: KvState;
  /** The prompt tokens not in `past`; prefilled by the first step together with the head tags. */
  pending: readonly number[];
  heads: readonly HeadPlan[];
  /** Generated tokens per head, not counting forced ones. */
  maxTokens: number;
  /** 0 (default) is greedy. */
  temperature?: number;
  /** Seed of sampling at temperature > 0; each head draws from its own stream. */
  seed?: number;
  /** Emit forced continuations without forward passes (default true). */
  skipForced?: boolean;
  /**
   * The whole prompt (`past` and `pending` together), where drafts are looked up; drafting is
   * off without it.
   */
  promptIds?: readonly number[];
  /**
   * Tokens drafted per head and pass from the prompt (prompt-lookup decoding); default 0 (off).
   * Greedy decoding only: at temperature > 0 nothing is drafted.
   */
  draftTokens?: number;
  /**
   * Called when a head finishes; returns new constraints for other heads (e.g. the arg heads
   * once the function is known), or null. A head whose text the new constraint rules out starts
   * over; a finished head whose value it rules out is decoded again.
   */
  refine?: (finished: HeadOutcome) => ReadonlyMap<string, TextConstraint | null> | null;
  /** Heads finishing before this one are reported only after it (their values may still change). */
  holdReportsUntil?: string;
  /** Each head once, as it finishes for good. */
  onHeadDone?: (head: HeadOutcome) => void;
}

/** Output of {@link decodeHeads}. */
export interface DecodeHeadsResult {
  /** In the order of `input.heads`. */
  heads: HeadOutcome[];
  /** Forward passes run. */
  steps: number;
  /** KV of the whole prompt when `pending` was not empty (for the prefix cache), else null. */
  promptKv: KvState | null;
  /** Time of the first forward pass (the pending prompt tokens and the head tags). */
  firstStepMs: number;
  /** Time after the first forward pass. */
  restMs: number;
  /** Drafted tokens fed, and of them those kept (see `draftTokens`). */
  drafts: { fed: number; kept: number };
}

interface Branch {
  plan: HeadPlan;
  constraint: TextConstraint | null;
  ids: number[];
  text: string;
  /** KV columns of this branch's tokens (after the prompt). */
  columns: number[];
  /** Tokens to feed in the next step. */
  feed: number[];
  live: boolean;
  outcome: HeadOutcome | null;
  forcedTokens: number;
  restarts: number;
  reported: boolean;
  random: () => number;
}

/** Bad decode input (caller error, not model behaviour). */
export class DecodeInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = "DecodeInputError";
  }
}

function nameSeed(seed: number, name: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * Decodes every head of `input.heads` in parallel on one shared prompt KV and returns each head's
 * text. Each head's tokens are exactly those of decoding that head alone from the same prompt.
 *
 * @example
 * ```ts
 * const { heads, steps } = await decodeHeads({
 *   runtime, vocab, past: runtime.emptyKv(), pending: promptIds, maxTokens: 32,
 *   heads: [{ name: "function", tagIds: [fnTag], stops, constraint: null }],
 * });
 * ```
 */
export async function decodeHeads(input: DecodeHeadsInput): Promise<DecodeHeadsResult> {
  const { runtime, vocab, maxTokens } = input;
  const temperature = input.temperature ?? 0;
  const skipForced = input.skipForced ?? true;
  const seed = input.seed ?? 0;
  if (!(maxTokens >= 1)) throw new DecodeInputError("maxTokens", `must be >= 1, got ${maxTokens}`);
  if (!(temperature >= 0)) throw new DecodeInputError("temperature", `must be >= 0, got ${temperature}`);
  const draftTokens = input.draftTokens ?? 0;
  if (!(Number.isInteger(draftTokens) && draftTokens >= 0))
    throw new DecodeInputError("draftTokens", `must be a non-negative integer, got ${draftTokens}`);
  const drafting = draftTokens > 0 && temperature === 0 && input.promptIds !== undefined;
  const drafts = { fed: 0, kept: 0 };
  const promptLength = input.past.length + input.pending.length;

  const branches: Branch[] = input.heads.map((plan, i) => {
    if (plan.tagIds.length === 0)
      throw new DecodeInputError(`heads[${i}].tagIds`, "a head needs its tag tokens");
    return {
      plan,
      constraint: plan.constraint,
      ids: [],
      text: "",
      columns: [],
      feed: [...plan.tagIds],
      live: true,
      outcome: null,
      forcedTokens: 0,
      restarts: 0,
      reported: false,
      random: seededRandom(nameSeed(seed, plan.name)),
    };
  });
  const byName = new Map(branches.map((b) => [b.plan.name, b]));
  let holding = input.holdReportsUntil !== undefined && byName.has(input.holdReportsUntil);

  const report = () => {
    if (!input.onHeadDone) return;
    for (const b of branches) {
      if (b.live || b.reported || (holding && b.plan.name !== input.holdReportsUntil)) continue;
      b.reported = true;
      input.onHeadDone(b.outcome!);
    }
  };

  const restart = (b: Branch) => {
    b.ids = [];
    b.text = "";
    b.columns = [];
    b.feed = [...b.plan.tagIds];
    b.live = true;
    b.outcome = null;
    b.forcedTokens = 0;
    b.restarts++;
  };

  const finish = (
    b: Branch,
    done: Omit<DoneText, "kind"> | null,
    value: string,
    stoppedBy: HeadStopReason,
  ) => {
    b.live = false;
    b.feed = [];
    b.outcome = {
      name: b.plan.name,
      text: done ? done.value : value,
      isNull: done ? done.isNull : false,
      marker: done ? done.marker : null,
      stoppedBy,
      tokenIds: b.ids,
      forcedTokens: b.forcedTokens,
      restarts: b.restarts,
    };
    if (input.refine) {
      const updates = input.refine(b.outcome);
      if (updates) for (const [name, constraint] of updates) applyConstraint(name, constraint);
    }
    if (holding && b.plan.name === input.holdReportsUntil) holding = false;
  };

  /** Emits what the constraint forces from `state`, if anything; true when the head finished. */
  const finishIfForced = (b: Branch, state: HeadTextState): boolean => {
    if (!skipForced || state.kind !== "open") return false;
    const done = forcedEnding(state, b.constraint, b.plan.stops);
    if (!done) return false;
    const suffix = (done.value + done.marker).slice(b.text.length);
    const forced = suffix.length > 0 ? vocab.vocab.encode(suffix) : [];
    b.ids.push(...forced);
    b.forcedTokens += forced.length;
    b.text += suffix;
    finish(b, done, done.value, "forced");
    return true;
  };

  const applyConstraint = (name: string, constraint: TextConstraint | null) => {
    const b = byName.get(name);
    if (!b) return;
    b.constraint = constraint;
    if (b.live) {
      let state = classifyHeadText(b.text, constraint, b.plan.stops);
      if (state.kind === "rejected") {
        restart(b);
        state = classifyHeadText("", constraint, b.plan.stops);
      }
      finishIfForced(b, state);
      return;
    }
    const outcome = b.outcome!;
    if (!constraint) return;
    const stillValid = outcome.isNull
      ? constraint.allowsNull
      : outcome.stoppedBy !== "noValidToken" && constraint.isComplete(outcome.text);
    if (stillValid) return;
    restart(b);
    finishIfForced(b, classifyHeadText("", constraint, b.plan.stops));
  };

  const allowedFor = (b: Branch): AllowedTokens | null => {
    const constraint = b.constraint;
    if (!constraint) return null;
    const ok = (text: string) => classifyHeadText(text, constraint, b.plan.stops).kind !== "rejected";
    return {
      // A token without text (ids a model pads its vocabulary with) makes no progress.
      allows: (id) => {
        const text = vocab.text(id);
        return text !== "" && ok(b.text + text);
      },
      all: () => vocab.acceptedTokens(b.text, ok),
    };
  };

  /** The prompt tokens that followed the branch's last tokens, cut where its constraint or stop says. */
  const draftFor = (b: Branch): number[] => {
    if (!drafting || b.ids.length === 0) return [];
    const guess = draftFromPrompt(input.promptIds!, [...b.plan.tagIds, ...b.ids], { maxTokens: draftTokens });
    const kept: number[] = [];
    let text = b.text;
    for (const id of guess) {
      const piece = vocab.text(id);
      if (piece === "") break;
      text += piece;
      const state = classifyHeadText(text, b.constraint, b.plan.stops);
      if (state.kind === "rejected") break;
      kept.push(id);
      if (state.kind === "done") break;
    }
    // the head's generation budget bounds the draft as well
    return kept.slice(0, Math.max(0, maxTokens - (b.ids.length - b.forcedTokens)));
  };

  for (const b of branches) {
    if (b.live) finishIfForced(b, classifyHeadText("", b.constraint, b.plan.stops));
  }
  report();

  let kv = input.past;
  let promptKv: KvState | null = null;
  let steps = 0;
  let firstStepMs = 0;
  const started = performance.now();
  /**
   * Each branch fed in a step: its first logits row (its last fed token; the rows of its draft
   * follow), the draft, where the draft's KV columns start among the branch's, and its restart
   * count when fed (a restart voids the rows).
   */
  interface Fed {
    branch: Branch;
    firstRow: number;
    draft: number[];
    draftColumn: number;
    restarts: number;
  }
  const fedBranches: Fed[] = [];
  while (true) {
    const tokenIds: number[] = [];
    const positions: number[] = [];
    const maskRows: MaskRow[] = [];
    const logitRows: number[] = [];
    fedBranches.length = 0;
    const pending = steps === 0 ? input.pending : [];
    for (let i = 0; i < pending.length; i++) {
      tokenIds.push(pending[i]);
      positions.push(input.past.length + i);
      maskRows.push({ visiblePrefix: kv.length + i, ownColumns: [] });
    }
    /** Appends one token of branch `b` after its own tokens; `withLogits` asks for its row. */
    const feedToken = (b: Branch, token: number, withLogits: boolean) => {
      if (withLogits) logitRows.push(tokenIds.length);
      maskRows.push({ visiblePrefix: promptLength, ownColumns: b.columns.slice() });
      b.columns.push(kv.length + tokenIds.length);
      positions.push(promptLength + b.columns.length - 1);
      tokenIds.push(token);
    };
    for (const b of branches) {
      if (!b.live || b.feed.length === 0) continue;
      const draft = draftFor(b);
      const fed: Fed = { branch: b, firstRow: logitRows.length, draft, draftColumn: 0, restarts: b.restarts };
      // logits only after the last fed token (a tag's earlier tokens need none)
      for (let i = 0; i < b.feed.length; i++) feedToken(b, b.feed[i], i === b.feed.length - 1);
      fed.draftColumn = b.columns.length;
      for (const token of draft) feedToken(b, token, true);
      drafts.fed += draft.length;
      b.feed = [];
      fedBranches.push(fed);
    }
    if (fedBranches.length === 0) break;
    const stepStarted = performance.now();
    const { logits, present } = await runtime.step({
      tokenIds,
      positions,
      attentionMask: buildStepMask(kv.length, maskRows),
      past: kv,
      logitRows,
    });
    if (steps === 0) {
      firstStepMs = performance.now() - stepStarted;
      if (pending.length > 0) promptKv = runtime.sliceKv(present, promptLength);
    }
    steps++;
    kv = present;
    const width = runtime.config.vocabSize;
    for (const fed of fedBranches) {
      const b = fed.branch;
      if (!b.live || b.restarts !== fed.restarts) continue; // finished or restarted by a refinement
      // row i holds the logits after the draft's first i tokens; a drafted token is kept when it
      // is the token chosen from the row before it, and its KV is then already in place
      for (let i = 0; i <= fed.draft.length; i++) {
        const r = fed.firstRow + i;
        const row = logits.subarray(r * width, (r + 1) * width);
        const allowed = allowedFor(b);
        const token =
          temperature > 0 ? chooseSampled(row, temperature, b.random, allowed) : chooseGreedy(row, allowed);
        if (token < 0) {
          const state = classifyHeadText(b.text, b.constraint, b.plan.stops);
          finish(b, null, state.kind === "open" ? state.value : b.text, "noValidToken");
          break;
        }
        b.ids.push(token);
        b.text = vocab.vocab.decode(b.ids);
        const drafted = i < fed.draft.length && fed.draft[i] === token;
        if (drafted) drafts.kept++;
        const state = classifyHeadText(b.text, b.constraint, b.plan.stops);
        if (state.kind === "done") finish(b, state, state.value, "marker");
        else if (state.kind === "rejected") finish(b, null, b.text, "noValidToken");
        else if (b.ids.length - b.forcedTokens >= maxTokens) finish(b, null, state.value, "maxTokens");
        else if (finishIfForced(b, state)) {
          // finished by its constraint
        } else if (drafted) {
          continue;
        } else {
          // the rest of the draft is not what the head writes: its KV columns are left unseen
          b.columns.length = fed.draftColumn + i;
          b.feed = [token];
        }
        break;
      }
    }
    report();
  }
  report();
  const total = performance.now() - started;
  return {
    heads: branches.map((b) => b.outcome!),
    steps,
    promptKv,
    firstStepMs,
    restMs: Math.max(0, total - firstStepMs),
    drafts,
  };
}
