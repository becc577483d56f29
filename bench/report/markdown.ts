/**
 * `bench/results/report.md`: the aggregated report as readable tables, from the same object that
 * is written to `report.json`.
 */
import type { ResultSummary } from "./existing-results";
import type { LatencyRow } from "./latency";
import type { QualityTable } from "./quality";

/** What one episode run came to, as the report keeps it. */
export interface EpisodeSummary {
  episode: string;
  scenario: string;
  version: "v1" | "v2";
  completed: boolean;
  failedStep: number | null;
  failure: string | null;
  /** Per step: the call the model made and what became of it. */
  steps: { name: string; call: string | null; outcome: string; met: boolean; serverMs: number | null }[];
}

/** The whole report. */
export interface BenchReport {
  date: string;
  seconds: number;
  machine: { cores: number; loadAverageBefore: number; loadAverageAfter: number };
  model: { name: string; embedded: boolean; parameters: number | null; note: string };
  latency: LatencyRow[];
  sequential: {
    source: string;
    perScenario: Record<string, { sequentialMs: number; multiheadMs: number }>;
  };
  quality: QualityTable[];
  episodes: EpisodeSummary[];
  aggregated: ResultSummary[];
  /** Benchmarks this run executed itself (the rest were read from their files). */
  ranItself: string[];
  skipped: string[];
}

const fmt = (x: number | null | undefined, digits = 1) =>
  typeof x === "number" && Number.isFinite(x) ? x.toFixed(digits) : "-";

function table(header: string[], rows: (string | number)[][], align: string[] = []): string[] {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (align[i] === "r" ? "---:" : "---")).join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
}

/** Renders the report as Markdown (the SVG chart is linked as `latency.svg`). */
export function renderMarkdown(report: BenchReport): string {
  const out: string[] = [
    "# rtool benchmark report",
    "",
    `${report.date} · ${report.seconds.toFixed(0)} s · ${report.machine.cores} cores, load average ${report.machine.loadAverageBefore} before / ${report.machine.loadAverageAfter} after (a shared machine: figures move with its load).`,
    "",
    `Model: **${report.model.name}**${report.model.parameters ? ` (${(report.model.parameters / 1e6).toFixed(2)}M parameters)` : ""}. ${report.model.note}`,
    "",
    "## Latency per scenario (v2 route, first example of each scenario)",
    "",
    "Server = the reply's `latency_ms` (what the reference server's test client prints); client = the round trip seen by `@rtool/client` on loopback. Cold = a system+tools prompt the server has not seen; hot = the same request again with its prefix cached. Sequential JSON = `bench:decode`'s tiny shape (random weights, rt-tiny's tokenizer, teacher-forced) decoding the call as one JSON string, for comparison with multi-head decoding of the same call at the same shape.",
    "",
    "![latency per scenario](latency.svg)",
    "",
    ...table(
      [
        "scenario",
        "cold server ms",
        "cold client ms",
        "hot server ms",
        "hot client ms",
        "hot prefill / decode ms",
        "hot cached tokens",
        "steps",
        "seq. JSON ms",
        "multi-head ms (same shape)",
      ],
      report.latency.map((r) => {
        const seq = report.sequential.perScenario[r.scenario];
        return [
          r.scenario,
          fmt(r.cold.serverMs.median),
          fmt(r.cold.clientMs.median),
          fmt(r.hot.serverMs.median),
          fmt(r.hot.clientMs.median),
          `${fmt(r.hot.prefillMs.median)} / ${fmt(r.hot.decodeMs.median)}`,
          r.hot.cachedPrefixTokens,
          r.steps,
          fmt(seq?.sequentialMs),
          fmt(seq?.multiheadMs),
        ];
      }),
      ["", "r", "r", "r", "r", "r", "r", "r", "r", "r"],
    ),
    "",
    "Medians; each row's spread (min, max, samples) is in `report.json`.",
    "",
    "## Per-head quality",
    "",
  ];
  for (const t of report.quality) {
    const heads = Object.entries(t.heads).map(([h, r]) => `${h} ${fmt(r.pct)}% (${r.n})`);
    out.push(
      `**${t.set}, ${t.format}**: ${t.calls} calls, exact ${fmt(t.exactPct)}%, function ${fmt(t.functionPct)}%, replies with a reported validation error ${t.invalidReplies}. Heads: ${heads.join(", ")}.`,
      "",
    );
  }
  const sets = [...new Set(report.quality.map((t) => t.set))];
  for (const set of sets) {
    const byFormat = report.quality.filter((t) => t.set === set);
    const scenarios = [...new Set(byFormat.flatMap((t) => Object.keys(t.scenarios)))].sort();
    out.push(
      `${set}, exact % / function % per scenario:`,
      "",
      ...table(
        ["scenario", ...byFormat.map((t) => t.format)],
        scenarios.map((s) => [
          s,
          ...byFormat.map((t) => {
            const r = t.scenarios[s];
            return r ? `${fmt(r.exactPct)} / ${fmt(r.functionPct)} (${r.n})` : "-";
          }),
        ]),
      ),
      "",
    );
  }
  out.push(
    "## Episodes (request → rtool-server → model → call → sim world)",
    "",
    ...table(
      ["episode", "route", "result", "calls (outcome)"],
      report.episodes.map((e) => [
        e.episode,
        e.version,
        e.completed
          ? "completed"
          : `failed at step ${e.failedStep ?? "-"}: ${(e.failure ?? "").replace(/\|/g, "\\|")}`,
        e.steps.map((s) => `${s.call ?? "-"} (${s.outcome}${s.met ? "" : ", not met"})`).join(" → "),
      ]),
    ),
    "",
    "## Other benchmarks (read from their result files)",
    "",
  );
  for (const r of report.aggregated) {
    if (!r.present) {
      out.push(`- **${r.bench}**: no \`${r.file}\` (run \`${r.command}\`).`);
      continue;
    }
    const figures = Object.entries(r.figures).map(([k, v]) => `${k}: ${v}`);
    out.push(
      `- **${r.bench}** (${r.date ?? "undated"}${r.subject ? `; ${r.subject}` : ""}${report.ranItself.includes(r.bench) ? "; run by this report" : ""}): ${figures.join("; ")}.`,
    );
  }
  if (report.skipped.length > 0) out.push("", "## Skipped", "", ...report.skipped.map((s) => `- ${s}`));
  return `${out.join("\n")}\n`;
}
