/**
 * Per-head quality through rtool-server: each case is sent to `/v1/function_call` or
 * `/v2/function_call` (its format) and judged with `bun run eval:tiny`'s rules (function, then each
 * argument by position; free text judged by presence and language; scenario examples check only
 * the arguments their file fixes). Tabulated per prompt format.
 */
import { existsSync, readFileSync } from "node:fs";
import type { FunctionTool, RtoolClient } from "../../packages/client/src/index";
import { type EvalCase, judgeCall, tabulate, type Verdict } from "../../tools/train/eval-tiny";

/** One set's figures for one prompt format. */
export interface QualityTable {
  set: string;
  format: "v1" | "v2";
  calls: number;
  exactPct: number;
  functionPct: number;
  /** Per head (`function`, `arg1`..): calls where the head was checked, and % right. */
  heads: Record<string, { n: number; pct: number }>;
  /** Per scenario: calls and exact %. */
  scenarios: Record<string, { n: number; exactPct: number; functionPct: number }>;
  /** Replies the server marked invalid (a reported validation error). */
  invalidReplies: number;
}

const pct = (a: number, n: number) => (n ? Math.round((1000 * a) / n) / 10 : 0);

/** The held-out requests of `bun run data:tiny`, at most `perCell` per scenario/lang/format cell. */
export function heldoutCases(file: string, perCell: number): EvalCase[] {
  if (!existsSync(file)) return [];
  const seen = new Map<string, number>();
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as EvalCase)
    .filter((c) => {
      const cell = `${c.scenario}/${c.lang}/${c.format}`;
      const count = seen.get(cell) ?? 0;
      seen.set(cell, count + 1);
      return count < perCell;
    });
}

/**
 * Sends every case and tabulates the verdicts per format.
 *
 * @example
 * const tables = await measureQuality(client, "scenario examples", scenarioExamples(dir));
 */
export async function measureQuality(
  client: RtoolClient,
  set: string,
  cases: EvalCase[],
): Promise<QualityTable[]> {
  const rows: { c: EvalCase; v: Verdict; invalid: boolean }[] = [];
  for (const c of cases) {
    const reply = await client.functionCall(
      {
        messages: c.body.messages as { role: "user"; content: string }[],
        tools: c.body.tools as unknown as FunctionTool[],
        ...(c.body.environment ? { environment: c.body.environment } : {}),
        ...(c.body.history ? { history: c.body.history } : {}),
        ...(c.body.system ? { system: c.body.system } : {}),
      },
      { version: c.format },
    );
    rows.push({ c, v: judgeCall(c, { function: reply.function, args: reply.args }), invalid: !reply.valid });
  }
  return (["v1", "v2"] as const).flatMap((format) => {
    const subset = rows.filter((r) => r.c.format === format);
    if (subset.length === 0) return [];
    const t = tabulate(subset);
    return [
      {
        set,
        format,
        calls: t.overall.n,
        exactPct: pct(t.overall.exact, t.overall.n),
        functionPct: pct(t.overall.fn, t.overall.n),
        heads: Object.fromEntries(
          Object.entries(t.heads).map(([h, r]) => [h, { n: r.n, pct: pct(r.ok, r.n) }]),
        ),
        scenarios: Object.fromEntries(
          Object.entries(t.scenario).map(([s, r]) => [
            s,
            { n: r.n, exactPct: pct(r.exact, r.n), functionPct: pct(r.fn, r.n) },
          ]),
        ),
        invalidReplies: subset.filter((r) => r.invalid).length,
      },
    ];
  });
}
