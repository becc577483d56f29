/**
 * Machine probes run through ONNX Runtime itself, so the roofline compares a decode step against
 * what the same library achieves on the same CPU: memory read bandwidth (a matrix-vector product
 * over a weight far larger than the caches) and peak matmul throughput (a large square-ish GEMM).
 */
import { createSession, GraphBuilder } from "../../packages/core/src/index";
import { ort } from "./ort";
import { type Timing, timeIt } from "./timing";

/**
 * Measured machine limits. The limits come from the fastest run (what the machine can do);
 * the median-based figures show what it did while shared with other processes.
 */
export interface MachineProbe {
  /** Bytes of weight read per second by a [1,K] x [K,N] product, fastest run (GB/s, 1e9). */
  bandwidthGBs: number;
  /** Float32 matmul throughput, fastest run (GFLOP/s, 1e9). */
  peakGflops: number;
  /** The same two from the median run. */
  medianBandwidthGBs: number;
  medianPeakGflops: number;
  bandwidthTiming: Timing;
  peakTiming: Timing;
  threads: number;
}

function filled(size: number): Float32Array {
  const data = new Float32Array(size);
  for (let i = 0; i < size; i++) data[i] = ((i * 2654435761) % 1999) / 1999 - 0.5;
  return data;
}

/** One Gemm `x[M,K] @ W[N,K]^T`, the same op and weight layout the decoder graph uses. */
async function gemmSession(m: number, k: number, n: number, threads?: number) {
  const g = new GraphBuilder("probe");
  const x = g.input("x", "float32", [m, k]);
  const w = g.initializer("w", filled(n * k), [n, k]);
  g.output(g.gemm(x, w, undefined, { transB: true }), "y", "float32", [m, n]);
  const { session } = await createSession(g.serialize(), { provider: "cpu", threads });
  const feeds = { x: new ort.Tensor("float32", filled(m * k), [m, k]) };
  return { session, run: () => session.run(feeds) };
}

/**
 * Measures read bandwidth and peak GEMM throughput with ONNX Runtime on the CPU.
 *
 * @example
 * ```ts
 * const probe = await probeMachine();
 * console.log(probe.bandwidthGBs, probe.peakGflops);
 * ```
 */
export async function probeMachine(
  options: { threads?: number; weightMiB?: number } = {},
): Promise<MachineProbe> {
  // bandwidth: a weight of weightMiB (default 512 MiB), far beyond any cache, read once per run
  const k = 4096;
  const n = Math.round(((options.weightMiB ?? 512) * 1024 * 1024) / 4 / k);
  const bw = await gemmSession(1, k, n, options.threads);
  const bandwidthTiming = await timeIt(bw.run, { warmup: 2, minRuns: 8, budgetMs: 3000 });
  await bw.session.release();
  // peak: M=N=K=1024 is large enough to be compute bound on a CPU and small enough to be quick
  const size = 1024;
  const peak = await gemmSession(size, size, size, options.threads);
  const peakTiming = await timeIt(peak.run, { warmup: 2, minRuns: 8, budgetMs: 3000 });
  await peak.session.release();
  return {
    bandwidthGBs: (k * n * 4) / (bandwidthTiming.minMs * 1e6),
    peakGflops: (2 * size * size * size) / (peakTiming.minMs * 1e6),
    medianBandwidthGBs: (k * n * 4) / (bandwidthTiming.medianMs * 1e6),
    medianPeakGflops: (2 * size * size * size) / (peakTiming.medianMs * 1e6),
    bandwidthTiming,
    peakTiming,
    threads: options.threads ?? 0,
  };
}
