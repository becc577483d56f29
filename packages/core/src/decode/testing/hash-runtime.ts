/**
 * Test doubles for the decoder: a `DecoderRuntime` whose logits are a pure function of the set of
 * (token, position) pairs a row attends to, and a small character vocabulary. Attention is
 * order-free over its keys, and so is this hash, so a tree-batched step must give exactly the
 * logits of running a branch alone: any masking or position mistake changes the hash.
 */
import type { QwenConfig } from "../../model/types";
import type { DecoderRuntime, KvState, StepInput, StepOutput } from "../../runtime/types";
import type { TokenVocab } from "../token-vocab";

function mix(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A `DecoderRuntime` with one layer, one KV head and headDim 2 holding (token, position). */
export class HashRuntime implements DecoderRuntime {
  readonly provider = "cpu" as const;
  readonly config: QwenConfig;
  /** Forward passes and rows fed, for assertions on batching. */
  steps = 0;
  rowsFed = 0;
  /** Extra logit added to chosen token ids, to steer the fake model (e.g. towards stop markers). */
  bias = new Map<number, number>();
  /**
   * Scripted continuations: a row that sees tag token `t` at position p and sits at position r
   * gets +100 on token `script.get(t)[r - p]`, so each head follows its script like a trained model.
   */
  script = new Map<number, readonly number[]>();

  constructor(
    readonly vocabSize: number,
    readonly maxPositions = 4096,
  ) {
    this.config = {
      architecture: "qwen3",
      vocabSize,
      hiddenSize: 2,
      intermediateSize: 2,
      numLayers: 1,
      numAttentionHeads: 1,
      numKeyValueHeads: 1,
      headDim: 2,
      ropeTheta: 10000,
      rmsNormEps: 1e-6,
      tieWordEmbeddings: true,
      maxPositionEmbeddings: maxPositions,
      attentionBias: false,
      qkNorm: true,
    };
  }

  async step(input: StepInput): Promise<StepOutput> {
    const q = input.tokenIds.length;
    const past = input.past;
    const total = past.length + q;
    const keys = new Float32Array(total * 2);
    keys.set(past.keys[0].subarray(0, past.length * 2));
    for (let i = 0; i < q; i++) {
      if (input.positions[i] >= this.maxPositions)
        throw new RangeError(`position ${input.positions[i]} too large`);
      keys[(past.length + i) * 2] = input.tokenIds[i];
      keys[(past.length + i) * 2 + 1] = input.positions[i];
    }
    const rows = input.logitRows ? Array.from(input.logitRows) : [q - 1];
    const logits = new Float32Array(rows.length * this.vocabSize);
    rows.forEach((row, r) => {
      let h = mix(keys[(past.length + row) * 2] * 7919 + keys[(past.length + row) * 2 + 1]);
      for (let c = 0; c < total; c++) {
        const visible = input.attentionMask
          ? input.attentionMask[row * total + c] === 0
          : c <= past.length + row;
        if (visible) h = (h + mix(keys[c * 2] * 104729 + keys[c * 2 + 1] * 31 + 1)) >>> 0;
      }
      let state = mix(h);
      for (let v = 0; v < this.vocabSize; v++) {
        state = mix(state + v);
        logits[r * this.vocabSize + v] = state / 4294967296 + (this.bias.get(v) ?? 0);
      }
      const rowPosition = keys[(past.length + row) * 2 + 1];
      for (let c = 0; c < total; c++) {
        const visible = input.attentionMask
          ? input.attentionMask[row * total + c] === 0
          : c <= past.length + row;
        const script = visible ? this.script.get(keys[c * 2]) : undefined;
        const next = script?.[rowPosition - keys[c * 2 + 1]];
        if (next !== undefined) logits[r * this.vocabSize + next] += 100;
      }
    });
    this.steps++;
    this.rowsFed += q;
    return { logits, present: { length: total, keys: [keys], values: [keys] } };
  }

  emptyKv(): KvState {
    return { length: 0, keys: [new Float32Array(0)], values: [new Float32Array(0)] };
  }

  sliceKv(kv: KvState, length: number): KvState {
    const keys = kv.keys[0].slice(0, length * 2);
    return { length, keys: [keys], values: [keys] };
  }

  kvBytes(kv: KvState): number {
    return kv.keys[0].byteLength * 2;
  }

  async dispose(): Promise<void> {}
}

/**
 * A vocabulary of fixed token texts; `encode` takes the longest token at each point (special
 * markers such as `</function>` are single tokens when listed).
 */
export class ListVocab implements TokenVocab {
  readonly size: number;
  private readonly ids = new Map<string, number>();
  private readonly longest: number;

  constructor(readonly texts: readonly string[]) {
    this.size = texts.length;
    texts.forEach((t, i) => {
      if (!this.ids.has(t)) this.ids.set(t, i);
    });
    this.longest = Math.max(...texts.map((t) => t.length));
  }

  id(text: string): number {
    const id = this.ids.get(text);
    if (id === undefined) throw new Error(`no token ${JSON.stringify(text)}`);
    return id;
  }

  tokenText(id: number): string {
    return this.texts[id];
  }

  decode(ids: readonly number[]): string {
    return ids.map((id) => this.texts[id]).join("");
  }

  encode(text: string): number[] {
    const out: number[] = [];
    let at = 0;
    while (at < text.length) {
      let found = -1;
      for (let len = Math.min(this.longest, text.length - at); len >= 1 && found < 0; len--) {
        found = this.ids.get(text.slice(at, at + len)) ?? -1;
        if (found >= 0) at += len;
      }
      if (found < 0) throw new Error(`cannot encode ${JSON.stringify(text.slice(at))}`);
      out.push(found);
    }
    return out;
  }
}
