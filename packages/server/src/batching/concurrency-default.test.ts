/**
 * The concurrency default lives in one place ({@link DEFAULT_CONCURRENCY}): the queue, the
 * server, the CLI and the caller lanes all take it, so admitted calls and lanes cannot drift.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadModel } from "@rtool/core";
import { parseCliArgs, USAGE } from "../cli/args";
import { serveModel } from "../load-callers";
import { createServer } from "../server";
import { scriptedModel } from "../testing/scripted-caller";
import { CallQueue, DEFAULT_CONCURRENCY } from "./call-queue";

describe("DEFAULT_CONCURRENCY", () => {
  test("the queue, the server, the CLI and its help use it", async () => {
    expect(new CallQueue().concurrency).toBe(DEFAULT_CONCURRENCY);
    const server = createServer({ model: scriptedModel(), port: 0 });
    expect(server.queue.concurrency).toBe(DEFAULT_CONCURRENCY);
    await server.close();
    const args = parseCliArgs([]);
    expect(args.command === "serve" && args.concurrency).toBe(DEFAULT_CONCURRENCY);
    expect(USAGE).toContain(`default ${DEFAULT_CONCURRENCY}\n`);
  });

  test("a served model has that many lanes", async () => {
    const model = await loadModel(join(import.meta.dir, "../../../core/test/fixtures/qwen3-tied"), {
      threads: 1,
      cache: false,
    });
    const served = serveModel({
      runtime: model.runtime,
      tokenizer: model.tokenizer,
      dispose: () => model.dispose(),
    });
    expect(served.pool.maxLanes).toBe(DEFAULT_CONCURRENCY);
    await served.dispose?.();
  });
});
