/**
 * The client's transport logic against a small scripted server on 127.0.0.1: headers, retries
 * with back-off, deadlines, latest-wins cancellation, SSE streaming and error mapping.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RtoolClient } from "./client";
import {
  isSuperseded,
  RtoolAbortError,
  RtoolHttpError,
  RtoolNetworkError,
  RtoolProtocolError,
  RtoolTimeoutError,
} from "./errors";
import { prefixHash } from "./prefix-hash";
import type { FunctionCallReply, FunctionTool } from "./types";

const TOOLS: FunctionTool[] = [
  {
    type: "function",
    function: {
      name: "move",
      parameters: { type: "object", properties: { direction: { type: "string" } }, required: ["direction"] },
    },
  },
];

function reply(fn: string | null, args: Record<string, unknown> = {}): FunctionCallReply {
  return {
    success: fn !== null,
    function: fn,
    args,
    heads: { function: fn ?? "<|null|>" },
    content: null,
    latency_ms: 1,
    error: null,
    valid: fn !== null,
    errors: [],
    timings: {
      prefill_ms: 0,
      decode_ms: 0,
      steps: 1,
      cached_prefix_tokens: 0,
      total_ms: 1,
      queue_ms: 0,
      prepare_ms: 0,
      lane_wait_ms: 0,
      batch_wait_ms: 0,
      forward_ms: 0,
      shared_steps: 0,
      prompt_tokens: 1,
      prefilled_tokens: 0,
      fed_tokens: 0,
      answer_cached: false,
    },
  };
}

type Handler = (request: Request, body: Record<string, unknown>) => Response | Promise<Response>;

/** Requests seen, and the handler the next requests get (tests swap it). */
const seen: { path: string; headers: Headers; body: Record<string, unknown> }[] = [];
let handle: Handler = () => Response.json(reply("move"));
let server: ReturnType<typeof Bun.serve>;
let base: string;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const text = request.method === "POST" ? await request.text() : "";
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      seen.push({ path: new URL(request.url).pathname, headers: request.headers, body });
      return handle(request, body);
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(() => server.stop(true));

function scenario(handler: Handler): void {
  seen.length = 0;
  handle = handler;
}

const errorBody = (code: string, status: number, field: string | null = null) =>
  Response.json({ success: false, error: `${code} happened`, code, field, issues: [] }, { status });

describe("requests", () => {
  test("query shorthand becomes one user message; API key, prefix header and route are sent", async () => {
    scenario(() => Response.json(reply("move", { direction: "up" })));
    const client = new RtoolClient({ baseUrl: `${base}/`, apiKey: "k1", headers: { "x-trace": "t" } });
    const got = await client.functionCall({ query: "go up", tools: TOOLS, system: "Steer.", max_tokens: 8 });
    expect(got.args).toEqual({ direction: "up" });
    const [request] = seen;
    expect(request.path).toBe("/v2/function_call");
    expect(request.headers.get("authorization")).toBe("Bearer k1");
    expect(request.headers.get("x-trace")).toBe("t");
    expect(request.headers.get("x-rtool-prefix")).toBe(prefixHash("Steer.", TOOLS));
    expect(request.body).toEqual({
      tools: TOOLS,
      system: "Steer.",
      max_tokens: 8,
      stream: false,
      messages: [{ role: "user", content: "go up" }],
    });
    await client.functionCall(
      { messages: [{ role: "user", content: "x" }], tools: TOOLS },
      { version: "v1" },
    );
    expect(seen[1].path).toBe("/v1/function_call");
    expect(seen[1].body.messages).toEqual([{ role: "user", content: "x" }]);
  });

  test("health and chat completions", async () => {
    scenario((request) =>
      new URL(request.url).pathname === "/health"
        ? Response.json({ status: "ok", loaded: true, model: "m", version: "0", provider: "cpu" })
        : Response.json({ id: "c", object: "chat.completion", choices: [] }),
    );
    const client = new RtoolClient({ baseUrl: base });
    expect((await client.health()).loaded).toBe(true);
    const chat = await client.chatCompletions({
      messages: [
        { role: "system", content: "Steer." },
        { role: "user", content: "up" },
      ],
      tools: TOOLS,
    });
    expect(chat.id).toBe("c");
    expect(seen[1].path).toBe("/v1/chat/completions");
    expect(seen[1].headers.get("x-rtool-prefix")).toBe(prefixHash("Steer.", TOOLS));
  });

  test("an error reply becomes RtoolHttpError with code and field, without retries for 4xx", async () => {
    scenario(() => errorBody("invalid_request", 400, "messages[0].role"));
    const client = new RtoolClient({ baseUrl: base });
    const error = await client.functionCall({ query: "x", tools: TOOLS }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RtoolHttpError);
    expect(error).toMatchObject({
      status: 400,
      code: "invalid_request",
      field: "messages[0].role",
      attempts: 1,
    });
    expect(seen.length).toBe(1);
  });

  test("a non-JSON success is a protocol error", async () => {
    scenario(() => new Response("<html>proxy</html>", { status: 200 }));
    const error = await new RtoolClient({ baseUrl: base })
      .functionCall({ query: "x", tools: TOOLS })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RtoolProtocolError);
  });
});

