/**
 * Timing with warm-up and robust statistics, for benchmarks on a shared machine.
 */
import { loadavg } from "node:os";

/** Summary of repeated timings, in milliseconds. */
export interface Timing {
  medianMs: number;
  minMs: number;
  p90Ms: number;
  meanMs: number;
  runs: number;
}

/** Options of {@link timeIt}. */
export interface TimeItOptions {
  /** Untimed runs first (sessions allocate and prepack on first use); default 3. */
  warmup?: number;
  /** Timed runs at least; default 10. */
  minRuns?: number;
  /** Timed runs at most; default 200. */
  maxRuns?: number;
  /** Stop adding runs after this much timed time once `minRuns` are done; default 3000 ms. */
  budgetMs?: number;
}

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))));
  return sorted[i];
}

/**
 * Times `fn`: warm-up runs, then runs until `minRuns` and the time budget are both met.
 * The median is the figure to report (robust to other processes on the machine).
 *
 * @example
 * ```ts
 * const t = await timeIt(() => session.run(feeds), { warmup: 2, minRuns: 10 });
 * console.log(t.medianMs);
 * ```
 */
export async function timeIt(fn: () => unknown, options: TimeItOptions = {}): Promise<Timing> {
  const { warmup = 3, minRuns = 10, maxRuns = 200, budgetMs = 3000 } = options;
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  let spent = 0;
  while (samples.length < maxRuns && (samples.length < minRuns || spent < budgetMs)) {
    const t0 = performance.now();
    await fn();
    const dt = performance.now() - t0;
    samples.push(dt);
    spent += dt;
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    medianMs: quantile(sorted, 0.5),
    minMs: sorted[0],
    p90Ms: quantile(sorted, 0.9),
    meanMs: samples.reduce((a, b) => a + b, 0) / samples.length,
    runs: samples.length,
  };
}

/** The 1-minute load average, recorded with results so contention on a shared machine is visible. */
export function loadAverage(): number {
  return loadavg()[0];
}
