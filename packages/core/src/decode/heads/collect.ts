/**
 * Reads a pass's logits back into the branches fed in it: each branch chooses its next token
 * (greedy, or sampled from its own stream) among those its constraint allows, and is stopped or
 * fed again. Drafted tokens are verified on the way: row i holds the logits after the draft's
 * first i tokens, so a drafted token is kept when it is the token chosen from the row before it
 * (its KV is then already in place), and the first mismatch ends the branch's rows.
 */
import { classifyHeadText } from "../head-text";
import { chooseGreedy, chooseSampled } from "../token-choice";
import type { HeadSet } from "./head-set";
import type { DecodeSettings } from "./settings";
import type { FedBranch } from "./tree-step";
import type { DecodeHeadsInput } from "./types";

/**
 * Applies the logits of one fed branch; returns how many of its drafted tokens were kept.
 *
 * @example
 * ```ts
 * for (const fed of step.fed) drafts.kept += collectBranch(fed, logits, heads, input, settings);
 * ```
 */
export function collectBranch(
  fed: FedBranch,
  logits: Float32Array,
  heads: HeadSet,
  input: DecodeHeadsInput,
  settings: DecodeSettings,
): number {
  const b = fed.branch;
  if (!b.live || b.restarts !== fed.restarts) return 0; // finished or restarted by a refinement
  const width = input.runtime.config.vocabSize;
  const { temperature } = settings;
  let kept = 0;
  for (let i = 0; i <= fed.draft.length; i++) {
    const r = fed.firstRow + i;
    const row = logits.subarray(r * width, (r + 1) * width);
    const allowed = heads.allowedFor(b);
    const token =
      temperature > 0 ? chooseSampled(row, temperature, b.random, allowed) : chooseGreedy(row, allowed);
    if (token < 0) {
      heads.stopWithoutToken(b);
      break;
    }
    b.ids.push(token);
    b.text = input.vocab.vocab.decode(b.ids);
    const drafted = i < fed.draft.length && fed.draft[i] === token;
    if (drafted) kept++;
    if (heads.stopIfDone(b, classifyHeadText(b.text, b.constraint, b.plan.stops))) break;
    if (drafted) continue;
    // the rest of the draft is not what the head writes: its KV columns are left unseen
    b.columns.length = fed.draftColumn + i;
    b.feed = [token];
    break;
  }
  return kept;
}
