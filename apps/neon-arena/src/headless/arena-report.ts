/**
 * The arena benchmark's report: per agent, the rate it achieved against its target, its round
 * trip (p50/p99) and the per-stage split of that round trip from the server's `timings`, so a
 * slow agent shows whether its time went to queueing, the batcher, forward passes, or HTTP.
 */
import type { ReplyTimings, RequestSample } from "./recording-transport";

/** The stages of a round trip, in the order a request meets them. */
export const STAGES = [
  "queue",
  "prepare",
  "lane_wait",
  "prefill",
  "decode",
  "batch_wait",
  "forward",
  "model",
  "server",
  "transport",
] as const;
export type Stage = (typeof STAGES)[number];

/** What each stage means, for the JSON report's readers. */
export const STAGE_NOTES: Record<Stage, string> = {
  queue: "server: waiting for a slot in its call queue (timings.queue_ms)",
  prepare: "server: validating the request and tokenizing its prompt (timings.prepare_ms)",
  lane_wait: "server: waiting for earlier calls on its caller lane (timings.lane_wait_ms)",
  prefill: "model: the first forward pass, uncached prompt tokens and head tags (timings.prefill_ms)",
  decode: "model: the remaining passes and token choices (timings.decode_ms)",
  batch_wait: "of prefill+decode: passes waiting in the batcher for their turn (timings.batch_wait_ms)",
  forward: "of prefill+decode: inside forward passes, shared ones counted whole (timings.forward_ms)",
  model: "server: the call's turn on its lane to its result (timings.total_ms)",
  server: "server: arrival to reply on its route (latency_ms)",
  transport: "round trip minus server: HTTP, SSE, the app's forward and both event loops",
};

/** p50 and p99 of a stage, in ms. */
export interface Spread {
  p50: number;
  p99: number;
}

/** One agent's row. */
export interface AgentReport {
  agent: string;
  /** Requests per second its loop asks for; 0 for command-only agents (the squad). */
  targetHz: number;
  /**
   * Replies delivered to the game (applied or refused) per second of the measured window, less
   * the time its loop rested (a wrecked ship waits for the next round): the rate while it ran.
   */
  achievedHz: number;
  /** Seconds of the window its loop rested. */
  restedSeconds: number;
  replies: number;
  accepted: number;
  rejected: number;
  dropped: number;
  errors: number;
  /** Round trip as the game sees it (send to parsed reply), measured window only. */
  latencyMs: Spread & { mean: number };
  /** The agent's first round trip of the run (cold prefix, warm-up included). */
  firstMs: number | null;
  /** Per-stage split (medians and p99 over the window's replies). */
  stagesMs: Record<Stage, Spread>;
  /** Medians over the window's replies: prompt tokens, of them reused from the prefix cache, and prefilled. */
  promptTokens: number;
  cachedPrefixTokens: number;
  prefilledTokens: number;
  /** Per call over the window: prompt, reused, prefilled and fed tokens (rows in forward passes). */
  tokens: TokenCounts;
  /** Share of the window's calls the server answered from its answer cache (no forward pass). */
  answerCachedShare: number;
  steps: number;
  /** Mean forward passes per call shared with other requests. */
  sharedSteps: number;
}

/** Token counts per call: median and mean over the window's replies. */
export interface TokenCounts {
  prompt: TokenSpread;
  reused: TokenSpread;
  prefilled: TokenSpread;
  /** Rows the call put into forward passes: prefilled prompt tokens and head tokens. */
  fed: TokenSpread;
}

/** Median and mean of a per-call token count. */
export interface TokenSpread {
  p50: number;
  mean: number;
}

