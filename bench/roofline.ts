/**
 * `bun run bench:roofline`: one decode step with 1, 3 and 8 live heads (the multi-head decoder's
 * parallel tokens over a cached prompt) at the rt-tiny and Qwen2.5-0.5B shapes (and 1.5B with
 * `--with-1.5b`), random weights in memory, for fp32 and the `quant: "int8" | "int4"` layouts
 * (MatMulNBits, int8 classifier) at accuracy_level 0 (float32 products) and 4 (int8 activations;
 * int4 rows keep the int8 classifier at 4, as `quantCompute: "auto"` gives it the int8 level),
 * against the roofline: max(weight bytes streamed / bandwidth, FLOPs / peak), by default the
 * machine's nominal 33 GB/s and 200 GFLOP/s (`--bandwidth`, `--peak`); the same run's ONNX
 * Runtime probe of both is recorded too. Writes bench/results/roofline.json and prints a table.
 *
 * `--write-levels` also writes packages/core/src/quant/accuracy-levels.json, the table
 * `quantCompute: "auto"` reads: for each measured shape and quant mode, level 4 where its step
 * (geometric mean over the head counts) is at least 3% faster than level 0, else 0.
 * `--bf16` adds accuracy_level 3 (bf16) rows: ONNX Runtime runs the most accurate level at or
 * below the one asked for that its CPU kernels implement, so on x86-64 these show the fallback.
 * Then, per shape, each projection alone as one op (fp32 Gemm, MatMulNBits 8/4 bits at levels 0
 * and 4, DynamicQuantizeMatMul with int8 weights): which int8 kernel is fastest, and a step
 * modeled from them (layers x the layer's projections + the classifier); `--no-ops` skips it.
 * A benchmark, not a test: no thresholds.
 *
 * Flags: --quick (rt-tiny only, short timings)  --with-1.5b  --shapes a,b  --dtypes a,b
 *   --heads 1,3,8  --past N (default 128)  --threads N  --bandwidth GB/s  --peak GFLOP/s
 *   --bf16  --no-ops  --write-levels  --spinning  --out FILE  --help
 *
 * `--block-size N` builds the quantized rows' linear layers with N weights per scale instead of
 * core's defaults (int8 and int4: 32), to weigh fewer scales (less work per weight in
 * MatMulNBits) against accuracy before changing a default.
 *
 * `--spinning` measures every row twice, side by side: thread pools that sleep between ops (the
 * default, `spinning: false`) and that spin (`spinning: true`); a step is hundreds of small ops,
 * and waking a sleeping pool thread for each one costs time an idle machine need not pay.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { runtimeForGraph } from "../packages/core/src/create-model";
import {
  type AccuracyLevelRow,
  type AccuracyLevelTable,
  buildQwenGraph,
  INT4_BLOCK_SIZE,
  INT8_BLOCK_SIZE,
  type MatMulNBitsAccuracyLevel,
  physicalCoreCount,
  QWEN_SHAPES,
  type QwenConfig,
  type QwenGraphOptions,
  randomQuantizedLinear,
  randomQwenWeights,
  VERSION,
} from "../packages/core/src/index";
import { type LinearVariant, linearSession, variantLabel } from "./lib/linear-ops";
import { probeMachine } from "./lib/probes";
import { stepCost, treeMask } from "./lib/roofline";
import { loadAverage, timeIt } from "./lib/timing";
import { memAvailableBytes, peakLoadEstimate, randomPast, stepWeightBytes } from "./lib/weight-bytes";

const HELP = `bun run bench:roofline [-- flags]
  --quick            rt-tiny only, short timings (a smoke run of a few seconds)
  --with-1.5b        add the Qwen2.5-1.5B shape (minutes; its fp32 row needs ~18.5 GiB at load
                     by the estimate and is recorded as skipped when less is free)
  --shapes a,b       rt-tiny, qwen2.5-0.5b, qwen2.5-1.5b (default: the first two)
  --dtypes a,b       fp32, int8-acc0, int8-acc4, int4-acc0, int4-acc4 (default: all)
  --bf16             add int8-acc3 and int4-acc3 (bf16 asked for; shows ORT's fallback)
  --no-ops           skip the per-projection kernel comparison (incl. DynamicQuantizeMatMul)
  --heads 1,3,8      live heads per step (default 1,3,8)
  --past N           cached tokens under each step (default 128)
  --threads N        ONNX Runtime threads (default: the physical cores)
  --bandwidth GB/s   roofline bandwidth (default 33)
  --peak GFLOP/s     roofline compute peak (default 200)
  --write-levels     write packages/core/src/quant/accuracy-levels.json from this run
  --spinning         also measure each row with spinning thread pools (rows "<dtype>+spin")
  --block-size N     quantized linear layers with N weights per scale (default core's: 32)
  --out FILE         default bench/results/roofline.json`;

if (process.argv.includes("--help")) {
  console.log(HELP);
  process.exit(0);
}

const root = join(import.meta.dir, "..");
const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const has = (name: string) => process.argv.includes(`--${name}`);
const quick = has("quick");

const SHAPES: Record<string, QwenConfig> = {
  "rt-tiny": QWEN_SHAPES["rt-tiny"],
  // 4096 positions: the rope table only; a decode step does not depend on it
  "qwen2.5-0.5b": { ...QWEN_SHAPES["qwen2.5-0.5b"], maxPositionEmbeddings: 4096 },
  "qwen2.5-1.5b": { ...QWEN_SHAPES["qwen2.5-1.5b"], maxPositionEmbeddings: 4096 },
};
const shapeNames =
  flag("shapes")?.split(",") ??
  (quick ? ["rt-tiny"] : ["rt-tiny", "qwen2.5-0.5b", ...(has("with-1.5b") ? ["qwen2.5-1.5b"] : [])]);
for (const s of shapeNames)
  if (!(s in SHAPES)) throw new Error(`unknown shape ${s}; known: ${Object.keys(SHAPES).join(", ")}`);

interface Dtype {
  name: string;
  /** Quant mode as loaded (`quant`), or fp32. */
  quant: "fp32" | "int8" | "int4";
  level: MatMulNBitsAccuracyLevel;
}
const ALL_DTYPES: Dtype[] = [
  { name: "fp32", quant: "fp32", level: 0 },
  { name: "int8-acc0", quant: "int8", level: 0 },
  { name: "int8-acc4", quant: "int8", level: 4 },
  { name: "int4-acc0", quant: "int4", level: 0 },
  { name: "int4-acc4", quant: "int4", level: 4 },
  { name: "int8-acc3", quant: "int8", level: 3 },
  { name: "int4-acc3", quant: "int4", level: 3 },
];
const dtypeNames =
  flag("dtypes")?.split(",") ?? ALL_DTYPES.filter((d) => d.level !== 3 || has("bf16")).map((d) => d.name);
