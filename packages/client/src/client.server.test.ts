/**
 * The client against a real rtool-server on 127.0.0.1: `createServer` over a real-time caller on
 * a random-weight fixture model (real ONNX Runtime), so every route, the SSE framing, the API key
 * and the 422 for unservable tools are exercised end to end. The weights are random: the tests
 * check shapes and protocol, not which tool a model of noise picks. The fixture's context is 512
 * tokens of a byte-level vocabulary, too short for the v1 system turn, so the server serves its
 * v1 routes in the v2 format here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SHIP_MOVE_TOOL } from "@rtool/contract/testing";
import { createRealtimeCaller, defineTool, loadModel, ToolExecutor, ToolRegistry } from "@rtool/core";
import { createServer, type RtoolServer } from "@rtool/server";
import { RtoolClient } from "./client";
import { RtoolHttpError } from "./errors";
import type { FunctionCallEvent, FunctionTool } from "./types";

const FIXTURE = join(import.meta.dir, "../../core/test/fixtures/qwen3-tied");
const API_KEY = "test-key";

const TOOLS: FunctionTool[] = [
  SHIP_MOVE_TOOL,
  {
    type: "function",
    function: {
      name: "fire",
      parameters: { type: "object", properties: { power: { type: "integer" } }, required: [] },
    },
  },
];

let server: RtoolServer;
let client: RtoolClient;

beforeAll(async () => {
  const model = await loadModel(FIXTURE, { cache: false });
  // the server's format is v2, so both routes send v2 requests to the one caller
  const caller = await createRealtimeCaller(model, {});
  server = createServer({
    model: { caller, provider: "cpu", dispose: () => model.dispose() },
    modelName: "qwen3-tied",
    format: "v2",
    apiKey: API_KEY,
    port: 0,
  });
  const { url } = await server.listen();
  client = new RtoolClient({ baseUrl: url, apiKey: API_KEY, timeoutMs: 60_000 });
});

afterAll(async () => {
  await server.close();
});

describe("client against createServer with a fixture model", () => {
  test("health, and waitUntilReady", async () => {
    const health = await client.waitUntilReady();
    expect(health).toMatchObject({ status: "ok", loaded: true, model: "qwen3-tied", provider: "cpu" });
  });

  test("v1 and v2 function calls choose one of the tools with schema-typed arguments", async () => {
    for (const version of ["v1", "v2"] as const) {
      const reply = await client.functionCall(
        { query: "up", tools: TOOLS, environment: ["hp"], max_tokens: 6 },
        { version },
      );
      expect(["move", "fire"]).toContain(reply.function!);
      expect(reply.heads.function).toBe(reply.function!);
      if (reply.function === "move" && reply.valid) {
        expect(["up", "down", "left", "right"]).toContain(reply.args.direction as string);
      }
      if (reply.function === "fire" && reply.args.power !== undefined) {
        expect(Number.isInteger(reply.args.power)).toBe(true);
      }
      expect(reply.timings.steps).toBeGreaterThan(0);
    }
  });

  test("the streamed call yields the function head first and ends with the same call as JSON", async () => {
    const input = { query: "fire now", tools: TOOLS, system: "You fly a ship.", max_tokens: 6 };
    const events: FunctionCallEvent[] = [];
    for await (const event of client.streamFunctionCall(input)) events.push(event);
    const last = events.at(-1)!;
    expect("call" in last).toBe(true);
    const heads = events.filter((e) => "head" in e);
    expect(heads[0]).toMatchObject({ head: "function", done: true });
    expect(heads.map((e) => e.head).sort()).toEqual(["arg1", "function"]);
    const plain = await client.functionCall(input);
    if ("call" in last) {
      expect(last.call.function).toBe(plain.function);
      expect(last.call.args).toEqual(plain.args);
    }
  });

  test("chat completions answer with a tool call", async () => {
    const chat = await client.chatCompletions({
      messages: [{ role: "user", content: "move left" }],
      tools: TOOLS,
      max_tokens: 6,
    });
    expect(chat.object).toBe("chat.completion");
    const call = chat.choices[0].message.tool_calls?.[0];
    if (call) expect(["move", "fire"]).toContain(call.function.name);
    expect(typeof chat.rtool.valid).toBe("boolean");
  });

  test("a wrong key is 401 and unservable tools are 422 with the field", async () => {
    const stranger = new RtoolClient({ baseUrl: client.baseUrl, apiKey: "wrong" });
    await expect(stranger.functionCall({ query: "x", tools: TOOLS })).rejects.toMatchObject({
      status: 401,
      code: "unauthorized",
    });
    const nested: FunctionTool = {
      type: "function",
      function: {
        name: "grab",
        parameters: { type: "object", properties: { at: { type: "array" } } },
      },
    };
    const error = await client.functionCall({ query: "x", tools: [nested] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RtoolHttpError);
    expect(error).toMatchObject({ status: 422, code: "unsupported_tools" });
    expect((error as RtoolHttpError).field).toContain("tools[0]");
  });

  test("early dispatch through the streaming route: the handler starts before the last head arrives", async () => {
    const started: number[] = [];
    // Short names and enums: the fixture's context is 512 tokens of a byte-level vocabulary.
    const registry = new ToolRegistry([
      defineTool({
        name: "go",
        parameters: {
          type: "object",
          properties: { d: { type: "string", enum: ["u", "d"] } },
          required: ["d"],
        },
        handler: () => started.push(performance.now()),
      }),
      defineTool({
        name: "hit",
        parameters: {
          type: "object",
          properties: { t: { type: "string", enum: ["x", "y"] } },
          required: ["t"],
        },
        handler: () => started.push(performance.now()),
      }),
    ]);
    let lastHeadAt = 0;
    async function* heads() {
      const stream = client.streamFunctionCall({
        query: "go up",
        tools: registry.tools(),
        system: "Game.",
        include_content_head: true,
        max_tokens: 16,
      });
      for await (const event of stream) {
        if ("head" in event) lastHeadAt = performance.now();
        yield event;
      }
    }
    const outcome = await new ToolExecutor(registry).executeStream(heads());
    expect(outcome.result.status).toBe("ok");
    expect(outcome.early).toBe(true);
    expect(outcome.consistent).toBe(true);
    expect(outcome.headStartMs).toBeGreaterThan(0);
    expect(started).toHaveLength(1);
    expect(started[0]).toBeLessThan(lastHeadAt);
  });
});
