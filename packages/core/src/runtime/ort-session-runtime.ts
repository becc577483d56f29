/**
 * The ONNX Runtime side of {@link DecoderRuntime}, written once for every ONNX Runtime package:
 * `onnxruntime-node` (`ort-runtime.ts`) and `onnxruntime-web` (`web-runtime.ts`) share this step,
 * its input checks and its KV handling, and differ only in how tensors and sessions are made.
 * Inputs are handed to ONNX Runtime as views of the caller's arrays (no copy). Over rtool's graph,
 * which returns only the new rows' keys and values, the present is a view of the past and those
 * rows ({@link appendKv}); over a graph that returns whole presents, they are the present as they are.
 */
import { QWEN_IO } from "../graph/qwen";
import type { QwenConfig } from "../model/types";
import { RuntimeDisposedError, StepInputError } from "./errors";
import { causalMask, emptyKvState } from "./kv";
import { PassBuffers } from "./pass-buffers";
import { appendKv, copyLayer, kvPrefix, kvViewBytes, unmadeView } from "./split-kv";
import type { DecoderRuntime, KvState, StepInput, StepOutput } from "./types";

/** A tensor as this runtime reads it back: its data only. */
export interface OrtTensorLike {
  readonly data: unknown;
}

/** Makes the two tensor kinds the graph takes, with one ONNX Runtime package's `Tensor` class. */
export interface OrtTensorFactory {
  int64(data: BigInt64Array, dims: readonly number[]): OrtTensorLike;
  float32(data: Float32Array, dims: readonly number[]): OrtTensorLike;
}

/** What the runtime needs of an `InferenceSession` (both packages' sessions fit). */
export interface OrtSessionLike {
  /** The graph's outputs: `added.*` (new rows only) or `present.*` (whole presents). */
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OrtTensorLike>): Promise<Record<string, OrtTensorLike>>;
  release(): Promise<void>;
}

/** Non-negative integers below `limit`, as int64; `outside` words the error for one at or past it. */
function toInt64(
  values: ArrayLike<number>,
  field: string,
  limit: number,
  outside: (value: number) => string,
): BigInt64Array {
  const out = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isInteger(v) || v < 0)
      throw new StepInputError(field, `entry ${i} is ${v}, expected a non-negative integer`);
    if (v >= limit) throw new StepInputError(field, outside(v));
    out[i] = BigInt(v);
  }
  return out;
}

/**
 * Runs one Qwen decoder session of either ONNX Runtime package; use `OrtDecoderRuntime` (Node)
 * or `createWebRuntime` (browser) rather than this class.
 *
 * @example
 * ```ts
 * const tensors = { int64: (d, dims) => this.tensors.int64(d, dims), float32: (d, dims) => this.tensors.float32(d, dims) };
 * const runtime = new OrtSessionRuntime(config, session, "cpu", tensors);
 * const { logits, present } = await runtime.step({ tokenIds: [1, 2], positions: [0, 1], past: runtime.emptyKv() });
 * ```
 */
export class OrtSessionRuntime implements DecoderRuntime {
  private disposed = false;
  /** Whether the graph returns the new rows alone (`added.*`) rather than whole presents. */
  private readonly returnsAdded: boolean;
  /** Arrays that views' pasts were laid out in, free for the next step. */
  private readonly spareBuffers: PassBuffers[] = [];

  constructor(
    readonly config: QwenConfig,
    private readonly session: OrtSessionLike,
    readonly provider: "cpu" | "cuda",
    private readonly tensors: OrtTensorFactory,
  ) {
    this.returnsAdded = session.outputNames.includes(QWEN_IO.addedKey(0));
  }

