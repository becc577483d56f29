/**
 * `bun run bench:quant`: decode-step time of fp32, int8 and int4 weights at the Qwen2.5-0.5B,
 * Qwen2.5-1.5B and Qwen3-4B shapes (random weights in memory), against the bandwidth roofline:
 * weight bytes read per step ÷ memory read bandwidth measured by ONNX Runtime in the same run.
 * Quantized layers are laid out as `quant: "int8" | "int4"` builds them (classifier int8 too) and
 * filled with random codes directly (quantizing 4B random floats would take longer than the
 * benchmark); `--awq` lays int4 out as an AWQ checkpoint loads instead (group 128, float32
 * compute, float classifier). A (shape, dtype) whose graph would not fit comfortably in the memory
 * available now is recorded as skipped, with the reason. Writes bench/results/quant.json.
 * A benchmark, not a test: no thresholds.
 *
 * Flags: --shapes a,b  --dtypes fp32,int8,int4  --provider cpu|cuda  --awq (int4 as an AWQ
 * checkpoint loads: group 128, float32 compute)  --out FILE  --past N
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, resolve } from "node:path";
import { runtimeForGraph } from "../packages/core/src/create-model";
import {
  buildQwenGraph,
  createSession,
  GraphBuilder,
  INT4_BLOCK_SIZE,
  INT8_BLOCK_SIZE,
  physicalCoreCount,
  QWEN_SHAPES,
  type QwenConfig,
  type QwenGraphOptions,
  type QwenShapeName,
  randomQuantizedLinear,
  randomQwenWeights,
  VERSION,
} from "../packages/core/src/index";
import { ort } from "./lib/ort";
import { probeMachine } from "./lib/probes";
import { loadAverage, type Timing, timeIt } from "./lib/timing";
import { memAvailableBytes, peakLoadEstimate, randomPast, stepWeightBytes } from "./lib/weight-bytes";

type ShapeName = Extract<QwenShapeName, "qwen2.5-0.5b" | "qwen2.5-1.5b" | "qwen3-4b">;
type Dtype = "fp32" | "int8" | "int4";

/** The published shapes (core's table), tied embeddings as released. */
const SHAPES: Record<ShapeName, QwenConfig> = {
  "qwen2.5-0.5b": QWEN_SHAPES["qwen2.5-0.5b"],
  "qwen2.5-1.5b": QWEN_SHAPES["qwen2.5-1.5b"],
  // Measured with a 32k rope table (Qwen3-4B publishes 40960 positions); kept for comparable runs.
  "qwen3-4b": { ...QWEN_SHAPES["qwen3-4b"], maxPositionEmbeddings: 32768 },
};

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const provider = (flag("provider") ?? "cpu") as "cpu" | "cuda";
const awqShaped = process.argv.includes("--awq");
const shapeNames = (flag("shapes")?.split(",") ?? Object.keys(SHAPES)) as ShapeName[];
const dtypes = (flag("dtypes")?.split(",") ?? ["fp32", "int8", "int4"]) as Dtype[];
const outFile = resolve(flag("out") ?? new URL("./results/quant.json", import.meta.url).pathname);
const PAST = Number(flag("past") ?? 128); // cached tokens under each measured step

/** How each quantized dtype is laid out (int4 --awq: as an AWQ checkpoint loads, exact float compute). */
const LAYOUT = {
  classifier: { bits: 8, blockSize: INT8_BLOCK_SIZE, accuracyLevel: 4 },
  int8: { bits: 8, blockSize: INT8_BLOCK_SIZE, accuracyLevel: 4 },
  int4: awqShaped
    ? ({ bits: 4, blockSize: 128, accuracyLevel: 0 } as const)
    : ({ bits: 4, blockSize: INT4_BLOCK_SIZE, accuracyLevel: 4 } as const),
} as const;

