/**
 * The heads of one decode and the rules that end or change them: stop (a marker, the token
 * budget, no valid token, or a constraint that forces the rest), constrain (a finished head
 * narrows the others: a head whose text is ruled out starts over), and report (each head once,
 * when it is final). The forward passes are the loop's; this only keeps the heads' states.
 */

import { nullOnlyConstraint } from "../constraints/free-text";
import { biasCopiesFrom, type CopySource, trailingWord } from "../copy-bias";
import {
  classifyHeadText,
  type DoneText,
  forcedEnding,
  type HeadTextState,
  type TextConstraint,
} from "../head-text";
import { saidNameTokens } from "../name-parts";
import { draftFromPrompt } from "../prompt-lookup";
import { saysParameter } from "../said-values";
import type { AllowedTokens } from "../token-choice";
import { continuesUtf8, NO_BYTES, unfinishedCharacter } from "../utf8-bytes";
import { type Branch, openBranches, restartBranch } from "./branch";
import { RequestReading } from "./request-reading";
import type { DecodeSettings } from "./settings";
import type { HeadForksInput, HeadOutcome, HeadStopReason } from "./types";
import { type ValueClaim, weakerClaim, withoutValue } from "./value-claims";

/**
 * The nudge of the function head and enum arguments towards the names the command says in
 * words, as a multiple of the copy nudge (see `name-parts.ts`). rt-tiny's held-out requests
 * through rtool, function head only: x1 65.8 -> 66.2%, x2 66.8% (Flappy 58.4 -> 67.6%, families
 * 71.4 -> 71.5%), x3 67.3% but families 71.4%, avatar and ship lower; enums too at x2: 67.0%,
 * families 71.8%.
 */
const NAME_BIAS = 2;

/**
 * The nudge of an arg head away from the values the order gives other parameters by name
 * (`amount=5412` is not `x`), as a multiple of the copy nudge; and of an optional parameter the
 * order does not name, while it names others, towards `<|null|>`. rt-tiny's held-out requests
 * through rtool: away x2 69.5 -> 70.2% (families 73.2 -> 74.5%; the coined synthetic tools 42.0
 * -> 45.8%), with the null nudge x1 70.3% (75.4%), no scenario lower.
 */
const AWAY_BIAS = 2;
const UNSAID_NULL_BIAS = 1;
/**
 * The nudge of a free-text head's value markers where its text ends in a complete copy: a word
 * the request follows with punctuation (`Amiya(center`, `Amiya, use`), as a multiple of the copy
 * nudge. rt-tiny copied a roster's Chinese names and went on past them (`伊芙利特森朗`,
 * `Lappland瑶a`). Held-out 71.4 -> 71.6% (tower defense 64.5 -> 65.9%), copy set 228 -> 230 of
 * 339, other tables unchanged; x2 71.7%, no other table changed.
 */
const STOP_BIAS = 1;

/**
 * Every head of a decode, as branches.
 *
 * @example
 * ```ts
 * const heads = new HeadSet(input, decodeSettings(input, promptLength));
 * heads.forceOpenings(); // heads whose constraint leaves one value finish without a pass
 * ```
 */
export class HeadSet {
  readonly branches: Branch[];
  private readonly byName: Map<string, Branch>;
  /** Reports wait for `holdReportsUntil` to finish (earlier values may still change). */
  private holding: boolean;
  /** The request's turn, command and order, and what the order says for each constraint. */
  private readonly request: RequestReading;

  constructor(
    private readonly input: HeadForksInput,
    private readonly settings: DecodeSettings,
  ) {
    this.request = new RequestReading(input);
    this.branches = openBranches(input.heads, settings.seed);
    this.byName = new Map(this.branches.map((b) => [b.plan.name, b]));
    this.holding = input.holdReportsUntil !== undefined && this.byName.has(input.holdReportsUntil);
  }