const dtypes = dtypeNames.map((n) => {
  const d = ALL_DTYPES.find((x) => x.name === n);
  if (!d) throw new Error(`unknown dtype ${n}; known: ${ALL_DTYPES.map((x) => x.name).join(", ")}`);
  return d;
});
const heads = (flag("heads") ?? "1,3,8").split(",").map(Number);
const PAST = Number(flag("past") ?? 128);
const THREADS = flag("threads") === undefined ? undefined : Number(flag("threads"));
const BANDWIDTH = Number(flag("bandwidth") ?? 33);
const PEAK = Number(flag("peak") ?? 200);
const outFile = resolve(flag("out") ?? join(root, "bench/results/roofline.json"));
const LEVELS_FILE = join(root, "packages/core/src/quant/accuracy-levels.json");

/** The layouts `quant: "int8" | "int4"` builds: linear layers, and an int8 classifier in both. */
const BLOCK_SIZE = flag("block-size") === undefined ? undefined : Number(flag("block-size"));
if (
  BLOCK_SIZE !== undefined &&
  !(Number.isInteger(BLOCK_SIZE) && BLOCK_SIZE >= 16 && (BLOCK_SIZE & (BLOCK_SIZE - 1)) === 0)
)
  throw new Error(`--block-size must be a power of two >= 16, got ${flag("block-size")}`);
