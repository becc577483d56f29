/**
 * What a decode step of a (possibly quantized) Qwen graph reads, what loading it costs in host
 * memory, and a random KV past to step over: shared by bench:quant and bench:roofline.
 */
import { readFileSync } from "node:fs";
import { totalmem } from "node:os";
import type { KvState, QwenConfig } from "../../packages/core/src/index";

/** A MatMulNBits block layout; `null` stands for float32. */
export interface BlockLayout {
  bits: number;
  blockSize: number;
}

/** Bytes one linear weight [out, in] occupies (codes, float32 scales, packed zero points). */
export function linearBytes(inF: number, outF: number, layout: BlockLayout | null): number {
  if (!layout) return inF * outF * 4;
  const { bits, blockSize } = layout;
  const blocks = Math.ceil(inF / blockSize);
  return outF * (blocks * ((blockSize * bits) / 8) + blocks * 4 + Math.ceil((blocks * bits) / 8));
}

/**
 * Weight bytes a decode step reads (every linear layer, the classifier, norms, biases) and all
 * held (plus the float embedding when the classifier is not that same tensor).
 */
export function stepWeightBytes(
  c: QwenConfig,
  linear: BlockLayout | null,
  classifier: BlockLayout | null,
): { perStep: number; held: number } {
  const q = c.numAttentionHeads * c.headDim;
  const kv = c.numKeyValueHeads * c.headDim;
  const perLayer =
    linearBytes(c.hiddenSize, q, linear) +
    2 * linearBytes(c.hiddenSize, kv, linear) +
    linearBytes(q, c.hiddenSize, linear) +
    2 * linearBytes(c.hiddenSize, c.intermediateSize, linear) + // gate, up
    linearBytes(c.intermediateSize, c.hiddenSize, linear) + // down
    4 * (2 * c.hiddenSize + (c.attentionBias ? q + 2 * kv : 0) + (c.qkNorm ? 2 * c.headDim : 0));
  const embedding = c.vocabSize * c.hiddenSize * 4;
  const classifierBytes = classifier ? linearBytes(c.hiddenSize, c.vocabSize, classifier) : embedding;
  const perStep = c.numLayers * perLayer + classifierBytes + 4 * c.hiddenSize;
  // the float embedding is held for the token lookup unless it doubles as the float classifier
  const embeddingHeld = c.tieWordEmbeddings && !classifier ? 0 : embedding;
  return { perStep, held: perStep + embeddingHeld };
}

/** MemAvailable of /proc/meminfo (half the total elsewhere). */
export function memAvailableBytes(): number {
  try {
    const line = readFileSync("/proc/meminfo", "utf8").match(/MemAvailable:\s+(\d+) kB/);
    if (line) return Number(line[1]) * 1024;
  } catch {}
  return totalmem() / 2;
}

/**
 * Peak host memory while a model is built and loaded: the graph in JS, ONNX Runtime's copy, and
 * its prepacked weights (float32 Gemm packs B; MatMulNBits packs its blocks).
 */
export function peakLoadEstimate(held: number, quantized: boolean): number {
  return quantized ? 2.5 * held : 3 * held;
}

/** A past of random keys and values: the step costs the same as after a real prefill, without one. */
export function randomPast(c: QwenConfig, length: number): KvState {
  const size = c.numKeyValueHeads * length * c.headDim;
  const fill = (seed: number) =>
    Float32Array.from({ length: size }, (_, i) => Math.sin(i * 0.37 + seed) * 0.5);
  return {
    length,
    keys: Array.from({ length: c.numLayers }, (_, l) => fill(l)),
    values: Array.from({ length: c.numLayers }, (_, l) => fill(l + 0.5)),
  };
}