  /** Finishes, before any pass, every head whose constraint forces its whole value. */
  forceOpenings(): void {
    for (const b of this.branches) {
      if (b.live) this.finishIfForced(b, classifyHeadText("", b.constraint, b.plan.stops));
    }
  }

  /** Tells `onHeadDone` of every head that finished since, unless reports are held. */
  report(): void {
    const { onHeadDone, holdReportsUntil } = this.input;
    if (!onHeadDone) return;
    for (const b of this.branches) {
      if (b.live || b.reported || (this.holding && b.plan.name !== holdReportsUntil)) continue;
      b.reported = true;
      onHeadDone(b.outcome!);
    }
  }

  /** The outcome of every head, in the order of `input.heads`. */
  outcomes(): HeadOutcome[] {
    return this.branches.map((b) => b.outcome!);
  }

  /**
   * Ends `b` if its text (classified as `state`) is done, ruled out, over budget or forced to a
   * single ending; true when it ended.
   */
  stopIfDone(b: Branch, state: HeadTextState): boolean {
    if (state.kind === "done") this.finish(b, state, state.value, "marker");
    else if (state.kind === "rejected") this.finish(b, null, b.text, "noValidToken");
    else if (b.ids.length - b.forcedTokens >= this.settings.maxTokens)
      this.finish(b, null, state.value, "maxTokens");
    else return this.finishIfForced(b, state);
    return true;
  }

  /** Ends `b` because no token its constraint allows is left. */
  stopWithoutToken(b: Branch): void {
    const state = classifyHeadText(b.text, b.constraint, b.plan.stops);
    this.finish(b, null, state.kind === "open" ? state.value : b.text, "noValidToken");
  }

  /**
   * `row` with the copy nudge for `b` (see `copy-bias.ts`): constrained heads that write free
   * text (or may, before the function is known) copy from the whole user turn, the command's
   * words half as much again (the roster names every operator, the order the one it means); the
   * function head and enum arguments from the command alone, the words the speaker said, and
   * twice the bias more towards the tools and values whose name's parts the order says (see
   * `name-parts.ts`); an arg head as much towards the number, yes/no or text the order gives its
   * parameter by name (`said-values.ts`) and the time or date it says in the parameter's form
   * (`said-times.ts`), away from the values it gives other parameters by name or another head
   * holds (`value-claims.ts`), and, for an optional parameter the order leaves unnamed while it
   * names others, towards `<|null|>`. Unconstrained decoding is left as it is.
   */
  copyBiased(b: Branch, row: Float32Array): Float32Array {
    const { copyBias } = this.settings;
    const constraint = b.constraint;
    const kind = constraint?.kind;
    if (copyBias === 0 || !constraint || kind === undefined) return row;
    const { turn, command, order } = this.request.sources();
    let out = row;
    const fromCommand = kind === "function" || kind === "enum";
    if (fromCommand || kind === "string" || kind === "union") {
      const tail = this.unfinishedTail(b);
      // The head's text ends in U+FFFD for a begun character; the nudge reads the text before it.
      const value = tail.length > 0 ? b.text.slice(0, -1) : b.text;
      const nudges = fromCommand
        ? ([[command, copyBias]] as const)
        : ([
            [turn, copyBias],
            [command, copyBias / 2],
          ] as const);
      out = biasCopiesFrom(row, value, nudges, tail);
      if (!fromCommand && tail.length === 0) out = this.biasCompleteCopy(b, value, row, out, turn);
    }
    // tools and enum values the order names in words, values it gives a parameter by name
    const said = this.request.saidFor(constraint);
    const tokens = said.size === 0 ? null : saidNameTokens(b.text, said, this.input.vocab);
    const others = this.request.othersFor(constraint);
    const away = others.size === 0 ? null : saidNameTokens(b.text, others, this.input.vocab);
    const nullId =
      b.text === "" &&
      constraint.allowsNull &&
      others.size > 0 &&
      !(constraint.parameters ?? []).some((p) => saysParameter(p, order))
        ? this.input.vocab.idOfText(b.plan.stops.null[0] ?? "")
        : undefined;
    if ((!tokens || tokens.size === 0) && (!away || away.size === 0) && nullId === undefined) return out;
    // into the copy the copy nudge made, if it made one: a row is copied at most once per step
    const nudged = out === row ? row.slice() : out;
    for (const [id, share] of tokens ?? []) nudged[id] = nudged[id]! + copyBias * NAME_BIAS * share;
    for (const [id, share] of away ?? [])
      if (!tokens?.has(id)) nudged[id] = nudged[id]! - copyBias * AWAY_BIAS * share;
    if (nullId !== undefined) nudged[nullId] = nudged[nullId]! + copyBias * UNSAID_NULL_BIAS;
    return nudged;
  }