if (BLOCK_SIZE !== undefined && has("write-levels"))
  throw new Error("--write-levels measures core's own layouts: drop --block-size");
const LINEAR = {
  int8: { bits: 8, blockSize: BLOCK_SIZE ?? INT8_BLOCK_SIZE },
  int4: { bits: 4, blockSize: BLOCK_SIZE ?? INT4_BLOCK_SIZE },
} as const;
const CLASSIFIER = { bits: 8, blockSize: INT8_BLOCK_SIZE } as const;
/**
 * The int8 classifier's level: the row's own in int8 rows; level 4 in int4 rows, so they compare
 * the int4 layers' levels alone (core gives the classifier the int8 row's level of the table).
 */
const classifierLevel = (d: Dtype): MatMulNBitsAccuracyLevel => (d.quant === "int8" ? d.level : 4);

interface HeadsResult {
  heads: number;
  median_ms: number;
  min_ms: number;
  p90_ms: number;
  runs: number;
  bound_ms: number;
  bound: "bandwidth" | "compute";
  flops: number;
  roofline_ratio: number;
  roofline_ratio_min: number;
  /** Against the bandwidth and peak the probe measured in this run. */
  roofline_ratio_probe: number;
}

interface Row {
  shape: string;
  dtype: string;
  /** ONNX Runtime's pool threads spin between ops (`--spinning` rows). */
  spinning: boolean;
  quant: Dtype["quant"];
  accuracy_level: MatMulNBitsAccuracyLevel | null;
  classifier_accuracy_level: MatMulNBitsAccuracyLevel | null;
  weight_bytes: number;
  load_s?: number;
  skipped?: string;
  steps: HeadsResult[];
}

async function measure(
  shape: string,
  dtype: Dtype,
  probe: { bandwidthGBs: number; peakGflops: number },
  spinning = false,
): Promise<Row> {
  const c = SHAPES[shape];
  const quantized = dtype.quant !== "fp32";
  const linear = dtype.quant === "fp32" ? null : LINEAR[dtype.quant];
  const { perStep, held } = stepWeightBytes(c, linear, quantized ? CLASSIFIER : null);
  const row: Row = {
    shape,
    dtype: spinning ? `${dtype.name}+spin` : dtype.name,
    spinning,
    quant: dtype.quant,
    accuracy_level: quantized ? dtype.level : null,
    classifier_accuracy_level: quantized ? classifierLevel(dtype) : null,
    weight_bytes: perStep,
    steps: [],
  };
  const available = memAvailableBytes();
  const peak = peakLoadEstimate(held, quantized);
  if (peak > 0.8 * available) {
    row.skipped = `needs about ${(peak / 2 ** 30).toFixed(1)} GiB at load, only ${(available / 2 ** 30).toFixed(1)} GiB available`;
    return row;
  }
  const options: QwenGraphOptions = {};
  if (linear) {
    options.linear = randomQuantizedLinear({ ...linear, accuracyLevel: dtype.level, seed: 1 });
    options.classifier = randomQuantizedLinear({
      ...CLASSIFIER,
      accuracyLevel: classifierLevel(dtype),
      seed: 2,
    });
    options.fuseProjections = true; // as quant on load builds them
  }
  const t0 = performance.now();
  const rt = await runtimeForGraph(c, buildQwenGraph(c, randomQwenWeights(c, 1), options), {
    threads: THREADS,
    spinning,
  });
  row.load_s = (performance.now() - t0) / 1000;
  const big = perStep > 1e9;
  try {
    const past = randomPast(c, PAST);
    for (const h of heads) {
      const tokenIds = Array.from({ length: h }, (_, i) => (i * 131 + 7) % c.vocabSize);
      const input = {
        tokenIds,
        positions: new Array(h).fill(PAST),
        attentionMask: treeMask(h, PAST),
        past,
        logitRows: tokenIds.map((_, i) => i),
      };
      const t = await timeIt(() => rt.step(input), {
        warmup: quick ? 1 : 3,
        minRuns: quick ? 3 : big ? 6 : shape === "rt-tiny" ? 30 : 10,
        budgetMs: quick ? 200 : big ? 4000 : 2500,
      });
      const flops = stepCost(c, { q: h, past: PAST, rows: h }).flops;
      const bwMs = perStep / (BANDWIDTH * 1e6);
      const flopMs = flops / (PEAK * 1e6);
      const boundMs = Math.max(bwMs, flopMs);
      const probeMs = Math.max(perStep / (probe.bandwidthGBs * 1e6), flops / (probe.peakGflops * 1e6));
      row.steps.push({
        heads: h,
        median_ms: t.medianMs,
        min_ms: t.minMs,
        p90_ms: t.p90Ms,
        runs: t.runs,
        bound_ms: boundMs,
        bound: bwMs >= flopMs ? "bandwidth" : "compute",
        flops,
        roofline_ratio: t.medianMs / boundMs,
        roofline_ratio_min: t.minMs / boundMs,
        roofline_ratio_probe: t.medianMs / probeMs,
      });
    }
  } finally {
    await rt.dispose();
  }
  return row;
}

