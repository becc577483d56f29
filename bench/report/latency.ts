/**
 * Cold and hot latency per scenario through rtool-server, as its test client sees it: the reply's
 * own `latency_ms` (what the reference server's test client prints) and the round trip measured
 * here. Cold is a call whose system+tools prompt the server has not seen (nothing in the prefix
 * cache); hot repeats the same request with that prefix cached.
 */
import type { FunctionTool, RtoolClient } from "../../packages/client/src/index";
import type { Scenario } from "../../packages/sim/src/index";

/** Median and spread of a set of samples, in ms. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  samples: number;
}

/** One scenario's latency row. */
export interface LatencyRow {
  scenario: string;
  cold: { serverMs: Spread; clientMs: Spread; cachedPrefixTokens: number };
  hot: {
    serverMs: Spread;
    clientMs: Spread;
    cachedPrefixTokens: number;
    prefillMs: Spread;
    decodeMs: Spread;
  };
  /** Decode steps of the hot call (the longest head plus its tag step). */
  steps: number;
  function: string | null;
}

/** Options of {@link measureLatency}. */
export interface LatencyOptions {
  /** Cold samples per scenario; default 3 (see {@link coldSystem}). */
  coldSamples?: number;
  /** Hot samples per scenario after one warm-up call; default 5. */
  hotSamples?: number;
}

export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    median: r(median),
    min: r(sorted[0] ?? Number.NaN),
    max: r(sorted.at(-1) ?? Number.NaN),
    samples: values.length,
  };
}

/**
 * The system prompt of cold sample `k`: sample 0 is the scenario's own; later samples put a
 * session line first, so the prompt shares nothing with earlier ones past `<|im_start|>system\n`
 * and the prefix cache cannot help (a suffix would leave the system text reusable).
 */
export function coldSystem(system: string, k: number): string {
  return k === 0 ? system : `Session ${k}.\n${system}`;
}

/**
 * Measures every scenario's first example on the v2 route. Run it on a server that has not served
 * these scenarios yet, or the first cold sample is not cold.
 *
 * @example
 * const rows = await measureLatency(client, { pong: scenarios.pong }, { hotSamples: 5 });
 */
export async function measureLatency(
  client: RtoolClient,
  scenarios: Record<string, Scenario>,
  options: LatencyOptions = {},
): Promise<LatencyRow[]> {
  const coldSamples = options.coldSamples ?? 3;
  const hotSamples = options.hotSamples ?? 5;
  const rows: LatencyRow[] = [];
  for (const [name, scenario] of Object.entries(scenarios)) {
    const example = scenario.examples[0]!;
    const input = (system: string) => ({
      query: example.query,
      tools: scenario.tools as unknown as FunctionTool[],
      system,
      ...(example.environment ? { environment: example.environment } : {}),
      ...(example.history ? { history: example.history } : {}),
    });
    const timed = async (system: string) => {
      const started = performance.now();
      const reply = await client.functionCall(input(system), { version: "v2" });
      return { reply, clientMs: performance.now() - started };
    };
    const cold = [];
    for (let k = 0; k < coldSamples; k++) cold.push(await timed(coldSystem(scenario.system, k)));
    await timed(scenario.system); // the scenario's own prefix is cached by cold sample 0; one more settles it
    const hot = [];
    for (let k = 0; k < hotSamples; k++) hot.push(await timed(scenario.system));
    rows.push({
      scenario: name,
      cold: {
        serverMs: spread(cold.map((c) => c.reply.latency_ms)),
        clientMs: spread(cold.map((c) => c.clientMs)),
        cachedPrefixTokens: Math.max(...cold.map((c) => c.reply.timings?.cached_prefix_tokens ?? 0)),
      },
      hot: {
        serverMs: spread(hot.map((c) => c.reply.latency_ms)),
        clientMs: spread(hot.map((c) => c.clientMs)),
        cachedPrefixTokens: Math.min(...hot.map((c) => c.reply.timings?.cached_prefix_tokens ?? 0)),
        prefillMs: spread(hot.map((c) => c.reply.timings?.prefill_ms ?? Number.NaN)),
        decodeMs: spread(hot.map((c) => c.reply.timings?.decode_ms ?? Number.NaN)),
      },
      steps: hot.at(-1)?.reply.timings?.steps ?? 0,
      function: hot.at(-1)?.reply.function ?? null,
    });
  }
  return rows;
}