/** The whole report, as written to bench/results/arena.json. */
export interface ArenaReport {
  date: string;
  /** What was measured: the server, model, agents, rate and window. */
  setup: {
    server: string;
    model: string;
    enemies: number;
    shipRateHz: number;
    squadEverySeconds: number;
    stream: boolean;
    /** The server ran its forward passes in a worker thread (`--session-worker`). */
    sessionWorker: boolean;
    /** The server kept greedy answers by prompt (its default; `--no-answer-cache` turns it off). */
    answerCache?: boolean;
    /** The server's `--merge-window` (ms). */
    mergeWindowMs?: number;
    seconds: number;
    warmupSeconds: number;
  };
  machine: { cpus: number; loadAverageBefore: number; loadAverageAfter: number; note?: string };
  /** Frames per second the headless game loop ran (agents send at frames: a 30 Hz agent needs 60). */
  frameHz?: number;
  agents: AgentReport[];
  /** What the server probes saw during the measured window, when the run had them. */
  server?: ServerProbeReport;
  stageNotes: Record<Stage, string>;
}

/**
 * The server beside the agents' calls: `GET /health` round trips (beyond a fraction of a
 * millisecond, time its event loop was busy, mostly with forward passes) and what its prefix
 * cache did (lookups, evictions; tokens and bytes held at the end).
 */
export interface ServerProbeReport {
  healthMs: Spread & { samples: number };
  /** The same probe for a second before the agents started: the idle server's figure. */
  healthIdleMs?: Spread & { samples: number };
  prefixCache: CacheCounters | null;
}

/** The prefix cache's counters as `/metrics` gives them (gauges since the server started). */
export interface CacheCounters {
  hits: number;
  misses: number;
  evictions: number;
  tokens: number;
  bytes: number;
}

/** Counts of one agent's outcomes inside the measured window, from the client's events. */
export interface AgentCounts {
  accepted: number;
  rejected: number;
  dropped: number;
  errors: number;
  /** Time of the window the agent's loop was stopped (a wreck resting until the next round). */
  restedMs: number;
}

/** The value at quantile `q` (nearest rank); NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

const round = (x: number) => Math.round(x * 100) / 100;
const spread = (values: readonly number[]): Spread => ({
  p50: round(quantile(values, 0.5)),
  p99: round(quantile(values, 0.99)),
});
const mean = (values: readonly number[]) =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;

/** The `timings` field behind each server-side stage. */
const TIMING_FIELD: Record<
  Exclude<Stage, "server" | "transport">,
  Exclude<keyof ReplyTimings, "answer_cached">
> = {
  queue: "queue_ms",
  prepare: "prepare_ms",
  lane_wait: "lane_wait_ms",
  prefill: "prefill_ms",
  decode: "decode_ms",
  batch_wait: "batch_wait_ms",
  forward: "forward_ms",
  model: "total_ms",
};

/** A stage's value in one reply (null where the server did not report it). */
function stageOf(stage: Stage, sample: RequestSample): number | null {
  if (stage === "server") return sample.serverMs;
  if (stage === "transport")
    return sample.serverMs === null ? null : Math.max(0, sample.roundTripMs - sample.serverMs);
  return sample.timings?.[TIMING_FIELD[stage]] ?? null;
}

/**
 * One agent's row from its samples and counts. Samples sent before `fromMs` (the warm-up) count
 * only for `firstMs`; the rate is replies delivered in the window over the time the agent ran.
 *
 * @example
 * summarizeAgent("enemy-1", 16, transport.samples, counts, { fromMs: 2000, toMs: 12000 });
 */
