/**
 * `bun bench/calls.ts`: per scenario, the real-time figures of one call through the whole stack
 * (client -> rtool-server -> real-time caller), measured with streamed heads:
 * - time to the function head (the real-time analogue of time-to-first-token),
 * - time to the complete call,
 * - CPU time per call (server and client share this process, so it is the whole stack's),
 * - peak RSS (sampled after every call, and the process's high-water mark from /proc),
 * - how often the function (and the arguments the scenario fixes) match the expected call.
 * Writes bench/results/calls.json. Scenarios come from the repository's `scenarios/` folder.
 *
 * Model: `--model DIR`, else the embedded rt-tiny when installed, else a random checkpoint of a
 * small real-time shape with the qwen3-tied fixture's tokenizer (random answers, well-formed under
 * constrained decoding: timings are meaningful, accuracy is not). `--calls N` per scenario (default 24).
 * A benchmark, not a test: no thresholds.
 */

import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RtoolClient } from "../packages/client/src/index";
import type { FunctionCallReply, FunctionTool } from "../packages/client/src/types";
import { SHIP_MOVE_TOOL } from "../packages/contract/src/testing/sample-tools";
import { writeRandomQwenCheckpoint } from "../packages/core/src/model/random-checkpoint";
import { layerShapeJson, QWEN_SHAPES } from "../packages/core/src/model/shapes";
import { loadCallers } from "../packages/server/src/load-callers";
import { resolveModelDir } from "../packages/server/src/model-source";
import { createServer, type RtoolServer } from "../packages/server/src/server";
import { refuseUnknownOptions } from "../tools/train/cli-options";

const root = join(import.meta.dir, "..");

/** One scenario of `scenarios/`, or the fallback. */
export interface BenchScenario {
  name: string;
  system?: string;
  tools: FunctionTool[];
  examples: {
    query: string;
    environment?: string[];
    history?: string[];
    expected?: { function: string; args?: Record<string, unknown> };
  }[];
}

/** The value of `--name` on the command line. */
export function argValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** The scenarios of `scenarios/` at the repository root, or two small tools when that folder is absent. */
export function loadScenarios(): BenchScenario[] {
  const dir = join(root, "scenarios");
  if (existsSync(dir)) {
    return readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => ({ name: f.replace(/\.json$/, ""), ...JSON.parse(readFileSync(join(dir, f), "utf8")) }));
  }
  const tools: FunctionTool[] = [
    SHIP_MOVE_TOOL,
    {
      type: "function",
      function: { name: "fire", parameters: { type: "object", properties: {}, required: [] } },
    },
  ];
  const examples = ["up", "down", "left", "right", "fire now"].map((q) => ({ query: `ship: ${q}` }));
  return [{ name: "fallback", tools, examples }];
}

/** The model to benchmark, and a cleanup for a temporary one. */
export async function pickBenchModel(): Promise<{ dir: string; name: string; cleanup: () => void }> {
  const given = argValue("--model");
  if (given) return { dir: await resolveModelDir(given), name: given, cleanup: () => {} };
  try {
    return { dir: await resolveModelDir("rt-tiny"), name: "rt-tiny", cleanup: () => {} };
  } catch {
    const scratch = mkdtempSync(join(tmpdir(), "rtool-bench-calls-"));
    const fixture = join(root, "packages/core/test/fixtures/qwen3-tied");
    const config = JSON.parse(readFileSync(join(fixture, "config.json"), "utf8"));
    // The fixture's byte-level vocabulary spells a scenario's tools in a few thousand tokens.
    Object.assign(config, layerShapeJson(QWEN_SHAPES["rt-tiny"]), { max_position_embeddings: 8192 });
    writeRandomQwenCheckpoint(scratch, config, { seed: 7 });
    for (const file of ["tokenizer.json", "tokenizer_config.json", "generation_config.json"]) {
      copyFileSync(join(fixture, file), join(scratch, file));
    }
    return {
      dir: scratch,
      name: "random qwen3 h256 x4 layers (fixture tokenizer)",
      cleanup: () => rmSync(scratch, { recursive: true, force: true }),
    };
  }
}

/** A server on 127.0.0.1 over the model, and a client of it. */
export async function startBenchServer(
  dir: string,
  name: string,
  lanes: number,
  prefixCacheBytes?: number,
): Promise<{ server: RtoolServer; client: RtoolClient }> {
  const server = createServer({
    // Warm calls repeat a request: measure decoding it, not the answer cache (no pass at all).
    model: loadCallers(dir, { lanes, prefixCacheBytes, answerCacheEntries: 0 }),
    modelName: name,
    hostname: "127.0.0.1",
    port: 0,
    format: "v2",
    concurrency: lanes,
    maxWaiting: 1024,
  });
  const { url } = await server.listen();
  const client = new RtoolClient({ baseUrl: url, timeoutMs: 120_000 });
  await client.waitUntilReady({ timeoutMs: 600_000 });
  return { server, client };
}