describe("retries", () => {
  test("429 and 503 are retried with back-off until a success", async () => {
    let n = 0;
    scenario(() => {
      n++;
      if (n === 1) return errorBody("queue_full", 429);
      if (n === 2) return errorBody("model_loading", 503);
      return Response.json(reply("move"));
    });
    const client = new RtoolClient({ baseUrl: base, retry: { retries: 3, baseDelayMs: 5 } });
    expect((await client.functionCall({ query: "x", tools: TOOLS })).function).toBe("move");
    expect(seen.length).toBe(3);
  });

  test("gives up after the retries with the last status; Retry-After is honoured", async () => {
    const times: number[] = [];
    scenario(() => {
      times.push(performance.now());
      return new Response(
        JSON.stringify({ success: false, error: "full", code: "queue_full", field: null }),
        {
          status: 429,
          headers: { "retry-after": "0.05" },
        },
      );
    });
    const client = new RtoolClient({ baseUrl: base, retry: { retries: 2, baseDelayMs: 0 } });
    const error = await client.functionCall({ query: "x", tools: TOOLS }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: "queue_full", attempts: 3 });
    expect(times.length).toBe(3);
    // Without Retry-After a zero base delay would retry at once; the server asked for 50 ms.
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(45);
  });

  test("retry: false sends once", async () => {
    scenario(() => errorBody("model_loading", 503));
    const client = new RtoolClient({ baseUrl: base, retry: false });
    await expect(client.functionCall({ query: "x", tools: TOOLS })).rejects.toBeInstanceOf(RtoolHttpError);
    expect(seen.length).toBe(1);
  });

  test("a refused connection is retried, then reported as RtoolNetworkError", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const client = new RtoolClient({
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { retries: 1, baseDelayMs: 1 },
    });
    const error = await client.health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RtoolNetworkError);
    expect((error as RtoolNetworkError).attempts).toBe(2);
  });
});

describe("deadlines and cancellation", () => {
  test("the deadline covers retries and back-off", async () => {
    scenario(() => errorBody("model_loading", 503));
    const client = new RtoolClient({
      baseUrl: base,
      timeoutMs: 60,
      retry: { retries: 100, baseDelayMs: 20 },
    });
    const error = await client.functionCall({ query: "x", tools: TOOLS }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RtoolTimeoutError);
    expect((error as RtoolTimeoutError).timeoutMs).toBe(60);
  });

  test("a slow reply times out", async () => {
    scenario(async () => {
      await Bun.sleep(500);
      return Response.json(reply("move"));
    });
    const client = new RtoolClient({ baseUrl: base });
    await expect(client.functionCall({ query: "x", tools: TOOLS }, { timeoutMs: 30 })).rejects.toBeInstanceOf(
      RtoolTimeoutError,
    );
  });

  test("latest wins: a new call with the same key supersedes the one in flight; other keys are untouched", async () => {
    scenario(async (_request, body) => {
      const query = (body.messages as { content: string }[])[0].content;
      if (query !== "last") await Bun.sleep(150);
      return Response.json(reply("move", { query }));
    });
    const client = new RtoolClient({ baseUrl: base });
    const first = client.functionCall({ query: "first", tools: TOOLS }, { key: "ship-1" });
    const other = client.functionCall({ query: "other", tools: TOOLS }, { key: "ship-2" });
    await Bun.sleep(10);
    expect(client.liveKeys().sort()).toEqual(["ship-1", "ship-2"]);
    const last = client.functionCall({ query: "last", tools: TOOLS }, { key: "ship-1" });
    const firstError = await first.catch((e: unknown) => e);
    expect(isSuperseded(firstError)).toBe(true);
    expect((firstError as RtoolAbortError).key).toBe("ship-1");
    expect((await last).args).toEqual({ query: "last" });
    expect((await other).args).toEqual({ query: "other" });
    expect(client.liveKeys()).toEqual([]);
  });

  test("the caller's signal and cancel(key) abort with reason aborted", async () => {
    scenario(async () => {
      await Bun.sleep(300);
      return Response.json(reply("move"));
    });
    const client = new RtoolClient({ baseUrl: base });
    const controller = new AbortController();
    const bySignal = client.functionCall({ query: "x", tools: TOOLS }, { signal: controller.signal });
    const byKey = client.functionCall({ query: "y", tools: TOOLS }, { key: "a" });
    await Bun.sleep(10);
    controller.abort();
    expect(client.cancel("a")).toBe(true);
    expect(client.cancel("a")).toBe(false);
    for (const pending of [bySignal, byKey]) {
      const error = await pending.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RtoolAbortError);
      expect((error as RtoolAbortError).reason).toBe("aborted");
    }
  });
});

