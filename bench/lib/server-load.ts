/**
 * rtool-server on loopback for load benchmarks (bench:server, bench:scaling): the model to serve
 * (`--model DIR`, else the embedded rt-tiny, else a random checkpoint of rt-tiny's shape with the
 * qwen3-tied fixture's tokenizer), a workload of queries, the server itself (the real
 * createServer + loadCallers path, 16 lanes sharing forward passes) and a timed POST.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FunctionCallReply } from "../../packages/contract/src";
import { writeRandomQwenCheckpoint } from "../../packages/core/src/model/random-checkpoint";
import { layerShapeJson, QWEN_SHAPES } from "../../packages/core/src/model/shapes";
import {
  type LoadCallersOptions,
  type LoadedCallers,
  loadCallers,
} from "../../packages/server/src/load-callers";
import { resolveModelDir } from "../../packages/server/src/model-source";
import { createServer } from "../../packages/server/src/server";
import { FIXTURE_TOOLS } from "../../packages/server/src/testing/sample-tools";

const root = join(import.meta.dir, "../..");

/** A random Qwen3 checkpoint of a small real-time shape, with the fixture's tokenizer, in `dir`. */
function randomSmallModel(dir: string): string {
  const fixture = join(root, "packages/core/test/fixtures/qwen3-tied");
  const config = JSON.parse(readFileSync(join(fixture, "config.json"), "utf8"));
  Object.assign(config, layerShapeJson(QWEN_SHAPES["rt-tiny"]), { max_position_embeddings: 2048 });
  writeRandomQwenCheckpoint(dir, config, { seed: 7 });
  for (const file of ["tokenizer.json", "tokenizer_config.json", "generation_config.json"]) {
    copyFileSync(join(fixture, file), join(dir, file));
  }
  return dir;
}

/** The model to serve: `given`, else rt-tiny when installed, else a random one in `scratch`. */
export async function pickModel(
  given: string | undefined,
  scratch: string,
): Promise<{ dir: string; name: string }> {
  if (given) return { dir: await resolveModelDir(given), name: given };
  try {
    return { dir: await resolveModelDir("rt-tiny"), name: "rt-tiny" };
  } catch {
    return { dir: randomSmallModel(scratch), name: "random qwen3 h256 x4 layers (fixture tokenizer)" };
  }
}

/** What the clients ask: tools, system prompt and 32 queries. */
export interface Workload {
  label: string;
  tools: unknown[];
  system?: string;
  queries: string[];
  maxTokens: number;
}

/** With rt-tiny and `scenarios/`: the robot-arm scenario's tools; otherwise two small tools. */
export function workload(name: string): Workload {
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

/** The value at quantile `q` of an ascending array. */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

/** One answered POST: its latency, status and reply (null unless 200). */
export interface Posted {
  ms: number;
  status: number;
  reply: FunctionCallReply | null;
}

/** A server on loopback with its model, a timed POST of one query, and the forward-pass counters. */
export interface LoadServer {
  name: string;
  work: Workload;
  loaded: LoadedCallers;
  post(query: string): Promise<Posted>;
  /** Forward passes and the calls' steps they merged, since the start. */
  counters(): { passes: number; mergedSteps: number };
  close(): Promise<void>;
}

/**
 * Loads the model (`--model`, rt-tiny or a random one), serves it on 127.0.0.1 with 16 lanes
 * and warms every lane's prefix cache with the system prompt and tools.
 */
export async function startLoadServer(
  options: { model?: string; threads?: number; sessionWorker?: boolean } = {},
): Promise<LoadServer> {
  const scratch = mkdtempSync(join(tmpdir(), "rtool-bench-server-"));
  const { dir, name } = await pickModel(options.model, scratch);
  const work = workload(name);
  let passes = 0;
  let mergedSteps = 0;
  const loadOptions: LoadCallersOptions = {
    lanes: 16,
    cache: false,
    // The workload repeats its queries: measure decoding them, not the answer cache (which would
    // answer every repeat without a forward pass).
    answerCacheEntries: 0,
    threads: options.threads,
    sessionWorker: options.sessionWorker,
    onPass: (requests) => {
      passes++;
      mergedSteps += requests;
    },
  };
  const loaded = await loadCallers(dir, loadOptions);
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
  const post = async (query: string): Promise<Posted> => {
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
  await Promise.all(work.queries.slice(0, 16).map(post));
  return {
    name,
    work,
    loaded,
    post,
    counters: () => ({ passes, mergedSteps }),
    close: async () => {
      await server.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
