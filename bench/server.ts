/**
 * `bun run bench:server`: rtool-server under load, on loopback only. One server (the real
 * createServer + loadCallers path, 16 lanes sharing forward passes) answers a fixed number of
 * calls from 1, 4 and 16 concurrent clients; reports p50/p99 latency and calls/s per level and
 * throughput(16) / throughput(1), checks that every call got exactly one reply and that the
 * reply equals the one-client reply for the same query, and writes bench/results/server.json.
 *
 * Model: `--model DIR`, else the embedded rt-tiny when installed, else a random checkpoint of a
 * small real-time shape (hidden 256, 4 layers, the qwen3-tied fixture's tokenizer) written to a
 * temporary directory: answers are random but well-formed under constrained decoding. With
 * rt-tiny, the robot-arm scenario's tools and system prompt are used when `scenarios/`
 * is there; otherwise two small tools.
 * A benchmark, not a test: no thresholds. `--calls N` sets calls per level (default 96);
 * `--threads N` the ONNX Runtime threads (default: the physical cores).
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { FunctionCallReply } from "../packages/contract/src";
import { writeRandomQwenCheckpoint } from "../packages/core/src/model/random-checkpoint";
import { layerShapeJson, QWEN_SHAPES } from "../packages/core/src/model/shapes";
import { loadCallers } from "../packages/server/src/load-callers";
import { resolveModelDir } from "../packages/server/src/model-source";
import { createServer } from "../packages/server/src/server";
import { FIXTURE_TOOLS } from "../packages/server/src/testing/sample-tools";

const root = join(import.meta.dir, "..");
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const CALLS = Number(arg("--calls") ?? 96);
const THREADS = arg("--threads") === undefined ? undefined : Number(arg("--threads"));
const LEVELS = [1, 4, 16];

const scratch = mkdtempSync(join(tmpdir(), "rtool-bench-server-"));

/** A random Qwen3 checkpoint of a small real-time shape, with the fixture's tokenizer. */
function randomSmallModel(): string {
  const fixture = join(root, "packages/core/test/fixtures/qwen3-tied");
  const config = JSON.parse(readFileSync(join(fixture, "config.json"), "utf8"));
  Object.assign(config, layerShapeJson(QWEN_SHAPES["rt-tiny"]), { max_position_embeddings: 2048 });
  writeRandomQwenCheckpoint(scratch, config, { seed: 7 });
  for (const file of ["tokenizer.json", "tokenizer_config.json", "generation_config.json"]) {
    copyFileSync(join(fixture, file), join(scratch, file));
  }
  return scratch;
}

async function pickModel(): Promise<{ dir: string; name: string }> {
  const given = arg("--model");
  if (given) return { dir: await resolveModelDir(given), name: given };
  try {
    return { dir: await resolveModelDir("rt-tiny"), name: "rt-tiny" };
  } catch {
    return { dir: randomSmallModel(), name: "random qwen3 h256 x4 layers (fixture tokenizer)" };
  }
}

interface Workload {
  label: string;
  tools: unknown[];
  system?: string;
  queries: string[];
  maxTokens: number;
}

function workload(name: string): Workload {
  const scenario = join(root, "scenarios", "robotic_arm.json");
  const places = ["red gear", "blue cap", "tray", "bin", "home"];
  if (name === "rt-tiny" && existsSync(scenario)) {
    const s = JSON.parse(readFileSync(scenario, "utf8")) as { system: string; tools: unknown[] };
    const queries = Array.from({ length: 32 }, (_, i) => {
      const [x, y, z] = [100 + 10 * i, 50 + 5 * i, 20 + i];
      return `Part: ${places[i % places.length]} at (${x},${y},${z})\n\nMove to the ${places[i % places.length]} ${i % 2 ? "slowly" : "fast"}`;
    });
    return { label: "robotic_arm scenario", tools: s.tools, system: s.system, queries, maxTokens: 16 };
  }
  const queries = Array.from({ length: 32 }, (_, i) => `go ${i % 2 ? "up" : "down"} ${i}`);
  return { label: "fixture tools (move, stop)", tools: FIXTURE_TOOLS, queries, maxTokens: 6 };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

const { dir, name } = await pickModel();
const work = workload(name);
let passes = 0;
let mergedSteps = 0;
const loaded = await loadCallers(dir, {
  lanes: 16,
  cache: false,
  threads: THREADS,
  onPass: (requests) => {
    passes++;
    mergedSteps += requests;
  },
});
const server = createServer({
  // A busy machine can take seconds per call: no request may time out in the benchmark.
  requestTimeoutMs: 600_000,
  model: loaded,
  modelName: name,
  hostname: "127.0.0.1",
  port: 0,
  format: "v2",
  concurrency: 16,
  maxWaiting: 256,
});
const { url } = await server.listen();
const body = (query: string) =>
  JSON.stringify({
    messages: [{ role: "user", content: query }],
    tools: work.tools,
    ...(work.system ? { system: work.system } : {}),
    max_tokens: work.maxTokens,
  });
const post = async (
  query: string,
): Promise<{ ms: number; status: number; reply: FunctionCallReply | null }> => {
  const started = performance.now();
  const response = await fetch(`${url}/v2/function_call`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body(query),
  });
  if (!response.ok) {
    await response.text();
    return { ms: performance.now() - started, status: response.status, reply: null };
  }
  const reply = (await response.json()) as FunctionCallReply;
  return { ms: performance.now() - started, status: response.status, reply };
};

