/**
 * `bun run bench:core`: what this machine and the runtime achieve, in one run.
 * Measures ONNX Runtime's memory read bandwidth and peak matmul FLOP/s here, then a decode step and
 * a prefill at two shapes built from random weights in memory (a tiny Qwen3 and the Qwen2.5-0.5B
 * shape), and compares each step with its roofline max(weight bytes / bandwidth, FLOPs / peak).
 * Writes bench/results/core.json and prints a table. A benchmark, not a test: no thresholds.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import {
  createModelFromWeights,
  type DecoderRuntime,
  type KvState,
  physicalCoreCount,
  type QwenConfig,
  randomQwenWeights,
  VERSION,
} from "../packages/core/src/index";
import { probeMachine } from "./lib/probes";
import { rooflineRatio, stepCost, treeMask } from "./lib/roofline";
import { BENCH_SHAPES } from "./lib/shapes";
import { loadAverage, timeIt } from "./lib/timing";

const PAST = 128; // cached prompt tokens under each decode step
const PREFILL = 128; // prompt tokens in the prefill measurement
const BATCH = 8; // tokens in one step, as with 8 heads of the multi-head decoder

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const ids = (n: number, vocab: number) => Array.from({ length: n }, (_, i) => (i * 7919 + 13) % vocab);

async function measureShape(name: string, config: QwenConfig, bandwidthGBs: number, peakGflops: number) {
  const t0 = performance.now();
  const model = await createModelFromWeights(config, randomQwenWeights(config, 1));
  const loadMs = performance.now() - t0;
  const rt: DecoderRuntime = model.runtime;
  const prompt = ids(PAST, config.vocabSize);
  const past: KvState = (await rt.step({ tokenIds: prompt, positions: range(0, PAST), past: rt.emptyKv() }))
    .present;

  const step1 = await timeIt(() => rt.step({ tokenIds: [42], positions: [PAST], past }), { budgetMs: 4000 });
  const stepBatch = await timeIt(
    () =>
      rt.step({
        tokenIds: ids(BATCH, config.vocabSize),
        positions: new Array(BATCH).fill(PAST),
        // each of the BATCH tokens sees the prefix and itself only (first step of independent heads)
        attentionMask: treeMask(BATCH, PAST),
        past,
        logitRows: range(0, BATCH),
      }),
    { budgetMs: 4000 },
  );
  const prefillIds = ids(PREFILL, config.vocabSize);
  const prefill = await timeIt(
    () => rt.step({ tokenIds: prefillIds, positions: range(0, PREFILL), past: rt.emptyKv() }),
    { warmup: 1, minRuns: 3, budgetMs: 6000 },
  );
  await model.dispose();

  const cost1 = stepCost(config, { q: 1, past: PAST, rows: 1 });
  const costBatch = stepCost(config, { q: BATCH, past: PAST, rows: BATCH });
  const costPrefill = stepCost(config, { q: PREFILL, past: 0, rows: 1 });
  const params = cost1.weightBytes / 4;
  return {
    name,
    config,
    linearAndClassifierParams: params,
    weightMB: cost1.weightBytes / 1e6,
    loadMs,
    decodeStep: {
      pastTokens: PAST,
      medianMs: step1.medianMs,
      minMs: step1.minMs,
      p90Ms: step1.p90Ms,
      tokensPerSecond: 1000 / step1.medianMs,
      boundMs: Math.max(cost1.weightBytes / (bandwidthGBs * 1e6), cost1.flops / (peakGflops * 1e6)),
      rooflineRatio: rooflineRatio(step1.medianMs, cost1, bandwidthGBs, peakGflops),
      bestRooflineRatio: rooflineRatio(step1.minMs, cost1, bandwidthGBs, peakGflops),
    },
    batchStep: {
      tokens: BATCH,
      medianMs: stepBatch.medianMs,
      minMs: stepBatch.minMs,
      vsSingle: stepBatch.medianMs / step1.medianMs,
      rooflineRatio: rooflineRatio(stepBatch.medianMs, costBatch, bandwidthGBs, peakGflops),
    },
    prefill: {
      tokens: PREFILL,
      medianMs: prefill.medianMs,
      minMs: prefill.minMs,
      tokensPerSecond: (PREFILL * 1000) / prefill.medianMs,
      gflops: costPrefill.flops / (prefill.medianMs * 1e6),
      rooflineRatio: rooflineRatio(prefill.medianMs, costPrefill, bandwidthGBs, peakGflops),
    },
  };
}

const fmt = (x: number, digits = 2) => x.toFixed(digits);

async function main() {
  const loadBefore = loadAverage();
  console.log(
    `rtool ${VERSION} bench:core — ${physicalCoreCount()} physical cores, load average ${fmt(loadBefore)}`,
  );
  const probe = await probeMachine();
  console.log(
    `bandwidth ${fmt(probe.bandwidthGBs, 1)} GB/s (median run ${fmt(probe.medianBandwidthGBs, 1)}), ` +
      `peak ${fmt(probe.peakGflops, 1)} GFLOP/s (median run ${fmt(probe.medianPeakGflops, 1)})`,
  );
  const shapes = [];
  for (const [name, config] of Object.entries(BENCH_SHAPES)) {
    shapes.push(await measureShape(name, config, probe.bandwidthGBs, probe.peakGflops));
  }
  const result = {
    version: VERSION,
    date: new Date().toISOString(),
    machine: {
      cpu: cpus()[0]?.model,
      physicalCores: physicalCoreCount(),
      memoryGB: totalmem() / 1e9,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAverage(),
    },
    bandwidthGBs: probe.bandwidthGBs,
    peakGflops: probe.peakGflops,
    medianBandwidthGBs: probe.medianBandwidthGBs,
    medianPeakGflops: probe.medianPeakGflops,
    probes: { bandwidth: probe.bandwidthTiming, peak: probe.peakTiming },
    shapes: Object.fromEntries(shapes.map((s) => [s.name, s])),
  };
  mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
  writeFileSync(new URL("./results/core.json", import.meta.url), `${JSON.stringify(result, null, 2)}\n`);

  console.table(
    Object.fromEntries(
      shapes.map((s) => [
        s.name,
        {
          "weights MB": fmt(s.weightMB, 0),
          "load s": fmt(s.loadMs / 1000, 1),
          "step ms": fmt(s.decodeStep.medianMs),
          "best step ms": fmt(s.decodeStep.minMs),
          "bound ms": fmt(s.decodeStep.boundMs),
          "step/roofline": fmt(s.decodeStep.rooflineRatio),
          "best/roofline": fmt(s.decodeStep.bestRooflineRatio),
          [`step x${BATCH} ms`]: fmt(s.batchStep.medianMs),
          [`x${BATCH}/x1`]: fmt(s.batchStep.vsSingle),
          "prefill tok/s": fmt(s.prefill.tokensPerSecond, 0),
          "prefill/roofline": fmt(s.prefill.rooflineRatio),
        },
      ]),
    ),
  );
  console.log("wrote bench/results/core.json");
}

await main();
