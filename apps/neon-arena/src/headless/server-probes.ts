/**
 * What the arena benchmark asks rtool-server beside the agents' calls, to tell the causes of a
 * slow round trip apart: how long a trivial request (`GET /health`) waits while forward passes
 * run (onnxruntime-node runs a session on the server's main thread, so HTTP waits for a running
 * pass), and the prefix cache's counters over the run (hits, evictions, bytes held).
 */
import { type CacheCounters, quantile, type Spread } from "./arena-report";

/** `/health` round trips sampled during a run. */
export interface HealthProbe {
  /** Stops sampling and returns the round trips' p50/p99 and count. */
  stop(): Promise<Spread & { samples: number }>;
}

/**
 * Samples `GET {serverUrl}/health` every `everyMs` (one at a time) until stopped. On an idle
 * loopback server it answers in well under a millisecond; what it takes beyond that while the
 * arena runs is time the event loop was busy (forward passes, other requests).
 *
 * @example
 * const probe = startHealthProbe("http://127.0.0.1:8899", 50);
 * // ... run the arena ...
 * const { p50, p99 } = await probe.stop();
 */
export function startHealthProbe(serverUrl: string, everyMs: number): HealthProbe {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await (await fetch(`${serverUrl}/health`)).arrayBuffer();
        samples.push(performance.now() - started);
      } catch {
        // A failed probe says nothing about waiting: leave it out.
      }
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, everyMs - (performance.now() - started))),
      );
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const round = (x: number) => Math.round(x * 100) / 100;
      return {
        p50: round(quantile(samples, 0.5)),
        p99: round(quantile(samples, 0.99)),
        samples: samples.length,
      };
    },
  };
}

/** Reads the prefix-cache gauges from `{serverUrl}/metrics`; null when the server has none. */
export function readCacheCounters(serverUrl: string): Promise<CacheCounters | null> {
  return readGauges(serverUrl, "rtool_prefix_cache_", ["hits", "misses", "evictions", "tokens", "bytes"]);
}

/** Forward passes the server ran and the decoder steps they served (`/metrics`), since it started. */
export interface BatchCounters {
  passes: number;
  steps: number;
}

/** Reads the forward-pass counters from `{serverUrl}/metrics`; null when the server has none. */
export function readBatchCounters(serverUrl: string): Promise<BatchCounters | null> {
  return readGauges(serverUrl, "rtool_forward_", ["passes", "steps"]);
}

/** The gauges `prefix + name` of `/metrics`, by name; null when one is missing or the server is not there. */
async function readGauges<Name extends string>(
  serverUrl: string,
  prefix: string,
  names: readonly Name[],
): Promise<Record<Name, number> | null> {
  try {
    const lines = (await (await fetch(`${serverUrl}/metrics`)).text()).split("\n");
    const values = {} as Record<Name, number>;
    for (const name of names) {
      const line = lines.find((l) => l.startsWith(`${prefix}${name} `));
      const value = line ? Number(line.split(" ")[1]) : Number.NaN;
      if (Number.isNaN(value)) return null;
      values[name] = value;
    }
    return values;
  } catch {
    return null;
  }
}

/** What the cache did between two readings: lookups and evictions in between, holdings at the end. */
export function cacheDelta(before: CacheCounters, after: CacheCounters): CacheCounters {
  return {
    hits: after.hits - before.hits,
    misses: after.misses - before.misses,
    evictions: after.evictions - before.evictions,
    tokens: after.tokens,
    bytes: after.bytes,
  };
}