const OP_VARIANTS: LinearVariant[] = [
  { kind: "fp32" },
  { kind: "nbits", bits: 8, blockSize: INT8_BLOCK_SIZE, level: 0 },
  { kind: "nbits", bits: 8, blockSize: INT8_BLOCK_SIZE, level: 4 },
  { kind: "dqmm-int8" },
  { kind: "nbits", bits: 4, blockSize: INT4_BLOCK_SIZE, level: 0 },
  { kind: "nbits", bits: 4, blockSize: INT4_BLOCK_SIZE, level: 4 },
  ...(has("bf16")
    ? ([
        { kind: "nbits", bits: 8, blockSize: INT8_BLOCK_SIZE, level: 3 },
        { kind: "nbits", bits: 4, blockSize: INT4_BLOCK_SIZE, level: 3 },
      ] as LinearVariant[])
    : []),
];

interface OpRow {
  shape: string;
  variant: string;
  /** Median ms per projection (qkv fused, o, gate/up fused, down, classifier), by heads. */
  ms: Record<string, Record<number, number>>;
  bytes: Record<string, number>;
  /** layers x (qkv + o + gate_up + down) + classifier, by heads. */
  modeled_step_ms: Record<number, number>;
  /** Weight bytes of that step / its 1-head time (GB/s). */
  modeled_gbs_1_head: number;
}

