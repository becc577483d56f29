/**
 * Teacher forcing for benchmarks and tests on random weights: wraps a real runtime, runs every
 * step unchanged (same work), and lifts the logit of a scripted next token per head far above
 * the rest, so each head spells a fixed expected value as a trained model would.
 */
import type { DecoderRuntime, KvState, StepInput, StepOutput } from "../../runtime/types";

/** One head's script: its tag tokens and the tokens it must produce after them. */
export interface HeadScript {
  tagIds: readonly number[];
  continuation: readonly number[];
}

const LIFT = 1e4;

/**
 * A {@link DecoderRuntime} that follows head scripts. Call {@link TeacherForcedRuntime.expect}
 * with the prompt length before each decode: a logits row whose visible tokens after the prompt
 * start with a script's tag gets that script's next token lifted.
 *
 * @example
 * ```ts
 * const forced = new TeacherForcedRuntime(model.runtime);
 * forced.expect(promptIds.length, [{ tagIds: fnTag, continuation: tokenizer.encode("move</function>") }]);
 * await decodeHeads({ runtime: forced, ... }); // the function head says "move"
 * ```
 */
export class TeacherForcedRuntime implements DecoderRuntime {
  private promptLength = Number.POSITIVE_INFINITY;
  private scripts: readonly HeadScript[] = [];
  /** Token and position of every KV column written by this runtime's steps. */
  private columnTokens: number[] = [];
  private columnPositions: number[] = [];

  constructor(readonly inner: DecoderRuntime) {}

  get config() {
    return this.inner.config;
  }

  get provider() {
    return this.inner.provider;
  }

  /** Scripts for the next decode over a prompt of `promptLength` tokens. */
  expect(promptLength: number, scripts: readonly HeadScript[]): void {
    this.promptLength = promptLength;
    this.scripts = scripts;
  }

  async step(input: StepInput): Promise<StepOutput> {
    const out = await this.inner.step(input);
    const past = input.past.length;
    const q = input.tokenIds.length;
    const total = past + q;
    for (let i = 0; i < q; i++) {
      this.columnTokens[past + i] = input.tokenIds[i];
      this.columnPositions[past + i] = input.positions[i];
    }
    const rows = input.logitRows ? Array.from(input.logitRows) : [q - 1];
    const vocab = this.config.vocabSize;
    rows.forEach((row, r) => {
      // The branch: visible columns at positions past the prompt, in position order.
      const branch: { position: number; token: number }[] = [];
      for (let c = 0; c < total; c++) {
        const visible = input.attentionMask ? input.attentionMask[row * total + c] === 0 : c <= past + row;
        if (visible && this.columnPositions[c] >= this.promptLength) {
          branch.push({ position: this.columnPositions[c], token: this.columnTokens[c] });
        }
      }
      branch.sort((a, b) => a.position - b.position);
      const script = this.scripts.find(
        (s) => s.tagIds.length <= branch.length && s.tagIds.every((t, k) => branch[k].token === t),
      );
      const next = script?.continuation[branch.length - script.tagIds.length];
      if (next !== undefined) out.logits[r * vocab + next] += LIFT;
    });
    return out;
  }

  emptyKv(): KvState {
    return this.inner.emptyKv();
  }

  sliceKv(kv: KvState, length: number): KvState {
    return this.inner.sliceKv(kv, length);
  }

  kvBytes(kv: KvState): number {
    return this.inner.kvBytes(kv);
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}