/** Whether `dtype` rows quantize the classifier (as `quant: "int8" | "int4"` does; AWQ keeps it float). */
const quantizedClassifier = (dtype: Dtype) => dtype !== "fp32" && !(dtype === "int4" && awqShaped);

/** Weight bytes a decode step reads (every linear layer, the classifier, norms, biases) and all held. */
const weightBytes = (c: QwenConfig, dtype: Dtype) =>
  stepWeightBytes(
    c,
    dtype === "fp32" ? null : LAYOUT[dtype],
    quantizedClassifier(dtype) ? LAYOUT.classifier : null,
  );

/** Read bandwidth on the accelerator: a [1,K] x [K,N] float32 product over a 1 GiB weight. */
async function probeCudaBandwidth(): Promise<{ bandwidthGBs: number; timing: Timing }> {
  const k = 8192;
  const n = (1 << 30) / 4 / k;
  const g = new GraphBuilder("probe");
  const x = g.input("x", "float32", [1, k]);
  const w = g.initializer("w", new Float32Array(n * k).fill(0.001), [n, k]);
  g.output(g.gemm(x, w, undefined, { transB: true }), "y", "float32", [1, n]);
  const { session } = await createSession(g.serialize(), { provider: "cuda" });
  const feeds = { x: new ort.Tensor("float32", new Float32Array(k).fill(0.5), [1, k]) };
  const timing = await timeIt(() => session.run(feeds), { warmup: 3, minRuns: 20, budgetMs: 2000 });
  await session.release();
  return { bandwidthGBs: (n * k * 4) / (timing.medianMs * 1e6), timing };
}

interface Row {
  shape: ShapeName;
  dtype: Dtype;
  step_ms: number | null;
  weight_bytes: number;
  bandwidth_gbs: number;
  roofline_ratio: number | null;
  skipped?: string;
  p90_ms?: number;
  /** Fastest step: on a shared, loaded machine the nearest to what the hardware does alone. */
  min_ms?: number;
  roofline_ratio_min?: number;
  runs?: number;
  load_s?: number;
  /** Bytes of every initializer held (the float embedding too when only looked up). */
  graph_bytes?: number;
  layout?: string;
}

async function measure(name: ShapeName, dtype: Dtype, bandwidthGBs: number): Promise<Row> {
  const c = SHAPES[name];
  const { perStep, held } = weightBytes(c, dtype);
  const row: Row = {
    shape: name,
    dtype,
    step_ms: null,
    weight_bytes: perStep,
    bandwidth_gbs: bandwidthGBs,
    roofline_ratio: null,
  };
  if (dtype !== "fp32") {
    const l = LAYOUT[dtype];
    const cls = LAYOUT.classifier;
    row.layout =
      `MatMulNBits bits ${l.bits}, block ${l.blockSize}, accuracy_level ${l.accuracyLevel}; classifier ` +
      (quantizedClassifier(dtype) ? `bits ${cls.bits}, block ${cls.blockSize}` : "float32");
  }
  const available = memAvailableBytes();
  const peak = peakLoadEstimate(held, dtype !== "fp32");
  if (provider === "cpu" && peak > 0.8 * available) {
    row.skipped = `needs about ${(peak / 2 ** 30).toFixed(1)} GiB at load (weights ${(held / 2 ** 30).toFixed(1)} GiB), only ${(available / 2 ** 30).toFixed(1)} GiB available on this shared machine`;
    return row;
  }
  const options: QwenGraphOptions = {};
  if (dtype !== "fp32") options.linear = randomQuantizedLinear({ ...LAYOUT[dtype], seed: 1 });
  if (quantizedClassifier(dtype))
    options.classifier = randomQuantizedLinear({ ...LAYOUT.classifier, seed: 2 });
  const t0 = performance.now();
  let graph: GraphBuilder | undefined = buildQwenGraph(c, randomQwenWeights(c, 1), options);
  row.graph_bytes = graph.initializerBytes();
  const rt = await runtimeForGraph(c, graph, { provider });
  graph = undefined; // ONNX Runtime holds its own copy now
  row.load_s = (performance.now() - t0) / 1000;
  try {
    const past = randomPast(c, PAST);
    const big = perStep > 2e9;
    const t = await timeIt(() => rt.step({ tokenIds: [42], positions: [PAST], past }), {
      warmup: big ? 1 : 3,
      minRuns: big ? 4 : 10,
      budgetMs: big ? 4000 : 3000,
    });
    row.step_ms = t.medianMs;
    row.p90_ms = t.p90Ms;
    row.min_ms = t.minMs;
    row.roofline_ratio_min = t.minMs / (perStep / (bandwidthGBs * 1e6));
    row.runs = t.runs;
    row.roofline_ratio = t.medianMs / (perStep / (bandwidthGBs * 1e6));
  } finally {
    await rt.dispose();
  }
  return row;
}