/** Each projection of `shape` alone in every kernel variant, and the step they add up to. */
async function measureOps(shape: string): Promise<OpRow[]> {
  const c = SHAPES[shape];
  const q = c.numAttentionHeads * c.headDim;
  const kv = c.numKeyValueHeads * c.headDim;
  const linears: Record<string, [number, number]> = {
    qkv: [c.hiddenSize, q + 2 * kv],
    o: [q, c.hiddenSize],
    gate_up: [c.hiddenSize, 2 * c.intermediateSize],
    down: [c.intermediateSize, c.hiddenSize],
    classifier: [c.hiddenSize, c.vocabSize],
  };
  const rows: OpRow[] = [];
  for (const variant of OP_VARIANTS) {
    const row: OpRow = {
      shape,
      variant: variantLabel(variant),
      ms: {},
      bytes: {},
      modeled_step_ms: {},
      modeled_gbs_1_head: 0,
    };
    for (const [name, [k, n]] of Object.entries(linears)) {
      const op = await linearSession(k, n, variant, THREADS);
      row.bytes[name] = op.bytes;
      row.ms[name] = {};
      for (const h of heads) {
        const t = await timeIt(() => op.run(h), {
          warmup: 2,
          minRuns: quick ? 3 : 10,
          budgetMs: quick ? 50 : 400,
        });
        row.ms[name][h] = t.medianMs;
      }
      await op.release();
    }
    const layer = ["qkv", "o", "gate_up", "down"];
    for (const h of heads) {
      row.modeled_step_ms[h] =
        c.numLayers * layer.reduce((sum, l) => sum + row.ms[l][h], 0) + row.ms.classifier[h];
    }
    const stepBytes = c.numLayers * layer.reduce((sum, l) => sum + row.bytes[l], 0) + row.bytes.classifier;
    row.modeled_gbs_1_head = stepBytes / (row.modeled_step_ms[heads[0]] * 1e6);
    rows.push(row);
    console.log(
      `${shape} ops ${row.variant}: modeled step ${heads.map((h) => `${h}h ${fmt(row.modeled_step_ms[h])} ms`).join(", ")}`,
    );
  }
  return rows;
}

const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

/** The accuracy-level table with this run's shapes replaced by their measured choice. */
function measuredLevels(rows: Row[], machine: Record<string, unknown>): AccuracyLevelTable {
  const table = JSON.parse(readFileSync(LEVELS_FILE, "utf8")) as AccuracyLevelTable;
  const stepsOf = (shape: string, quant: string, level: number) =>
    rows.find(
      (r) =>
        r.shape === shape && r.quant === quant && r.accuracy_level === level && !r.skipped && !r.spinning,
    )?.steps;
  for (const shape of shapeNames) {
    const c = SHAPES[shape];
    let entry = table.shapes.find(
      (r) => r.hiddenSize === c.hiddenSize && r.intermediateSize === c.intermediateSize,
    );
    if (!entry) {
      entry = {
        name: shape,
        hiddenSize: c.hiddenSize,
        intermediateSize: c.intermediateSize,
        numLayers: c.numLayers,
        int8: table.fallbackLevel,
        int4: table.fallbackLevel,
      } satisfies AccuracyLevelRow;
      table.shapes.push(entry);
    }
    const measured: Record<string, unknown> = {
      date: new Date().toISOString(),
      ...((entry.measured as object | undefined) ?? {}),
    };
    for (const quant of ["int8", "int4"] as const) {
      const exact = stepsOf(shape, quant, 0);
      const fast = stepsOf(shape, quant, 4);
      if (!exact || !fast) continue;
      const speedup = geomean(exact.map((s, i) => s.median_ms / fast[i].median_ms));
      entry[quant] = speedup >= 1.03 ? 4 : 0;
      measured[quant] = {
        level4_speedup: Number(speedup.toFixed(3)),
        median_ms: Object.fromEntries(
          exact.map((s, i) => [
            `${s.heads} heads`,
            { level0: Number(s.median_ms.toFixed(3)), level4: Number(fast[i].median_ms.toFixed(3)) },
          ]),
        ),
      };
      measured.date = new Date().toISOString();
    }
    entry.measured = measured;
  }
  table.method = `measured by \`bun run bench:roofline -- --write-levels\` (rtool ${VERSION}, past ${PAST} tokens, heads ${heads.join("/")}, random weights); shapes the run did not measure keep their earlier rows`;
  table.machine = machine;
  return table;
}

const fmt = (x: number | undefined, digits = 2) => (x === undefined ? "-" : x.toFixed(digits));

