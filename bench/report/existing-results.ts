/**
 * The other benchmarks' result files
 * (`bench/results/{core,decode,quant,roofline,server,scaling,calls,soak,peers}.json`),
 * read as they are and reduced to the figures the report shows. A file that is absent is listed as
 * missing with the command that writes it; a file whose shape changed yields what can be read.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One benchmark's figures as the report shows them. */
export interface ResultSummary {
  bench: string;
  /** The command that writes the file. */
  command: string;
  file: string;
  present: boolean;
  date: string | null;
  /** The model or shapes measured, in words. */
  subject: string | null;
  /** Headline figures, name -> value (numbers rounded, or short text). */
  figures: Record<string, number | string>;
}

// biome-ignore lint/suspicious/noExplicitAny: other benches' files are read loosely; every field used is checked or printed as-is
type Json = Record<string, any>;

const round = (x: unknown, digits = 2): number | string =>
  typeof x === "number" && Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : "-";

const SUMMARIZERS: Record<
  string,
  { command: string; summarize: (j: Json) => Omit<ResultSummary, "bench" | "command" | "file" | "present"> }
> = {
  core: {
    command: "bun run bench:core",
    summarize: (j) => {
      const figures: Record<string, number | string> = {
        "bandwidth GB/s (best)": round(j.bandwidthGBs),
        "peak GFLOP/s (best)": round(j.peakGflops),
        "load average before": round(j.machine?.loadAverageBefore),
      };
      for (const [name, shape] of Object.entries<Json>(j.shapes ?? {})) {
        figures[`${name} decode step ms (median)`] = round(shape.decodeStep?.medianMs);
        figures[`${name} 8-token batch / 1 token`] = round(shape.batchStep?.vsSingle);
        figures[`${name} prefill tokens/s`] = round(shape.prefill?.tokensPerSecond, 0);
      }
      return { date: j.date ?? null, subject: Object.keys(j.shapes ?? {}).join(", ") || null, figures };
    },
  },
  decode: {
    command: "bun run bench:decode",
    summarize: (j) => {
      const tiny: Json = j.tiny ?? {};
      return {
        date: j.date ?? null,
        subject: `tiny shape, random weights, ${j.tokenizers?.tiny ?? "tokenizer ?"}`,
        figures: {
          "multi-head vs sequential decode (x, median)": round(tiny.multihead_vs_sequential),
          "end-to-end vs sequential (x, median)": round(tiny.end_to_end_vs_sequential),
          "8 heads / 1 head step time": round(tiny.step_8heads_vs_1),
          "warm vs cold prefix (x, median)": round(tiny.warm_vs_cold),
          "next frame vs cold (x, median)": round(tiny.warm_vs_cold_next_frame),
        },
      };
    },
  },
  quant: {
    command: "bun run bench:quant",
    summarize: (j) => {
      const figures: Record<string, number | string> = { "bandwidth GB/s": round(j.bandwidth_gbs) };
      for (const row of (j.rows ?? []) as Json[]) {
        const key = `${row.shape} ${row.dtype} step ms`;
        figures[key] = typeof row.skipped === "string" ? `skipped: ${row.skipped}` : round(row.step_ms);
      }
      return { date: j.date ?? null, subject: "random weights at real shapes", figures };
    },
  },
  roofline: {
    command: "bun run bench:roofline",
    summarize: (j) => {
      const figures: Record<string, number | string> = {};
      for (const row of (j.rows ?? []) as Json[]) {
        const key = `${row.shape} ${row.dtype}`;
        if (typeof row.skipped === "string") figures[`${key}`] = `skipped: ${row.skipped}`;
        for (const step of (row.steps ?? []) as Json[])
          figures[`${key} ${step.heads} heads x roofline`] = round(step.roofline_ratio);
      }
      return {
        date: j.date ?? null,
        subject: `random weights; roofline ${j.roofline?.bandwidthGBs ?? "?"} GB/s, ${j.roofline?.peakGflops ?? "?"} GFLOP/s`,
        figures,
      };
    },
  },
  scaling: {
    command: "bun run bench:scaling",
    summarize: (j) => {
      const figures: Record<string, number | string> = {};
      for (const l of (j.levels ?? []) as Json[]) {
        figures[`${l.agents} agents calls/s`] = round(l.calls_per_s);
        figures[`${l.agents} agents p99 ms`] = round(l.p99_ms);
      }
      for (const r of (j.ratios ?? []) as Json[])
        figures[`${r.agents} agents calls/s / 1`] = round(r.calls_per_s);
      return { date: j.date ?? null, subject: j.model ?? null, figures };
    },
  },
  server: {
    command: "bun run bench:server",
    summarize: (j) => {
      const figures: Record<string, number | string> = {};
      for (const [level, r] of Object.entries<Json>(j.levels ?? {})) {
        figures[`${level} clients p50 ms`] = round(r.p50_ms);
        figures[`${level} clients calls/s`] = round(r.calls_per_s);
      }
      figures["throughput 16 / 1"] = round(j.throughput_ratio_16_over_1);
      figures["lost + duplicated + mismatched"] =
        (j.lost ?? 0) + (j.duplicated ?? 0) + (j.mismatched_vs_one_client ?? 0);
      return { date: j.date ?? null, subject: j.model ?? null, figures };
    },
  },
  calls: {
    command: "bun bench/calls.ts",
    summarize: (j) => {
      const figures: Record<string, number | string> = {};
      for (const [name, r] of Object.entries<Json>(j.scenarios ?? {})) {
        figures[`${name} time to call p50 ms`] = round(r.time_to_call_ms?.p50);
      }
      return { date: j.date ?? null, subject: j.model ?? null, figures };
    },
  },
  soak: {
    command: "bun bench/soak.ts",
    summarize: (j) => ({
      date: j.date ?? null,
      subject: j.model ?? null,
      figures: {
        "calls done": j.calls_done ?? "-",
        finished: j.final === true ? "yes" : "no (stopped or still running)",
        "RSS growth %": round(j.rss?.growth_pct),
        "RSS slope MB / 1000 calls": round(j.rss?.slope_mb_per_1000_calls, 3),
        failed: j.failed ?? "-",
        invalid: j.invalid ?? "-",
      },
    }),
  },
  peers: {
    command: "bun bench/peers.ts",
    summarize: (j) => {
      const figures: Record<string, number | string> = {};
      for (const [model, byQuant] of Object.entries<Json>(j.ratios_by_model ?? {})) {
        for (const [quant, ratios] of Object.entries<Json>(byQuant)) {
          for (const [peer, ratio] of Object.entries(ratios)) {
            figures[`${model} ${quant}: ${peer} time / rtool time`] = round(ratio);
          }
        }
      }
      return {
        date: j.date ?? null,
        subject: Object.keys(j.ratios_by_model ?? {}).join(", ") || null,
        figures,
      };
    },
  },
};