  /** `out` (or a copy of `row`) with the head's value markers nudged where its text ends in a complete copy. */
  private biasCompleteCopy(
    b: Branch,
    value: string,
    row: Float32Array,
    out: Float32Array,
    turn: CopySource,
  ): Float32Array {
    // after a letter only: numbers are often computed, not copied
    const word = trailingWord(value);
    if (!/\p{L}$/u.test(word) || !turn.endsAtPunctuation(word)) return out;
    const nudged = out === row ? row.slice() : out;
    for (const marker of b.plan.stops.value) {
      const id = this.input.vocab.idOfText(marker);
      if (id !== undefined) nudged[id] = nudged[id]! + this.settings.copyBias * STOP_BIAS;
    }
    return nudged;
  }

  /** The bytes of a character `b`'s last tokens began and did not finish (see `unfinishedCharacter`). */
  private unfinishedTail(b: Branch): Uint8Array {
    const { vocab } = this.input;
    if (!vocab.hasBytes || !b.text.endsWith("\uFFFD")) return NO_BYTES;
    const parts: number[] = [];
    for (let i = b.ids.length - 1; i >= 0 && parts.length < 4; i--)
      parts.unshift(...(vocab.bytes(b.ids[i]!) ?? []));
    return unfinishedCharacter(Uint8Array.from(parts));
  }

  /** The tokens `b`'s constraint lets it write next, or null when unconstrained. */
  allowedFor(b: Branch): AllowedTokens | null {
    const constraint = b.constraint;
    if (!constraint) return null;
    const { vocab } = this.input;
    const ok = (text: string) => classifyHeadText(text, constraint, b.plan.stops).kind !== "rejected";
    // With token bytes known, the head's bytes stay valid UTF-8: a begun character is finished
    // (no marker until it is) and no token starts with a byte that continues nothing.
    const tail = this.unfinishedTail(b);
    const validUtf8 = vocab.hasBytes
      ? (id: number) => continuesUtf8(tail, vocab.bytes(id) ?? NO_BYTES)
      : () => true;
    return {
      // A token without text (ids a model pads its vocabulary with) makes no progress.
      allows: (id) => {
        const text = vocab.text(id);
        return text !== "" && validUtf8(id) && ok(b.text + text);
      },
      all: () => vocab.acceptedTokens(b.text, ok).filter(validUtf8),
    };
  }

  /** The prompt tokens that followed the branch's last tokens, cut where its constraint or stop says. */
  draftFor(b: Branch): number[] {
    const { drafting, draftTokens, maxTokens } = this.settings;
    if (!drafting || b.ids.length === 0) return [];
    const guess = draftFromPrompt(this.input.promptIds!, [...b.plan.tagIds, ...b.ids], {
      maxTokens: draftTokens,
    });
    const kept: number[] = [];
    let text = b.text;
    for (const id of guess) {
      const piece = this.input.vocab.text(id);
      if (piece === "") break;
      text += piece;
      const state = classifyHeadText(text, b.constraint, b.plan.stops);
      if (state.kind === "rejected") break;
      kept.push(id);
      if (state.kind === "done") break;
    }
    // the head's generation budget bounds the draft as well
    return kept.slice(0, Math.max(0, maxTokens - (b.ids.length - b.forcedTokens)));
  }

