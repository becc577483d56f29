/**
 * One caller pool and one prefix cache serve both prompt formats: the route puts the format in
 * the request, and the cache keys on tokens. Each route's answer is the one a core caller bound
 * to that format gives, and a repeated call of either format reuses its whole cached prompt.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { FunctionCallReply } from "@rtool/contract";
import { createRealtimeCaller, loadModel, type Model, type RtoolTokenizer } from "@rtool/core";
import { type LoadedCallers, loadCallers } from "./load-callers";
import { createServer, type RtoolServer } from "./server";
import { postJson } from "./testing/http";

// Small enough that the v1 prompt fits the fixture's 512-token context.
const TOOLS = [
  {
    type: "function",
    function: {
      name: "go",
      parameters: { type: "object", properties: { d: { type: "string", enum: ["up", "down"] } } },
    },
  },
];

setDefaultTimeout(60_000);

const FIXTURE = join(import.meta.dir, "../../core/test/fixtures/qwen3-tied");
let loaded: LoadedCallers;
let server: RtoolServer;
let base: string;
let reference: Model<RtoolTokenizer>;

beforeAll(async () => {
  loaded = await loadCallers(FIXTURE, { threads: 1, cache: false, lanes: 2 });
  // format v1: `/v1/function_call` sends v1 requests, `/v2/function_call` v2 ones
  server = createServer({ model: loaded, modelName: "qwen3-tied", port: 0, format: "v1" });
  base = (await server.listen()).url;
  reference = await loadModel(FIXTURE, { threads: 1, cache: false });
});
afterAll(async () => {
  await server.close();
  await reference.dispose();
});

async function call(path: string, body: unknown): Promise<FunctionCallReply> {
  const reply = await postJson(`${base}${path}`, body);
  expect(reply.status).toBe(200);
  return (await reply.json()) as FunctionCallReply;
}

describe("one prefix cache for v1 and v2", () => {
  test("the server holds one pool: the loaded caller is it", () => {
    expect(loaded.caller).toBe(loaded.pool);
  });

  test("each route answers as a caller of its format, and both formats' prompts stay cached", async () => {
    const system = "You drive a robot.";
    const body = { messages: [{ role: "user", content: "go up" }], tools: TOOLS, system, max_tokens: 4 };
    const request = { query: "go up", tools: TOOLS, system, maxTokens: 4 };
    const before = loaded.pool.cacheStats();
    const first = { v1: await call("/v1/function_call", body), v2: await call("/v2/function_call", body) };
    for (const format of ["v1", "v2"] as const) {
      const alone = await (await createRealtimeCaller(reference, { format })).call(request);
      expect(first[format].heads).toEqual(
        Object.fromEntries(Object.entries(alone.heads).map(([h, t]) => [h, t ?? "<|null|>"])),
      );
    }
    const again = { v1: await call("/v1/function_call", body), v2: await call("/v2/function_call", body) };
    for (const format of ["v1", "v2"] as const) {
      expect(again[format].heads).toEqual(first[format].heads);
      expect(again[format].timings.cached_prefix_tokens).toBeGreaterThan(
        first[format].timings.cached_prefix_tokens,
      );
    }
    // the v1 prompt is longer than the v2 one: a shared cache hit could not be the other's
    expect(again.v1.timings.cached_prefix_tokens).toBeGreaterThan(again.v2.timings.cached_prefix_tokens);
    const after = loaded.pool.cacheStats();
    expect(after.hits - before.hits).toBeGreaterThanOrEqual(2);
    expect(after.bytes ?? 0).toBeGreaterThan(0);
  });
});
