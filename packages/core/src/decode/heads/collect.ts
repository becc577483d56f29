/**
 * Reads a pass's logits back into the branches fed in it: each branch chooses its next token
 * (greedy, or sampled from its own stream) among those its constraint allows, and is stopped or
 * fed again. Drafted tokens are verified on the way: row i holds the logits after the draft's
 * first i tokens, so a drafted token is kept when it is the token chosen from the row before it
 * (its KV is then already in place), and the first mismatch ends the branch's rows.
 */
import { classifyHeadText } from "../head-text";
import { chooseGreedy, chooseSampled } from "../token-choice";
import type { FedBranch } from "./feed";
import type { HeadSet } from "./head-set";
import type { DecodeSettings } from "./settings";
import type { HeadForksInput } from "./types";

/**
 * Applies the logits of one fed branch (its rows only: after its fed tokens, then after each
 * drafted one); returns how many of its drafted tokens were kept.
 *
 * @example
 * ```ts
 * fed.forEach((f, i) => { drafts.kept += collectBranch(f, logits[i], heads, input, settings); });
 * ```
 */
export function collectBranch(
  fed: FedBranch,
  logits: Float32Array,
  heads: HeadSet,
  input: HeadForksInput,
  settings: DecodeSettings,
): number {
  const b = fed.branch;
  if (!b.live || b.restarts !== fed.restarts) return 0; // finished or restarted by a refinement
  const width = logits.length / (fed.draft.length + 1);
  const { temperature } = settings;
  let kept = 0;
  for (let i = 0; i <= fed.draft.length; i++) {
    const row = heads.copyBiased(b, logits.subarray(i * width, (i + 1) * width));
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
    // the rest of the draft is not what the head writes: its next feed goes in its place
    b.kvTokens = fed.draftAt + i;
    b.feed = [token];
    break;
  }
  return kept;
}