  private finish(
    b: Branch,
    done: Omit<DoneText, "kind"> | null,
    value: string,
    stoppedBy: HeadStopReason,
  ): void {
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
    if (this.input.refine) {
      const updates = this.input.refine(b.outcome);
      if (updates) for (const [name, constraint] of updates) this.constrain(name, constraint);
    }
    this.settleClaims();
    if (this.holding && b.plan.name === this.input.holdReportsUntil) this.holding = false;
  }

  /**
   * Once the function is known, two finished arg heads with one value: the weaker claim gives
   * it up (see `value-claims.ts`), to `<|null|>` where its parameter is optional, else to a
   * new decode without it. One pair at a time; the loser's own finish settles any next pair.
   */
  private settleClaims(): void {
    // with the nudges off (or no prompt to read the order from) the model's values stand
    if (this.settings.copyBias === 0) return;
    const fn = this.byName.get("function");
    if (!fn || fn.live || fn.outcome?.isNull) return;
    const held = this.branches.filter(
      (o) =>
        !o.live &&
        o.outcome !== null &&
        !o.outcome.isNull &&
        o.outcome.text.trim() !== "" &&
        o.constraint?.parameters?.length === 1 &&
        o.constraint.otherParameters !== undefined,
    );
    for (let i = 0; i < held.length; i++) {
      for (let j = i + 1; j < held.length; j++) {
        // a value may keep the one space a tokenizer glues to its first token
        const value = held[i]!.outcome!.text.trim();
        if (held[j]!.outcome!.text.trim() !== value) continue;
        const loser = weakerClaim(this.claimOf(held[i]!, value), this.claimOf(held[j]!, value));
        if (!loser) continue;
        const constraint = loser.constraint!;
        this.constrain(
          loser.plan.name,
          constraint.allowsNull ? nullOnlyConstraint : withoutValue(constraint, value),
        );
        return;
      }
    }
  }

  private claimOf(b: Branch, value: string): ValueClaim {
    const constraint = b.constraint!;
    const said = this.request.saidFor(constraint);
    return { branch: b, saidByName: (said.get(value) ?? 0) > 0, typed: constraint.kind !== "string" };
  }

  /** Emits what the constraint forces from `state`, if anything; true when the head finished. */
  private finishIfForced(b: Branch, state: HeadTextState): boolean {
    if (!this.settings.skipForced || state.kind !== "open") return false;
    const done = forcedEnding(state, b.constraint, b.plan.stops);
    if (!done) return false;
    const suffix = (done.value + done.marker).slice(b.text.length);
    const forced = suffix.length > 0 ? this.input.vocab.vocab.encode(suffix) : [];
    b.ids.push(...forced);
    b.forcedTokens += forced.length;
    b.text += suffix;
    this.finish(b, done, done.value, "forced");
    return true;
  }

  /**
   * Gives head `name` a new constraint: a live head whose text it rules out starts over, a
   * finished head whose value it rules out is decoded again.
   */
  private constrain(name: string, constraint: TextConstraint | null): void {
    const b = this.byName.get(name);
    if (!b) return;
    b.constraint = constraint;
    if (b.live) {
      let state = classifyHeadText(b.text, constraint, b.plan.stops);
      if (state.kind === "rejected") {
        restartBranch(b);
        state = classifyHeadText("", constraint, b.plan.stops);
      }
      this.finishIfForced(b, state);
      return;
    }
    const outcome = b.outcome!;
    if (!constraint) return;
    const stillValid = outcome.isNull
      ? constraint.allowsNull
      : outcome.stoppedBy !== "noValidToken" && constraint.isComplete(outcome.text);
    if (stillValid) return;
    restartBranch(b);
    this.finishIfForced(b, classifyHeadText("", constraint, b.plan.stops));
  }
}
