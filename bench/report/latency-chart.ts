/**
 * The report's SVG chart, written by hand: per scenario a group of bars (cold, hot, sequential
 * JSON), height = milliseconds on a log scale (cold and sequential can be 10-100x a hot call, and a
 * linear axis would flatten the hot bars to nothing), each bar labelled with its value.
 */

/** One scenario's bars; a missing value is drawn as "n/a" with no bar. */
export interface LatencyBars {
  scenario: string;
  coldMs: number | null;
  hotMs: number | null;
  sequentialMs: number | null;
}

const SERIES = [
  { key: "coldMs", label: "cold (new system+tools prompt)", color: "#d9534f" },
  { key: "hotMs", label: "hot (prefix cached)", color: "#2b7bb9" },
  { key: "sequentialMs", label: "sequential JSON (bench:decode)", color: "#8c8c8c" },
] as const;

const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Renders the chart.
 *
 * @example
 * writeFileSync("bench/results/latency.svg", latencyChart(bars, "rt-tiny on CPU"));
 */
export function latencyChart(bars: LatencyBars[], title: string, note = ""): string {
  const groupW = 96;
  const barW = 24;
  const left = 64;
  const top = 70;
  const plotH = 260;
  const width = Math.max(640, left + 20 + bars.length * groupW);
  const height = top + plotH + 90;
  const values = bars
    .flatMap((b) => SERIES.map((s) => b[s.key]))
    .filter((v): v is number => v !== null && v > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.max(0.1, Math.min(1, ...values))));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(10, ...values)));
  const y = (ms: number) =>
    top + plotH - ((Math.log10(Math.max(ms, lo)) - Math.log10(lo)) / Math.log10(hi / lo)) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${xmlText(title)}</text>`,
  ];
  SERIES.forEach((s, i) => {
    parts.push(`<rect x="${10 + i * 210}" y="32" width="12" height="12" fill="${s.color}"/>`);
    parts.push(`<text x="${26 + i * 210}" y="42">${xmlText(s.label)}</text>`);
  });
  for (let decade = lo; decade <= hi; decade *= 10) {
    const at = y(decade);
    parts.push(`<line x1="${left}" y1="${at}" x2="${width - 10}" y2="${at}" stroke="#ddd"/>`);
    parts.push(
      `<text x="${left - 6}" y="${at + 4}" text-anchor="end">${decade >= 1 ? decade : decade.toFixed(1)} ms</text>`,
    );
  }
  parts.push(`<line x1="${left}" y1="${top + plotH}" x2="${width - 10}" y2="${top + plotH}" stroke="#444"/>`);
  bars.forEach((bar, g) => {
    const x0 = left + 12 + g * groupW;
    SERIES.forEach((s, i) => {
      const value = bar[s.key];
      const x = x0 + i * (barW + 2);
      if (value === null || !(value > 0)) {
        parts.push(
          `<text x="${x + barW / 2}" y="${top + plotH - 4}" text-anchor="middle" fill="#999">n/a</text>`,
        );
        return;
      }
      const at = y(value);
      parts.push(
        `<rect x="${x}" y="${at.toFixed(1)}" width="${barW}" height="${(top + plotH - at).toFixed(1)}" fill="${s.color}"><title>${xmlText(`${bar.scenario} ${s.label}: ${value.toFixed(1)} ms`)}</title></rect>`,
      );
      const label = value >= 100 ? value.toFixed(0) : value.toFixed(1);
      parts.push(
        `<text x="${x + barW / 2}" y="${(at - 3).toFixed(1)}" text-anchor="middle" font-size="9">${label}</text>`,
      );
    });
    parts.push(
      `<text x="${x0 + (SERIES.length * (barW + 2)) / 2}" y="${top + plotH + 16}" text-anchor="middle">${xmlText(bar.scenario)}</text>`,
    );
  });
  if (note) parts.push(`<text x="10" y="${height - 14}" fill="#555">${xmlText(note)}</text>`);
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
