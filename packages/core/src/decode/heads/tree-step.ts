/**
 * Lays out one forward pass of the decode tree. The first pass prefills the prompt tokens not in
 * the cache (causal over the cache and each other); then every live branch appends the tokens it
 * must feed (its tag, or its last chosen token) and any draft after its own earlier tokens, at
 * positions right after the prompt, under mask rows that see the prompt and that branch only.
 */
import type { MaskRow } from "../../batch/tree-mask";
import type { Branch } from "./branch";

/**
 * A branch fed in a step: its first logits row (its last fed token; the rows of its draft
 * follow), the draft, where the draft's KV columns start among the branch's, and its restart
 * count when fed (a restart voids the rows).
 */
export interface FedBranch {
  branch: Branch;
  firstRow: number;
  draft: number[];
  draftColumn: number;
  restarts: number;
}

/** The rows of one pass, ready for `buildStepMask` and `runtime.step`. */
export interface TreeStep {
  tokenIds: number[];
  positions: number[];
  maskRows: MaskRow[];
  logitRows: number[];
  fed: FedBranch[];
}

/** Where the pass sits: the KV it extends and the prompt it decodes after. */
export interface TreeStepPlace {
  /** Positions in the KV the pass extends. */
  kvLength: number;
  /** Prompt tokens to prefill in this pass (the first pass's `pending`; later ones none). */
  prefill: readonly number[];
  /** Tokens of the whole prompt. */
  promptLength: number;
}

/**
 * The rows of the next pass: the prefill, then each live branch's feed and draft. Feeding moves
 * a branch's `feed` into the step (and its KV columns into `columns`). No `fed` means the decode
 * is over.
 *
 * @example
 * ```ts
 * const step = buildTreeStep({ kvLength: kv.length, prefill: pending, promptLength }, heads.branches, (b) => []);
 * runtime.step({ ...step, attentionMask: buildStepMask(kv.length, step.maskRows), past: kv });
 * ```
 */
export function buildTreeStep(
  place: TreeStepPlace,
  branches: readonly Branch[],
  draftFor: (b: Branch) => number[],
): TreeStep {
  const { kvLength, prefill, promptLength } = place;
  const step: TreeStep = { tokenIds: [], positions: [], maskRows: [], logitRows: [], fed: [] };
  // The prefilled prompt is the cached prompt's continuation: the pass extends it at the KV's end.
  for (let i = 0; i < prefill.length; i++) {
    step.tokenIds.push(prefill[i]!);
    step.positions.push(kvLength + i);
    step.maskRows.push({ visiblePrefix: kvLength + i, ownColumns: [] });
  }
  /** Appends one token of branch `b` after its own tokens; `withLogits` asks for its row. */
  const feedToken = (b: Branch, token: number, withLogits: boolean) => {
    if (withLogits) step.logitRows.push(step.tokenIds.length);
    step.maskRows.push({ visiblePrefix: promptLength, ownColumns: b.columns.slice() });
    b.columns.push(kvLength + step.tokenIds.length);
    step.positions.push(promptLength + b.columns.length - 1);
    step.tokenIds.push(token);
  };
  for (const b of branches) {
    if (!b.live || b.feed.length === 0) continue;
    const draft = draftFor(b);
    const fed: FedBranch = {
      branch: b,
      firstRow: step.logitRows.length,
      draft,
      draftColumn: 0,
      restarts: b.restarts,
    };
    // logits only after the last fed token (a tag's earlier tokens need none)
    for (let i = 0; i < b.feed.length; i++) feedToken(b, b.feed[i]!, i === b.feed.length - 1);
    fed.draftColumn = b.columns.length;
    for (const token of draft) feedToken(b, token, true);
    b.feed = [];
    step.fed.push(fed);
  }
  return step;
}