/** The call of the scenario's `i`-th example (cycling), as the client sends it. */
export function exampleInput(scenario: BenchScenario, i: number) {
  const example = scenario.examples[i % scenario.examples.length]!;
  return {
    query: example.query,
    tools: scenario.tools,
    ...(scenario.system ? { system: scenario.system } : {}),
    ...(example.environment ? { environment: example.environment } : {}),
    ...(example.history ? { history: example.history } : {}),
  };
}

/** Peak resident set of this process so far (Linux VmHWM), in bytes; null elsewhere. */
export function peakRssBytes(): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] ?? Number.NaN;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

function argsMatch(expected: Record<string, unknown> | undefined, got: Record<string, unknown>): boolean {
  return Object.entries(expected ?? {}).every(([k, v]) =>
    typeof v === "string" && typeof got[k] === "string"
      ? (got[k] as string).toLowerCase() === v.toLowerCase()
      : got[k] === v,
  );
}

async function main(): Promise<void> {
  refuseUnknownOptions(["calls", "model"]);
  const callsPerScenario = Number(argValue("--calls") ?? 24);
  const model = await pickBenchModel();
  const { server, client } = await startBenchServer(model.dir, model.name, 1);
  const scenarios: Record<string, unknown> = {};
  try {
    for (const scenario of loadScenarios()) {
      const input = (i: number) => {
        return {
          ...exampleInput(scenario, i),
          max_tokens: 24,
        };
      };
      // Warm-up: the first call prefills the system turn into the prefix cache.
      await client.functionCall(input(0));
      const headMs: number[] = [];
      const callMs: number[] = [];
      const prefillMs: number[] = [];
      let functionMatches = 0;
      let argsMatches = 0;
      let valid = 0;
      let rssMax = 0;
      const cpuBefore = process.cpuUsage();
      for (let i = 0; i < callsPerScenario; i++) {
        const started = performance.now();
        let reply: FunctionCallReply | null = null;
        for await (const event of client.streamFunctionCall(input(i))) {
          if ("head" in event) {
            if (event.head === "function") headMs.push(performance.now() - started);
          } else reply = event.call;
        }
        callMs.push(performance.now() - started);
        rssMax = Math.max(rssMax, process.memoryUsage().rss);
        if (!reply) continue;
        prefillMs.push(reply.timings.prefill_ms);
        if (reply.valid) valid++;
        const expected = scenario.examples[i % scenario.examples.length]!.expected;
        if (expected && reply.function === expected.function) {
          functionMatches++;
          if (argsMatch(expected.args, reply.args)) argsMatches++;
        }
      }
      const cpu = process.cpuUsage(cpuBefore);
      scenarios[scenario.name] = {
        calls: callsPerScenario,
        tools: scenario.tools.length,
        time_to_function_head_ms: { p50: round(quantile(headMs, 0.5)), p90: round(quantile(headMs, 0.9)) },
        time_to_call_ms: { p50: round(quantile(callMs, 0.5)), p90: round(quantile(callMs, 0.9)) },
        server_prefill_ms_p50: round(quantile(prefillMs, 0.5)),
        cpu_ms_per_call: round((cpu.user + cpu.system) / 1000 / callsPerScenario),
        rss_max_mb: round(rssMax / 2 ** 20, 1),
        valid_calls: valid,
        function_matches_expected: functionMatches,
        function_and_fixed_args_match: argsMatches,
      };
      const s = scenarios[scenario.name] as {
        time_to_function_head_ms: { p50: number };
        time_to_call_ms: { p50: number };
        cpu_ms_per_call: number;
      };
      console.log(
        `${scenario.name.padEnd(18)} head ${s.time_to_function_head_ms.p50.toFixed(1).padStart(7)} ms  call ${s.time_to_call_ms.p50.toFixed(1).padStart(7)} ms  cpu ${s.cpu_ms_per_call.toFixed(1).padStart(7)} ms/call  match ${functionMatches}/${callsPerScenario}`,
      );
    }
  } finally {
    await server.close();
    model.cleanup();
  }
  const peak = peakRssBytes();
  const result = {
    date: new Date().toISOString(),
    model: model.name,
    route: "/v2/function_call with stream: true, one client, sequential calls, prefix cache warm",
    scenarios,
    peak_rss_mb: peak === null ? null : round(peak / 2 ** 20, 1),
    note: "server and client share one process: CPU and RSS are the whole stack's; the machine is shared, so timings vary with its load",
  };
  mkdirSync(join(root, "bench/results"), { recursive: true });
  writeFileSync(join(root, "bench/results/calls.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`peak RSS ${result.peak_rss_mb} MB; wrote bench/results/calls.json`);
}

if (import.meta.main) await main();
