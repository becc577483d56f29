/**
 * The peer benchmark's SVG chart, written by hand: one panel per model and quantization, a group
 * of three bars (rtool, transformers.js, llama.cpp) per scenario, height = time to the call.
 */

/** One bar's source row (rows without a time are drawn as a cross with no bar). */
export interface ChartRow {
  model: string;
  scenario: string;
  engine: string;
  pair: string;
  call_ms: number | null;
}

const COLORS: Record<string, string> = { rtool: "#2b7bb9", transformers_js: "#e8a33d", llama_cpp: "#5a9e4b" };
const ENGINES = ["rtool", "transformers_js", "llama_cpp"];

const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Renders the chart; `title` goes on top. */
export function peerChart(rows: ChartRow[], title: string): string {
  const panels = [...new Set(rows.map((r) => `${r.model} | ${r.pair}`))];
  const scenarios = [...new Set(rows.map((r) => r.scenario))];
  const panelW = Math.max(560, 120 + scenarios.length * 78);
  const panelH = 230;
  const width = panelW;
  const height = 60 + panels.length * (panelH + 40);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${xmlText(title)}</text>`,
  ];
  ENGINES.forEach((e, i) => {
    parts.push(`<rect x="${10 + i * 130}" y="32" width="12" height="12" fill="${COLORS[e]}"/>`);
    parts.push(`<text x="${26 + i * 130}" y="42">${e}</text>`);
  });
  panels.forEach((panel, p) => {
    const top = 60 + p * (panelH + 40);
    const inPanel = rows.filter((r) => `${r.model} | ${r.pair}` === panel);
    const max = Math.max(1, ...inPanel.map((r) => r.call_ms ?? 0));
    const plotH = panelH - 50;
    const left = 60;
    parts.push(
      `<text x="10" y="${top + 12}" font-weight="bold">${xmlText(panel)} — time to a complete valid call (ms)</text>`,
    );
    parts.push(
      `<line x1="${left}" y1="${top + 20 + plotH}" x2="${panelW - 10}" y2="${top + 20 + plotH}" stroke="#444"/>`,
    );
    for (const frac of [0, 0.5, 1]) {
      const y = top + 20 + plotH - frac * plotH;
      parts.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end">${Math.round(max * frac)}</text>`);
      parts.push(`<line x1="${left}" y1="${y}" x2="${panelW - 10}" y2="${y}" stroke="#ddd"/>`);
    }
    scenarios.forEach((s, si) => {
      const x0 = left + 10 + si * 78;
      ENGINES.forEach((e, ei) => {
        const row = inPanel.find((r) => r.scenario === s && r.engine === e);
        const x = x0 + ei * 20;
        const base = top + 20 + plotH;
        if (row?.call_ms == null) {
          parts.push(`<text x="${x + 8}" y="${base - 4}" text-anchor="middle" fill="${COLORS[e]}">×</text>`);
          return;
        }
        const h = (row.call_ms / max) * plotH;
        parts.push(
          `<rect x="${x}" y="${base - h}" width="16" height="${h}" fill="${COLORS[e]}"><title>${xmlText(`${s} ${e}: ${row.call_ms.toFixed(1)} ms`)}</title></rect>`,
        );
      });
      parts.push(
        `<text x="${x0 + 28}" y="${top + 20 + plotH + 14}" text-anchor="middle">${xmlText(s.slice(0, 13))}</text>`,
      );
    });
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