const fmt = (x: number | null | undefined, digits = 2) => (x == null ? "-" : x.toFixed(digits));

async function main() {
  const loadBefore = loadAverage();
  console.log(
    `rtool ${VERSION} bench:quant on ${provider}${awqShaped ? " (int4 AWQ-shaped)" : ""}, ${physicalCoreCount()} physical cores, load average ${fmt(loadBefore)}`,
  );
  let bandwidthGBs: number;
  let probe: unknown;
  if (provider === "cuda") {
    const p = await probeCudaBandwidth();
    bandwidthGBs = p.bandwidthGBs;
    probe = { bandwidth: p.timing };
  } else {
    const p = await probeMachine();
    bandwidthGBs = p.bandwidthGBs;
    probe = { bandwidth: p.bandwidthTiming, peakGflops: p.peakGflops };
  }
  console.log(`bandwidth ${fmt(bandwidthGBs, 1)} GB/s`);
  const rows: Row[] = [];
  for (const shape of shapeNames) {
    if (!(shape in SHAPES))
      throw new Error(`unknown shape ${shape}; known: ${Object.keys(SHAPES).join(", ")}`);
    for (const dtype of dtypes) {
      const row = await measure(shape, dtype, bandwidthGBs);
      rows.push(row);
      console.log(
        `${shape} ${dtype}: ${row.skipped ? `skipped (${row.skipped})` : `${fmt(row.step_ms)} ms, roofline x${fmt(row.roofline_ratio)}`}`,
      );
      // give the previous model's memory back before building the next one
      Bun.gc(true);
    }
  }
  const result = {
    version: VERSION,
    date: new Date().toISOString(),
    provider,
    machine: {
      cpu: cpus()[0]?.model,
      physicalCores: physicalCoreCount(),
      memoryGB: totalmem() / 1e9,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAverage(),
    },
    settings: {
      pastTokens: PAST,
      stepTokens: 1,
      int8: LAYOUT.int8,
      int4: LAYOUT.int4,
      classifier: awqShaped
        ? { fp32: "float32", int8: LAYOUT.classifier, int4: "float32 (as AWQ checkpoints keep lm_head)" }
        : { fp32: "float32", int8: LAYOUT.classifier, int4: LAYOUT.classifier },
      weightBytes: "per step: every linear layer as stored, the float32 classifier, norms and biases",
    },
    bandwidth_gbs: bandwidthGBs,
    probe,
    rows,
  };
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
  console.table(
    rows.map((r) => ({
      shape: r.shape,
      dtype: r.dtype,
      "weights MB": fmt(r.weight_bytes / 1e6, 0),
      "step ms": r.skipped ? "skipped" : fmt(r.step_ms),
      "bound ms": fmt(r.weight_bytes / (r.bandwidth_gbs * 1e6)),
      roofline: fmt(r.roofline_ratio),
      "min ms": fmt(r.min_ms),
      "roofline (min)": fmt(r.roofline_ratio_min),
      "load s": fmt(r.load_s, 1),
    })),
  );
  console.log(`wrote ${outFile}`);
}

await main();