async function main() {
  const loadBefore = loadAverage();
  console.log(
    `rtool ${VERSION} bench:roofline — ${shapeNames.join(", ")} × ${dtypes.map((d) => d.name).join(", ")}, heads ${heads.join("/")}, ${physicalCoreCount()} physical cores, load average ${fmt(loadBefore)}`,
  );
  const probe = await probeMachine({ weightMiB: quick ? 64 : 512, threads: THREADS });
  console.log(
    `roofline ${BANDWIDTH} GB/s, ${PEAK} GFLOP/s (nominal); probe ${fmt(probe.bandwidthGBs, 1)} GB/s, ${fmt(probe.peakGflops, 1)} GFLOP/s`,
  );
  const rows: Row[] = [];
  for (const shape of shapeNames) {
    for (const dtype of dtypes) {
      for (const spinning of has("spinning") ? [false, true] : [false]) {
        const row = await measure(shape, dtype, probe, spinning);
        rows.push(row);
        console.log(
          `${shape} ${row.dtype}: ${row.skipped ? `skipped (${row.skipped})` : row.steps.map((s) => `${s.heads}h ${fmt(s.median_ms)} ms x${fmt(s.roofline_ratio)}`).join(", ")}`,
        );
        Bun.gc(true); // give the previous model's memory back before building the next one
      }
    }
  }
  const ops: OpRow[] = [];
  if (!has("no-ops")) for (const shape of shapeNames) ops.push(...(await measureOps(shape)));
  const machine = {
    cpu: cpus()[0]?.model,
    physicalCores: physicalCoreCount(),
    threads: THREADS ?? "physical cores",
    memoryGB: totalmem() / 1e9,
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadAverage(),
  };
  const result = {
    version: VERSION,
    date: new Date().toISOString(),
    machine,
    roofline: {
      bandwidthGBs: BANDWIDTH,
      peakGflops: PEAK,
      rule: "bound = max(weight bytes per step / bandwidth, FLOPs / peak); ratio = measured / bound",
    },
    probe: { bandwidthGBs: probe.bandwidthGBs, peakGflops: probe.peakGflops },
    settings: {
      pastTokens: PAST,
      heads,
      layouts: {
        int8: { linear: LINEAR.int8, classifier: CLASSIFIER, classifierLevel: "the row's level" },
        int4: { linear: LINEAR.int4, classifier: CLASSIFIER, classifierLevel: 4 },
      },
      weightBytes: "per step: every linear layer as stored, the classifier, norms and biases",
      flops: "2 per multiply-add: projections, attention over past + heads, classifier rows = heads",
    },
    rows,
    ops: {
      about:
        "each projection alone as one op; modeled step = layers x (qkv + o + gate_up + down) + classifier, every projection in that variant (the graphs above use an int8 classifier for int4)",
      rows: ops,
    },
  };
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
  console.log("decode step, median ms (× roofline):");
  console.table(
    rows.map((r) => ({
      shape: r.shape,
      dtype: r.dtype,
      "weights MB": fmt(r.weight_bytes / 1e6, 1),
      ...Object.fromEntries(
        heads.map((h) => {
          const s = r.steps.find((x) => x.heads === h);
          return [
            `${h} heads`,
            r.skipped ? "skipped" : s ? `${fmt(s.median_ms)} (x${fmt(s.roofline_ratio)})` : "-",
          ];
        }),
      ),
      "bound ms (1 head)": fmt(r.steps[0]?.bound_ms),
    })),
  );
  if (ops.length > 0) {
    console.log("projections alone, modeled step ms (layers x layer's projections + classifier):");
    console.table(
      ops.map((r) => ({
        shape: r.shape,
        kernel: r.variant,
        ...Object.fromEntries(heads.map((h) => [`${h} heads`, fmt(r.modeled_step_ms[h])])),
        "GB/s (1 head)": fmt(r.modeled_gbs_1_head, 1),
      })),
    );
  }
  console.log(`wrote ${outFile}`);
  if (has("write-levels")) {
    const table = measuredLevels(rows, machine);
    writeFileSync(LEVELS_FILE, `${JSON.stringify(table, null, 2)}\n`);
    console.log(
      `wrote ${LEVELS_FILE}: ${table.shapes.map((s) => `${s.name} int8 ${s.int8} int4 ${s.int4}`).join("; ")}`,
    );
  }
}

await main();
