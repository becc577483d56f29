/**
 * One head as a branch of the decode tree: its tokens sit after the prompt, in KV columns of
 * their own, seen by no other branch. A branch restarts from its tag when a narrowed constraint
 * rules out what it wrote.
 */
import type { TextConstraint } from "../head-text";
import { seededRandom } from "../token-choice";
import { DecodeInputError, type HeadOutcome, type HeadPlan } from "./types";

/** The decoding state of one head. */
export interface Branch {
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
}

/** Back to the branch's tag: what it wrote is dropped, its constraint kept. */
export function restartBranch(b: Branch): void {
  b.ids = [];
  b.text = "";
  b.columns = [];
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
