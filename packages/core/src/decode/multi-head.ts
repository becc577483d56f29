/**
 * The tree-batched multi-head decode loop, as a client of the sequence batch (core/batch). The
 * prompt is one sequence; every head is a fork of it whose tokens sit at positions n, n+1, ...
 * after the prompt, and one step per pass advances every live fork (the batch runs them as one
 * forward pass under a mask that lets a fork see the prompt and its own tokens only). Finished
 * heads leave the step at once; tokens a constraint forces are emitted without a forward pass;
 * with prompt-lookup drafts a head may also advance by several tokens in one pass (drafts greedy
 * decoding would not have chosen are dropped, so output is unchanged).
 *
 * The steps live under `heads/`: branch (`branch.ts`), feed (`feed.ts`), step (the sequence
 * batch), collect (`collect.ts`), constrain and stop (`head-set.ts`).
 */
import { SequenceBatch, type SequenceId } from "../batch/sequence-batch";
import { collectBranch } from "./heads/collect";
import { feedBranches } from "./heads/feed";
import { HeadSet } from "./heads/head-set";
import { decodeSettings } from "./heads/settings";
import type { DecodeHeadsInput, DecodeHeadsResult, HeadForksInput } from "./heads/types";

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
  const { runtime, past, pending, ...heads } = input;
  const engine = new SequenceBatch(runtime);
  const prompt = engine.open(pending, { past, keepKv: true });
  try {
    return await decodeHeadForks(engine, prompt, heads);
  } finally {
    engine.release(prompt);
  }
}

/**
 * Decodes every head of `input.heads` as a fork of the sequence `prompt` of `engine` (whose
 * tokens not yet computed are prefilled by the first pass, with the head tags), and returns
 * each head's text. The forks are released at the end; `prompt` stays the caller's.
 *
 * @example
 * ```ts
 * const engine = new SequenceBatch(runtime, { prefixCache });
 * const prompt = engine.open(promptIds, { keepKv: true });
 * const { heads } = await decodeHeadForks(engine, prompt, { vocab, heads: plans, maxTokens: 16 });
 * engine.release(prompt);
 * ```
 */
export async function decodeHeadForks(
  engine: SequenceBatch,
  prompt: SequenceId,
  input: HeadForksInput,
): Promise<DecodeHeadsResult> {
  const promptLength = engine.info(prompt).length;
  const settings = decodeSettings(input, promptLength);
  // branch: one fork per head, fed its tag; heads whose constraint forces the value need no pass
  const heads = new HeadSet(input, settings);
  heads.forceOpenings();
  heads.report();
  for (const b of heads.branches) b.seq = engine.open([], { parent: prompt });

  const drafts = { fed: 0, kept: 0 };
  // the prompt's uncomputed tokens ride along in the first pass
  let fedTokens = engine.info(prompt).pending;
  let steps = 0;
  let firstStepMs = 0;
  const batch = { waitMs: 0, passMs: 0, sharedSteps: 0 };
  const started = performance.now();
  try {
    while (true) {
      // feed: the live branches' tokens (the first pass also prefills the prompt's pending tokens)
      const feed = feedBranches(heads.branches, promptLength, (b) => heads.draftFor(b));
      if (feed.fed.length === 0) break;
      for (const fed of feed.fed) drafts.fed += fed.draft.length;
      for (const step of feed.steps) fedTokens += step.tokens.length;
      const stepStarted = performance.now();
      const { logits, timing } = await engine.step(feed.steps);
      const stepMs = performance.now() - stepStarted;
      // A batching runtime says how much of the step was waiting; a plain session's is all pass.
      batch.waitMs += timing?.waitMs ?? 0;
      batch.passMs += timing?.passMs ?? stepMs;
      if ((timing?.requests ?? 1) > 1) batch.sharedSteps++;
      if (steps === 0) firstStepMs = stepMs;
      steps++;
      // collect: choose, constrain and stop each fed branch
      feed.fed.forEach((fed, i) => {
        drafts.kept += collectBranch(fed, logits[i]!, heads, input, settings);
      });
      heads.report();
    }
  } finally {
    for (const b of heads.branches) engine.release(b.seq);
  }
  heads.report();
  const total = performance.now() - started;
  return {
    heads: heads.outcomes(),
    steps,
    promptKv: engine.kvOf(prompt),
    firstStepMs,
    restMs: Math.max(0, total - firstStepMs),
    drafts,
    fedTokens,
    batch,
  };
}