  async step(input: StepInput): Promise<StepOutput> {
    if (this.disposed) throw new RuntimeDisposedError();
    const { numLayers, numKeyValueHeads: kvH, headDim, vocabSize } = this.config;
    const q = input.tokenIds.length;
    const past = input.past;
    const total = past.length + q;
    if (q === 0) throw new StepInputError("tokenIds", "at least one token is needed");
    if (input.positions.length !== q) {
      throw new StepInputError("positions", `has ${input.positions.length} entries for ${q} tokens`);
    }
    const ids = toInt64(
      input.tokenIds,
      "tokenIds",
      vocabSize,
      (id) => `id ${id} outside the vocabulary (${vocabSize})`,
    );
    const mask = input.attentionMask ?? causalMask(q, past.length);
    if (mask.length !== q * total) {
      throw new StepInputError("attentionMask", `has ${mask.length} entries, expected ${q} x ${total}`);
    }
    const rows = toInt64(input.logitRows ?? [q - 1], "logitRows", q, (r) => `row ${r} outside [0, ${q})`);
    // a view's layers are counted without making it contiguous
    const view = unmadeView(past);
    const pastLayers = view ? view.layerCount : past.keys.length;
    if (pastLayers !== numLayers || (!view && past.values.length !== numLayers)) {
      throw new StepInputError("past", `has ${pastLayers} layers, the model has ${numLayers}`);
    }

    // the graph's RoPE tables end at the model's context
    const maxPositions = this.config.maxPositionEmbeddings;
    const positions = toInt64(
      input.positions,
      "positions",
      maxPositions,
      (p) => `position ${p} is beyond the model's context (${maxPositions} positions)`,
    );
    const feeds: Record<string, OrtTensorLike> = {
      [QWEN_IO.inputIds]: this.tensors.int64(ids, [1, q]),
      [QWEN_IO.positionIds]: this.tensors.int64(positions, [1, q]),
      [QWEN_IO.attentionMask]: this.tensors.float32(mask, [1, 1, q, total]),
      [QWEN_IO.logitRows]: this.tensors.int64(rows, [rows.length]),
    };
    const pastDims = [1, kvH, past.length, headDim];
    const layerSize = kvH * past.length * headDim;
    // A view (a present of this graph, a cached prefix) is laid out into reused arrays rather
    // than made contiguous in fresh memory; concurrent steps each take their own set.
    const buffers = view ? (this.spareBuffers.pop() ?? new PassBuffers()) : null;
    const layerOf = (kind: "keys" | "values", l: number): Float32Array =>
      view && buffers
        ? copyLayer(view, kind, l, past.length, buffers.take(`${kind}${l}`, layerSize), kvH, headDim)
        : past[kind][l]!;
    let out: Record<string, OrtTensorLike>;
    try {
      for (let l = 0; l < numLayers; l++) {
        const keys = layerOf("keys", l);
        const values = layerOf("values", l);
        if (keys.length !== layerSize || values.length !== layerSize) {
          throw new StepInputError("past", `layer ${l} holds ${keys.length} floats, expected ${layerSize}`);
        }
        feeds[QWEN_IO.pastKey(l)] = this.tensors.float32(keys, pastDims);
        feeds[QWEN_IO.pastValue(l)] = this.tensors.float32(values, pastDims);
      }
      out = await this.session.run(feeds);
    } finally {
      if (buffers) this.spareBuffers.push(buffers);
    }
    const keys: Float32Array[] = [];
    const values: Float32Array[] = [];
    const keyName = this.returnsAdded ? QWEN_IO.addedKey : QWEN_IO.presentKey;
    const valueName = this.returnsAdded ? QWEN_IO.addedValue : QWEN_IO.presentValue;
    for (let l = 0; l < numLayers; l++) {
      keys.push(out[keyName(l)].data as Float32Array);
      values.push(out[valueName(l)].data as Float32Array);
    }
    const logits = out[QWEN_IO.logits].data as Float32Array;
    if (!this.returnsAdded) return { logits, present: { length: total, keys, values } };
    const added = { keys, values, total: q, kvHeads: kvH, headDim };
    return {
      logits,
      present: appendKv(past, added, 0, q, this.config),
      added: { length: q, keys, values },
    };
  }

  emptyKv(): KvState {
    return emptyKvState(this.config);
  }

  sliceKv(kv: KvState, length: number): KvState {
    return kvPrefix(kv, length, this.config);
  }

  kvBytes(kv: KvState): number {
    return kvViewBytes(kv);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.session.release();
  }
}