export function summarizeAgent(
  agent: string,
  targetHz: number,
  samples: readonly RequestSample[],
  counts: AgentCounts,
  window: { fromMs: number; toMs: number },
): AgentReport {
  const measured = samples.filter((s) => s.sentAt >= window.fromMs && s.sentAt < window.toMs);
  const roundTrips = measured.map((s) => s.roundTripMs);
  const stagesMs = {} as Record<Stage, Spread>;
  for (const stage of STAGES) {
    stagesMs[stage] = spread(measured.map((s) => stageOf(stage, s)).filter((v): v is number => v !== null));
  }
  const timed = measured.map((s) => s.timings).filter((t): t is ReplyTimings => t !== null);
  const { restedMs, ...outcomes } = counts;
  const seconds = Math.max(1e-9, (window.toMs - window.fromMs - restedMs) / 1000);
  const medianOf = (pick: (t: ReplyTimings) => number | undefined) =>
    quantile(
      timed.map(pick).filter((n): n is number => n !== undefined),
      0.5,
    );
  const tokens = tokenCounts(timed);
  return {
    agent,
    targetHz,
    achievedHz: round((counts.accepted + counts.rejected) / seconds),
    restedSeconds: round(restedMs / 1000),
    replies: measured.length,
    ...outcomes,
    latencyMs: { ...spread(roundTrips), mean: round(mean(roundTrips)) },
    firstMs: samples[0] ? round(samples[0].roundTripMs) : null,
    stagesMs,
    promptTokens: medianOf((t) => t.prompt_tokens),
    cachedPrefixTokens: medianOf((t) => t.cached_prefix_tokens),
    prefilledTokens: tokens.prefilled.p50,
    tokens,
    answerCachedShare: answerCachedShare(timed),
    steps: medianOf((t) => t.steps),
    sharedSteps: round(mean(timed.map((t) => t.shared_steps ?? 0))),
  };
}

/**
 * Prompt, reused, prefilled and fed tokens of these calls' replies (median and mean each).
 *
 * @example
 * tokenCounts(samples.map((s) => s.timings).filter((t) => t !== null)).prefilled.mean;
 */
export function tokenCounts(timings: readonly ReplyTimings[]): TokenCounts {
  const spreadOf = (pick: (t: ReplyTimings) => number | undefined): TokenSpread => {
    const values = timings.map(pick).filter((n): n is number => n !== undefined);
    return { p50: quantile(values, 0.5), mean: round(mean(values)) };
  };
  return {
    prompt: spreadOf((t) => t.prompt_tokens),
    reused: spreadOf((t) => t.cached_prefix_tokens),
    // Servers before `prefilled_tokens` said prompt and cached tokens: the difference is the same count.
    prefilled: spreadOf(
      (t) =>
        t.prefilled_tokens ??
        (t.prompt_tokens === undefined ? undefined : t.prompt_tokens - t.cached_prefix_tokens),
    ),
    fed: spreadOf((t) => t.fed_tokens),
  };
}

/** Share of these replies answered from the server's answer cache (0 for none). */
export function answerCachedShare(timings: readonly ReplyTimings[]): number {
  if (timings.length === 0) return 0;
  return round(timings.filter((t) => t.answer_cached === true).length / timings.length);
}

/** The report as a fixed-width table (one row per agent, ms figures are p50 unless marked). */
export function formatArenaTable(report: ArenaReport): string {
  const columns: Array<[string, (a: AgentReport) => string]> = [
    ["agent", (a) => a.agent],
    ["target Hz", (a) => (a.targetHz > 0 ? String(a.targetHz) : "cmd")],
    ["Hz", (a) => a.achievedHz.toFixed(1)],
    ["rested s", (a) => a.restedSeconds.toFixed(1)],
    ["replies", (a) => String(a.replies)],
    ["p50 ms", (a) => a.latencyMs.p50.toFixed(1)],
    ["p99 ms", (a) => a.latencyMs.p99.toFixed(1)],
    ["first ms", (a) => (a.firstMs === null ? "-" : a.firstMs.toFixed(0))],
    ...STAGES.map((stage): [string, (a: AgentReport) => string] => [
      stage,
      (a) => (Number.isNaN(a.stagesMs[stage].p50) ? "-" : a.stagesMs[stage].p50.toFixed(1)),
    ]),
    ["prompt tok", (a) => String(a.promptTokens)],
    ["cached tok", (a) => String(a.cachedPrefixTokens)],
    ["prefilled tok", (a) => String(a.prefilledTokens)],
    ["passes", (a) => String(a.steps)],
  ];
  const rows = [
    columns.map(([name]) => name),
    ...report.agents.map((a) => columns.map(([, cell]) => cell(a))),
  ];
  const widths = columns.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => cell.padStart(widths[i]!)).join("  ")).join("\n");
}
