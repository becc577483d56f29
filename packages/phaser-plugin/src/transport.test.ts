import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHttpTransport, RequestRejectedError, ServerUnavailableError } from "./transport";

/**
 * A stand-in for rtool-server's HTTP surface (fixed replies per route), to test the transport's
 * wire format: JSON and SSE replies, error statuses, the bearer key.
 */
let server: ReturnType<typeof Bun.serve>;
const seen: Array<{
  path: string;
  auth: string | null;
  prefix: string | null;
  body: Record<string, unknown>;
}> = [];
const callReply = {
  success: true,
  function: "move",
  args: { direction: "up" },
  heads: { function: "move", arg1: "up" },
  latency_ms: 3,
  valid: true,
  errors: [],
};

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const body = (await request.json()) as Record<string, unknown>;
      seen.push({
        path,
        auth: request.headers.get("authorization"),
        prefix: request.headers.get("x-rtool-prefix"),
        body,
      });
      const query = (body.messages as Array<{ content: string }>)[0]!.content;
      if (query === "busy")
        return Response.json(
          { error: "queue full", code: "queue_full" },
          { status: 429, headers: { "Retry-After": "2" } },
        );
      if (query === "loading")
        return Response.json({ error: "loading", code: "model_loading" }, { status: 503 });
      if (query === "bad") {
        return Response.json(
          { success: false, error: "tools[0]: bad", code: "unsupported_tools", field: "tools" },
          { status: 422 },
        );
      }
      if (body.stream && query.startsWith("stream-")) {
        const code = query === "stream-bad" ? "invalid_request" : "engine_error";
        const error = {
          success: false,
          error: "no",
          code,
          field: code === "invalid_request" ? "messages[0].content" : null,
        };
        return new Response(`event: error\ndata: ${JSON.stringify(error)}\n\n`, {
          headers: { "Content-Type": "text/event-stream" },
        });
      }
      if (body.stream) {
        const events = [
          `event: head\ndata: ${JSON.stringify({ head: "function", text: "move", done: true })}\n\n`,
          `event: head\ndata: ${JSON.stringify({ head: "arg1", text: "up", done: true })}\n\n`,
          `event: call\ndata: ${JSON.stringify(callReply)}\n\n`,
        ];
        const stream = new ReadableStream({
          async start(controller) {
            // Split mid-event so the client must reassemble.
            const all = new TextEncoder().encode(events.join(""));
            controller.enqueue(all.slice(0, 30));
            await Bun.sleep(5);
            controller.enqueue(all.slice(30));
            controller.close();
          },
        });
        return new Response(stream, { headers: { "Content-Type": "text/event-stream" } });
      }
      return Response.json(callReply);
    },
  });
});

afterAll(() => server.stop(true));

const tools = [
  {
    type: "function" as const,
    function: {
      name: "move",
      parameters: {
        type: "object" as const,
        properties: { direction: { type: "string" as const } },
        required: ["direction"],
      },
    },
  },
];

describe("createHttpTransport", () => {
  test("posts the reference request body to /v2/function_call with the bearer key and prefix hash", async () => {
    const transport = createHttpTransport({ serverUrl: `${server.url}`, apiKey: "k3y" });
    const reply = await transport.send({
      format: "v2",
      query: "go up",
      tools,
      environment: ["pos=1,2"],
      history: ["move(up)"],
      system: "You pilot a ship.",
      maxTokens: 8,
    });
    expect(reply).toEqual(callReply);
    expect(seen.at(-1)).toEqual({
      path: "/v2/function_call",
      auth: "Bearer k3y",
      prefix: expect.stringMatching(/^[0-9a-f]+$/),
      body: {
        messages: [{ role: "user", content: "go up" }],
        tools,
        stream: false,
        environment: ["pos=1,2"],
        history: ["move(up)"],
        system: "You pilot a ship.",
        max_tokens: 8,
      },
    });
  });

  test("streams heads before the call when asked for SSE", async () => {
    const transport = createHttpTransport({ serverUrl: server.url.href, stream: true });
    const heads: string[] = [];
    const reply = await transport.send(
      { format: "v1", query: "go up", tools },
      { onHead: (head) => heads.push(`${head.head}=${head.text}`) },
    );
    expect(heads).toEqual(["function=move", "arg1=up"]);
    expect(reply.function).toBe("move");
    expect(seen.at(-1)!.path).toBe("/v1/function_call");
    expect(seen.at(-1)!.body.stream).toBe(true);
  });

  test("429 and 503 are ServerUnavailableError, 422 is RequestRejectedError", async () => {
    const transport = createHttpTransport({ serverUrl: server.url.href });
    const busy = await transport.send({ format: "v2", query: "busy", tools }).catch((e) => e);
    expect(busy).toBeInstanceOf(ServerUnavailableError);
    expect(busy).toMatchObject({ status: 429 });
    expect(await transport.send({ format: "v2", query: "loading", tools }).catch((e) => e)).toBeInstanceOf(
      ServerUnavailableError,
    );
    const bad = await transport.send({ format: "v2", query: "bad", tools }).catch((e) => e);
    expect(bad).toBeInstanceOf(RequestRejectedError);
    expect(bad).toMatchObject({ status: 422, code: "unsupported_tools", field: "tools" });
  });

  test("an error event in a stream is a refused request or an unavailable server by its code", async () => {
    const transport = createHttpTransport({ serverUrl: server.url.href, stream: true });
    const bad = await transport.send({ format: "v2", query: "stream-bad", tools }).catch((e) => e);
    expect(bad).toBeInstanceOf(RequestRejectedError);
    expect(bad).toMatchObject({ code: "invalid_request", field: "messages[0].content" });
    const engine = await transport.send({ format: "v2", query: "stream-engine", tools }).catch((e) => e);
    expect(engine).toBeInstanceOf(ServerUnavailableError);
  });

  test("no server at all is ServerUnavailableError with no status", async () => {
    const idle = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const url = idle.url.href;
    idle.stop(true);
    const error = await createHttpTransport({ serverUrl: url })
      .send({ format: "v2", query: "x", tools })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ServerUnavailableError);
    expect(error.status).toBeNull();
  });

  test("an aborted request rejects with the AbortError, not as a server failure", async () => {
    const controller = new AbortController();
    const sending = createHttpTransport({ serverUrl: server.url.href }).send(
      { format: "v2", query: "x", tools },
      { signal: controller.signal },
    );
    controller.abort();
    const error = await sending.catch((e) => e);
    expect(error.name).toBe("AbortError");
  });
});
