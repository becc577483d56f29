/**
 * The tree-batched multi-head decode loop. The prompt is in the KV once; every head is a branch
 * whose tokens sit at positions n, n+1, ... after the prompt, and one forward pass per step
 * advances every live branch by one token under a mask that lets a branch see the prompt and its
 * own tokens only. Finished heads leave the batch at once; tokens a constraint forces are emitted
 * without a forward pass; with prompt-lookup drafts a head may also advance by several tokens
 * in one pass (drafts greedy decoding would not have chosen are dropped, so output is unchanged).
 *
 * The steps live under `heads/`: prefill and branch (`tree-step.ts`), step (the runtime),
 * collect (`collect.ts`), constrain and stop (`head-set.ts`).
 */

import { buildStepMask } from "../batch/tree-mask";
import type { KvState } from "../runtime/types";
import { collectBranch } from "./heads/collect";
import { HeadSet } from "./heads/head-set";
import { decodeSettings } from "./heads/settings";
import { buildTreeStep } from "./heads/tree-step";
import type { DecodeHeadsInput, DecodeHeadsResult } from "./heads/types";

// The public contract (HeadPlan, HeadOutcome, DecodeInputError, ...) is declared beside the steps.
export * from "./heads/types";

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
  const { runtime } = input;
  const settings = decodeSettings(input);
  const { promptLength } = settings;
  // branch: one per head, fed its tag; heads whose constraint forces the value need no pass
  const heads = new HeadSet(input, settings);
  heads.forceOpenings();
  heads.report();

  const drafts = { fed: 0, kept: 0 };
  let kv = input.past;
  let promptKv: KvState | null = null;
  let steps = 0;
  let firstStepMs = 0;
  const batch = { waitMs: 0, passMs: 0, sharedSteps: 0 };
  const started = performance.now();
  while (true) {
    // prefill (first pass only) and the live branches' feeds
    const prefill = steps === 0 ? input.pending : [];
    const step = buildTreeStep({ kvLength: kv.length, prefill, promptLength }, heads.branches, (b) =>
      heads.draftFor(b),
    );
    if (step.fed.length === 0) break;
    for (const fed of step.fed) drafts.fed += fed.draft.length;
    const stepStarted = performance.now();
    const { logits, present, timing } = await runtime.step({
      tokenIds: step.tokenIds,
      positions: step.positions,
      attentionMask: buildStepMask(kv.length, step.maskRows),
      past: kv,
      logitRows: step.logitRows,
    });
    const stepMs = performance.now() - stepStarted;
    // A batching runtime says how much of the step was waiting; a plain session's is all pass.
    batch.waitMs += timing?.waitMs ?? 0;
    batch.passMs += timing?.passMs ?? stepMs;
    if ((timing?.requests ?? 1) > 1) batch.sharedSteps++;
    if (steps === 0) {
      firstStepMs = stepMs;
      if (prefill.length > 0) promptKv = runtime.sliceKv(present, promptLength);
    }
    steps++;
    kv = present;
    // collect: choose, constrain and stop each fed branch
    for (const fed of step.fed) drafts.kept += collectBranch(fed, logits, heads, input, settings);
    heads.report();
  }
  heads.report();
  const total = performance.now() - started;
  return {
    heads: heads.outcomes(),
    steps,
    promptKv,
    firstStepMs,
    restMs: Math.max(0, total - firstStepMs),
    drafts,
    batch,
  };
}
