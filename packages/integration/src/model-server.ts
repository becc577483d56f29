/**
 * A real rtool-server on loopback for the episodes: `createServer` + `loadCallers` on a random
 * free port of 127.0.0.1, with an `RtoolClient` of it. The model is the embedded rt-tiny, or a
 * checkpoint of random weights (a model the pipeline knows nothing about) for the guarantees that
 * must hold whatever the model says.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RtoolClient } from "@rtool/client";
import { writeRandomQwenCheckpoint } from "@rtool/core";
import { RT_TINY_DIR } from "@rtool/model-rt-tiny";
import { createServer, loadCallers, type RtoolServer } from "@rtool/server";

/** A listening server and a client of it. */
export interface ModelServer {
  url: string;
  server: RtoolServer;
  client: RtoolClient;
  /** Stops the server and releases the model (and removes a temporary model directory). */
  close(): Promise<void>;
}

/** Options of {@link startModelServer}. */
export interface ModelServerOptions {
  /** Shown by `/health`; default the directory's last segment. */
  modelName?: string;
  /** Calls decoded at once; default 1 (episodes are sequential). */
  lanes?: number;
  /** Keep the built graph in the on-disk cache; default true. */
  cache?: boolean;
  /** How long to wait for the model to load; default 300 000 ms (a busy 2-core machine). */
  readyTimeoutMs?: number;
  /** Client deadline per call; default 120 000 ms. */
  callTimeoutMs?: number;
  /** Run when the server closes (e.g. removing a temporary model). */
  onClose?: () => void;
}

/**
 * Starts a server on 127.0.0.1 (random port) over the model in `modelDir` and waits until it is
 * ready.
 *
 * @example
 * ```ts
 * const served = await startModelServer(RT_TINY_DIR, { modelName: "rt-tiny" });
 * const reply = await served.client.functionCall({ query: "wave", tools: avatar.tools });
 * await served.close();
 * ```
 */
export async function startModelServer(
  modelDir: string,
  options: ModelServerOptions = {},
): Promise<ModelServer> {
  const lanes = options.lanes ?? 1;
  const server = createServer({
    // Benchmarks and episodes here repeat requests to time decoding them: no answer cache, which
    // would answer a repeat without a forward pass.
    model: loadCallers(modelDir, { lanes, cache: options.cache, answerCacheEntries: 0 }),
    modelName: options.modelName ?? modelDir.split(/[\\/]/).filter(Boolean).at(-1) ?? "model",
    hostname: "127.0.0.1",
    port: 0,
    concurrency: lanes,
  });
  const { url } = await server.listen();
  const client = new RtoolClient({ baseUrl: url, timeoutMs: options.callTimeoutMs ?? 120_000, retry: false });
  const close = async () => {
    await server.close();
    options.onClose?.();
  };
  try {
    await client.waitUntilReady({ timeoutMs: options.readyTimeoutMs ?? 300_000 });
  } catch (error) {
    await close();
    throw error;
  }
  return { url, server, client, close };
}

/** Whether the embedded rt-tiny model's files are in its package (they are once it is committed). */
export function embeddedModelPresent(dir: string = RT_TINY_DIR): boolean {
  return ["config.json", "tokenizer.json", "model.safetensors"].every((file) => existsSync(join(dir, file)));
}

/** The tokenizer and shape the random model borrows: core's tiny Qwen3 fixture. */
const FIXTURE_DIR = join(import.meta.dir, "..", "..", "core", "test", "fixtures", "qwen3-tied");

/**
 * Writes a Qwen3 checkpoint of seeded random weights, with the core fixture's byte-level tokenizer
 * and the rtool tags, into a new temporary directory. Its answers are arbitrary but decoded under
 * the same constraints as any model's, which is what the pipeline guarantees are about.
 *
 * @returns the directory and a function that removes it
 * @example
 * const random = writeRandomModel(3);
 * const served = await startModelServer(random.dir, { cache: false, onClose: random.remove });
 */
export function writeRandomModel(seed = 1): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "rtool-integration-random-"));
  const config = JSON.parse(readFileSync(join(FIXTURE_DIR, "config.json"), "utf8"));
  // A byte-level vocabulary spells a scenario's tools in a few thousand tokens: room for them.
  Object.assign(config, { hidden_size: 64, intermediate_size: 128, max_position_embeddings: 8192 });
  writeRandomQwenCheckpoint(dir, config, { seed });
  for (const file of ["tokenizer.json", "tokenizer_config.json", "generation_config.json"]) {
    copyFileSync(join(FIXTURE_DIR, file), join(dir, file));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