/** The benchmarks this report aggregates, in report order. */
export const AGGREGATED_BENCHES = Object.keys(SUMMARIZERS);

/** The command that writes `bench/results/<bench>.json`. */
export function benchCommand(bench: string): string {
  return SUMMARIZERS[bench]?.command ?? `bun bench/${bench}.ts`;
}

/**
 * Reads and summarizes every aggregated result file present in `dir`.
 *
 * @example
 * readExistingResults("bench/results").filter((r) => !r.present).map((r) => r.command);
 */
export function readExistingResults(dir: string): ResultSummary[] {
  return AGGREGATED_BENCHES.map((bench) => {
    const file = join(dir, `${bench}.json`);
    const { command, summarize } = SUMMARIZERS[bench]!;
    const base = { bench, command, file: `bench/results/${bench}.json` };
    if (!existsSync(file)) return { ...base, present: false, date: null, subject: null, figures: {} };
    try {
      return { ...base, present: true, ...summarize(JSON.parse(readFileSync(file, "utf8"))) };
    } catch (error) {
      return {
        ...base,
        present: true,
        date: null,
        subject: null,
        figures: { unreadable: error instanceof Error ? error.message : String(error) },
      };
    }
  });
}

/** Per scenario, sequential-JSON and multi-head end-to-end ms from decode.json (tiny shape). */
export function decodeScenarioTimes(
  dir: string,
): Record<string, { sequentialMs: number; multiheadMs: number }> {
  const file = join(dir, "decode.json");
  if (!existsSync(file)) return {};
  const scenarios: Record<string, Json> =
    JSON.parse(readFileSync(file, "utf8")).tiny?.details?.scenarios ?? {};
  const out: Record<string, { sequentialMs: number; multiheadMs: number }> = {};
  for (const [name, s] of Object.entries(scenarios)) {
    const sequentialMs = s.sequentialEndToEnd?.medianMs;
    const multiheadMs = s.multiheadEndToEnd?.medianMs;
    if (typeof sequentialMs === "number" && typeof multiheadMs === "number")
      out[name] = { sequentialMs, multiheadMs };
  }
  return out;
}
