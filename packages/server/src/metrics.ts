/**
 * Prometheus metrics of one server, in a registry of its own (two servers in one process, as in
 * tests, do not share counters).
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { CallerCacheStats } from "./caller";

/** The metrics a server records. */
export interface ServerMetrics {
  readonly registry: Registry;
  /** One finished HTTP request; `route` is the matched route pattern, never the raw URL. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** Calls running and waiting in the queue. */
  setQueue(running: number, waiting: number): void;
  /** One decoded call: heads decoded, forward passes and prefix tokens reused. */
  observeCall(heads: number, steps: number, cachedPrefixTokens: number): void;
  /** Where `/metrics` reads the prefix-cache counters from (the loaded callers). */
  setCacheStatsSource(source: () => CallerCacheStats | null): void;
  /** Where `/metrics` reads forward passes and the steps they served from. */
  setBatchStatsSource(source: () => { passes: number; steps: number } | null): void;
}

/**
 * Creates the metrics of one server.
 *
 * @example
 * ```ts
 * const metrics = createMetrics();
 * metrics.observeRequest("/v1/function_call", "POST", 200, 0.012);
 * const text = await metrics.registry.metrics(); // Prometheus text format
 * ```
 */
export function createMetrics(): ServerMetrics {
  const registry = new Registry();
  let cacheSource: () => CallerCacheStats | null = () => null;
  let batchSource: () => { passes: number; steps: number } | null = () => null;

  const requests = new Counter({
    name: "rtool_http_requests_total",
    help: "HTTP requests by route, method and status.",
    labelNames: ["route", "method", "status"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "rtool_http_request_duration_seconds",
    help: "HTTP request latency by route.",
    labelNames: ["route", "method"],
    buckets: [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10],
    registers: [registry],
  });
  const queueDepth = new Gauge({
    name: "rtool_queue_depth",
    help: "Calls waiting for a slot.",
    registers: [registry],
  });
  const running = new Gauge({
    name: "rtool_calls_running",
    help: "Calls being decoded now.",
    registers: [registry],
  });
  const heads = new Histogram({
    name: "rtool_call_heads",
    help: "Heads decoded per call.",
    buckets: [1, 2, 3, 4, 5, 6, 7, 8],
    registers: [registry],
  });
  const steps = new Histogram({
    name: "rtool_call_steps",
    help: "Forward passes per call.",
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  });
  const cachedTokens = new Histogram({
    name: "rtool_call_cached_prefix_tokens",
    help: "Prompt tokens reused from the prefix cache per call.",
    buckets: [0, 16, 64, 128, 256, 512, 1024, 2048, 4096],
    registers: [registry],
  });
  const cacheGauge = (name: string, help: string, pick: (s: CallerCacheStats) => number | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = cacheSource();
        const value = stats ? pick(stats) : undefined;
        this.set(value ?? 0);
      },
    });
  cacheGauge(
    "rtool_prefix_cache_hits",
    "Prefix-cache lookups that reused cached KV (since start).",
    (s) => s.hits,
  );
  cacheGauge(
    "rtool_prefix_cache_misses",
    "Prefix-cache lookups that reused nothing (since start).",
    (s) => s.misses,
  );
  cacheGauge(
    "rtool_prefix_cache_evictions",
    "Prefix-cache entries evicted (since start).",
    (s) => s.evictions,
  );
  cacheGauge("rtool_prefix_cache_tokens", "Tokens held in the prefix cache.", (s) => s.cachedTokens);
  cacheGauge("rtool_prefix_cache_bytes", "Bytes held in the prefix cache.", (s) => s.bytes);

  new Gauge({
    name: "rtool_forward_passes",
    help: "Forward passes run (since start).",
    registers: [registry],
    collect() {
      this.set(batchSource()?.passes ?? 0);
    },
  });
  new Gauge({
    name: "rtool_forward_steps",
    help: "Decoder steps served by those passes; steps / passes is the mean cross-request batch.",
    registers: [registry],
    collect() {
      this.set(batchSource()?.steps ?? 0);
    },
  });

  return {
    registry,
    observeRequest(route, method, status, seconds) {
      requests.inc({ route, method, status: String(status) });
      latency.observe({ route, method }, seconds);
    },
    setQueue(nowRunning, waiting) {
      running.set(nowRunning);
      queueDepth.set(waiting);
    },
    observeCall(headCount, stepCount, cached) {
      heads.observe(headCount);
      steps.observe(stepCount);
      cachedTokens.observe(cached);
    },
    setCacheStatsSource(source) {
      cacheSource = source;
    },
    setBatchStatsSource(source) {
      batchSource = source;
    },
  };
}