describe("streaming", () => {
  const sse = (events: [string, unknown][], gapMs = 0) =>
    new Response(
      new ReadableStream<Uint8Array>({
        async start(controller) {
          for (const [event, data] of events) {
            controller.enqueue(
              new TextEncoder().encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
            );
            if (gapMs) await Bun.sleep(gapMs);
          }
          controller.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );

  test("heads as they arrive (<|null|> as null), then the call; the body asks for stream: true", async () => {
    scenario(() =>
      sse([
        ["head", { head: "function", text: "move", done: true }],
        ["head", { head: "arg1", text: "up", done: true }],
        ["head", { head: "arg2", text: "<|null|>", done: true }],
        ["call", reply("move", { direction: "up" })],
      ]),
    );
    const client = new RtoolClient({ baseUrl: base });
    const events = [];
    for await (const event of client.streamFunctionCall({ query: "up", tools: TOOLS })) events.push(event);
    expect(seen[0].body.stream).toBe(true);
    expect(events.slice(0, 3)).toEqual([
      { head: "function", text: "move", done: true },
      { head: "arg1", text: "up", done: true },
      { head: "arg2", text: null, done: true },
    ]);
    expect(events[3]).toEqual({ call: reply("move", { direction: "up" }) });
  });

  test("an error event is thrown as RtoolHttpError with the code's status", async () => {
    scenario(() =>
      sse([
        ["head", { head: "function", text: "move", done: true }],
        ["error", { success: false, error: "deadline", code: "timeout", field: null, issues: [] }],
      ]),
    );
    const client = new RtoolClient({ baseUrl: base });
    const heads: string[] = [];
    const error = await (async () => {
      for await (const event of client.streamFunctionCall({ query: "x", tools: TOOLS }))
        if ("head" in event) heads.push(event.head);
    })().catch((e: unknown) => e);
    expect(heads).toEqual(["function"]);
    expect(error).toMatchObject({ status: 504, code: "timeout" });
  });

  test("a stream cut before its call is a protocol error; a JSON reply is taken as the call", async () => {
    scenario(() => sse([["head", { head: "function", text: "move", done: true }]]));
    const client = new RtoolClient({ baseUrl: base });
    const drain = async () => {
      for await (const _ of client.streamFunctionCall({ query: "x", tools: TOOLS }));
    };
    await expect(drain()).rejects.toBeInstanceOf(RtoolProtocolError);
    scenario(() => Response.json(reply("move")));
    const events = [];
    for await (const event of client.streamFunctionCall({ query: "x", tools: TOOLS })) events.push(event);
    expect(events).toEqual([{ call: reply("move") }]);
  });

  test("a newer streamed call with the same key supersedes the one being read", async () => {
    scenario(() =>
      sse(
        [
          ["head", { head: "function", text: "move", done: true }],
          ["head", { head: "arg1", text: "up", done: true }],
          ["call", reply("move")],
        ],
        60,
      ),
    );
    const client = new RtoolClient({ baseUrl: base });
    const seenHeads: string[] = [];
    const first = (async () => {
      for await (const event of client.streamFunctionCall({ query: "a", tools: TOOLS }, { key: "k" }))
        if ("head" in event) seenHeads.push(event.head);
    })().catch((e: unknown) => e);
    await Bun.sleep(30);
    const second = [];
    for await (const event of client.streamFunctionCall({ query: "b", tools: TOOLS }, { key: "k" }))
      second.push(event);
    expect(isSuperseded(await first)).toBe(true);
    expect(seenHeads).toEqual(["function"]);
    expect(second.length).toBe(3);
  });

  test("breaking out of the loop early releases the key", async () => {
    scenario(() =>
      sse(
        [
          ["head", { head: "function", text: "move", done: true }],
          ["call", reply("move")],
        ],
        200,
      ),
    );
    const client = new RtoolClient({ baseUrl: base });
    for await (const _ of client.streamFunctionCall({ query: "a", tools: TOOLS }, { key: "k" })) break;
    expect(client.liveKeys()).toEqual([]);
  });
});

describe("waitUntilReady", () => {
  test("polls until loaded; a failed model rejects", async () => {
    let polls = 0;
    scenario(() => {
      polls++;
      return Response.json({ status: "ok", loaded: polls >= 3, model: "m", version: "0", provider: null });
    });
    const client = new RtoolClient({ baseUrl: base });
    expect((await client.waitUntilReady({ intervalMs: 5 })).loaded).toBe(true);
    expect(polls).toBe(3);
    scenario(() =>
      Response.json({
        status: "error",
        loaded: false,
        model: "m",
        version: "0",
        provider: null,
        error: "bad",
      }),
    );
    await expect(client.waitUntilReady({ intervalMs: 5 })).rejects.toMatchObject({ code: "model_failed" });
    scenario(() => Response.json({ status: "ok", loaded: false, model: "m", version: "0", provider: null }));
    await expect(client.waitUntilReady({ intervalMs: 5, timeoutMs: 40 })).rejects.toBeInstanceOf(
      RtoolTimeoutError,
    );
  });
});
