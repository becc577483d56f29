/**
 * One head as a branch of the decode tree: a fork of the prompt's sequence, whose tokens no
 * other branch sees. A branch restarts from its tag when a narrowed constraint
 * rules out what it wrote.
 */
import type { SequenceId } from "../../batch/sequence-batch";
import type { TextConstraint } from "../head-text";
import { seededRandom } from "../token-choice";
import { DecodeInputError, type HeadOutcome, type HeadPlan } from "./types";

/** The decoding state of one head. */
export interface Branch {
  plan: HeadPlan;
  constraint: TextConstraint | null;
  ids: number[];
  text: string;
  /** Its sequence, a fork of the prompt's (0 until the decoder opens it). */
  seq: SequenceId;
  /** Of its tokens after the prompt (tag included), how many hold KV that later tokens see. */
  kvTokens: number;
  /** Tokens to feed in the next step. */
  feed: number[];
  live: boolean;
  outcome: HeadOutcome | null;
  forcedTokens: number;
  restarts: number;
  reported: boolean;
  random: () => number;
}

/**
 * A branch for each head, to be fed its tag first. Each head samples from its own seeded
 * stream (by name), so a head's tokens do not depend on which other heads run beside it.
 */
export function openBranches(heads: readonly HeadPlan[], seed: number): Branch[] {
  return heads.map((plan, i) => {
    if (plan.tagIds.length === 0)
      throw new DecodeInputError(`heads[${i}].tagIds`, "a head needs its tag tokens");
    return {
      plan,
      constraint: plan.constraint,
      ids: [],
      text: "",
      seq: 0,
      kvTokens: 0,
      feed: [...plan.tagIds],
      live: true,
      outcome: null,
      forcedTokens: 0,
      restarts: 0,
      reported: false,
      random: seededRandom(nameSeed(seed, plan.name)),
    };
  });
}

/** Back to the branch's tag: what it wrote is dropped, its constraint kept. */
export function restartBranch(b: Branch): void {
  b.ids = [];
  b.text = "";
  b.kvTokens = 0;
  b.feed = [...b.plan.tagIds];
  b.live = true;
  b.outcome = null;
  b.forcedTokens = 0;
  b.restarts++;
}

function nameSeed(seed: number, name: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