// Warm every lane's prefix cache with the system prompt and tools.
await Promise.all(work.queries.slice(0, 16).map(post));

const reference = new Map<string, string>();
const levels: Record<string, unknown> = {};
const throughput: Record<number, number> = {};
let lost = 0;
let duplicated = 0;
let mismatched = 0;
const loadBefore = loadavg()[0]!;
for (const clients of LEVELS) {
  const latencies: number[] = [];
  const answered = new Map<number, number>();
  let failed = 0;
  let next = 0;
  const passesBefore = passes;
  const stepsBefore = mergedSteps;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (;;) {
        const index = next++;
        if (index >= CALLS) return;
        const query = work.queries[index % work.queries.length]!;
        const { ms, status, reply } = await post(query);
        answered.set(index, (answered.get(index) ?? 0) + 1);
        if (status !== 200 || !reply) {
          failed++;
          continue;
        }
        latencies.push(ms);
        const key = JSON.stringify(reply.heads);
        const seen = reference.get(query);
        if (seen === undefined) reference.set(query, key);
        else if (seen !== key) mismatched++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (let i = 0; i < CALLS; i++) {
    const n = answered.get(i) ?? 0;
    if (n === 0) lost++;
    if (n > 1) duplicated += n - 1;
  }
  latencies.sort((a, b) => a - b);
  throughput[clients] = latencies.length / seconds;
  levels[String(clients)] = {
    calls: CALLS,
    ok: latencies.length,
    failed,
    p50_ms: quantile(latencies, 0.5),
    p99_ms: quantile(latencies, 0.99),
    calls_per_s: throughput[clients],
    forward_passes: passes - passesBefore,
    steps_per_pass: (mergedSteps - stepsBefore) / Math.max(1, passes - passesBefore),
  };
}
await server.close();
rmSync(scratch, { recursive: true, force: true });

const result = {
  date: new Date().toISOString(),
  model: name,
  workload: work.label,
  provider: loaded.provider,
  threads: THREADS ?? "physical cores",
  calls_per_level: CALLS,
  levels,
  throughput_ratio_16_over_1: throughput[16]! / throughput[1]!,
  lost,
  duplicated,
  mismatched_vs_one_client: mismatched,
  load_average: { before: loadBefore, after: loadavg()[0] },
  note: "loopback only; one process; the machine is shared, so figures vary with its load",
};
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/server.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(`rtool-server bench: ${name}, ${work.label}, ${CALLS} calls per level`);
console.log("clients  p50 ms   p99 ms   calls/s  steps/pass  failed");
for (const clients of LEVELS) {
  const l = levels[String(clients)] as {
    p50_ms: number;
    p99_ms: number;
    calls_per_s: number;
    steps_per_pass: number;
    failed: number;
  };
  console.log(
    `${String(clients).padStart(7)}  ${l.p50_ms.toFixed(1).padStart(6)}   ${l.p99_ms.toFixed(1).padStart(6)}   ${l.calls_per_s.toFixed(1).padStart(7)}  ${l.steps_per_pass.toFixed(2).padStart(10)}  ${String(l.failed).padStart(6)}`,
  );
}
console.log(
  `throughput(16)/throughput(1) = ${result.throughput_ratio_16_over_1.toFixed(2)}; lost ${lost}, duplicated ${duplicated}, mismatched ${mismatched}`,
);
