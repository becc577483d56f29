/**
 * Feeds the live branches to the next pass: each branch is a fork of the prompt's sequence, and
 * appends the tokens it must feed (its tag, or its last chosen token) and any draft at its next
 * position. Where their KV goes and what each row sees is the sequence batch's (core/batch).
 */
import type { SequenceStep } from "../../batch/sequence-batch";
import type { Branch } from "./branch";

/**
 * A branch fed in a step: the draft after its fed tokens, how many of its tokens hold KV before
 * the draft, and its restart count when fed (a restart voids the logits).
 */
export interface FedBranch {
  branch: Branch;
  draft: number[];
  draftAt: number;
  restarts: number;
}

/** The sequence steps of one pass, and the branches they feed (in the same order). */
export interface BranchFeed {
  steps: SequenceStep[];
  fed: FedBranch[];
}

/**
 * The next pass's steps: each live branch's feed and draft, at the position after its tokens
 * that hold KV (earlier than its sequence's end when a draft was cut or the branch restarted).
 * Feeding moves a branch's `feed` into the step. No `fed` means the decode is over.
 *
 * @example
 * ```ts
 * const { steps, fed } = feedBranches(heads.branches, promptLength, (b) => heads.draftFor(b));
 * const { logits } = await engine.step(steps); // logits[i] belongs to fed[i]
 * ```
 */
export function feedBranches(
  branches: readonly Branch[],
  promptLength: number,
  draftFor: (b: Branch) => number[],
): BranchFeed {
  const feed: BranchFeed = { steps: [], fed: [] };
  for (const b of branches) {
    if (!b.live || b.feed.length === 0) continue;
    const draft = draftFor(b);
    // logits after the last fed token (a tag's earlier tokens need none) and after each drafted one
    feed.steps.push({
      seq: b.seq,
      tokens: [...b.feed, ...draft],
      position: promptLength + b.kvTokens,
      logits: draft.length + 1,
    });
    b.kvTokens += b.feed.length;
    feed.fed.push({ branch: b, draft, draftAt: b.kvTokens, restarts: b.restarts });
    b.kvTokens += draft.length;
    b.feed = [];
  }
  return feed;
}
