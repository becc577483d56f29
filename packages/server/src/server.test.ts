/**
 * The HTTP layer against a listening server with a scripted caller: health and loading states,
 * the queue (429), the request timeout (504), API key, CORS, metrics, OpenAPI and docs.
 */
import { describe, expect, test } from "bun:test";
import type { LoadedModel } from "./model-host";
import { createServer, type ServerOptions } from "./server";
import { postJson, readSse } from "./testing/http";
import { sampleBody } from "./testing/sample-tools";
import { scriptedModel } from "./testing/scripted-caller";

async function withServer(options: Partial<ServerOptions>, body: (base: string) => Promise<void>) {
  const server = createServer({ model: scriptedModel(), port: 0, ...options });
  const { url } = await server.listen();
  try {
    await body(url);
  } finally {
    await server.close();
  }
}

describe("health and loading", () => {
  test("503 on call routes while the model loads, then 200; /health tells both", async () => {
    let finish!: (model: LoadedModel) => void;
    const loading = new Promise<LoadedModel>((resolve) => {
      finish = resolve;
    });
    await withServer({ model: loading, modelName: "slow" }, async (base) => {
      const before = (await (await fetch(`${base}/health`)).json()) as Record<string, unknown>;
      expect(before).toMatchObject({
        status: "ok",
        loaded: false,
        state: "loading",
        model: "slow",
        provider: null,
      });
      const refused = await postJson(`${base}/v1/function_call`, sampleBody());
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { code: string }).code).toBe("model_loading");
      finish(scriptedModel());
      await Bun.sleep(0);
      const after = (await (await fetch(`${base}/health`)).json()) as Record<string, unknown>;
      expect(after).toMatchObject({ status: "ok", loaded: true, state: "ready", provider: "cpu" });
      expect(typeof after.version).toBe("string");
      expect((await postJson(`${base}/v1/function_call`, sampleBody())).status).toBe(200);
    });
  });

  test("a model that failed to load: status error, 503 with the reason", async () => {
    await withServer({ model: Promise.reject(new Error("no config.json")) }, async (base) => {
      await Bun.sleep(0);
      const health = (await (await fetch(`${base}/health`)).json()) as Record<string, unknown>;
      expect(health).toMatchObject({ status: "error", loaded: false, state: "failed" });
      const refused = await postJson(`${base}/v2/function_call`, sampleBody());
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: string }).error).toContain("no config.json");
    });
  });

  test("binds 127.0.0.1 by default", async () => {
    const server = createServer({ model: scriptedModel(), port: 0 });
    const address = await server.listen();
    expect(address.hostname).toBe("127.0.0.1");
    await server.close();
  });
});

describe("queue and timeout", () => {
  test("429 when running and waiting slots are taken; the others complete", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const server = createServer({ model: scriptedModel({ gate }), port: 0, concurrency: 1, maxWaiting: 1 });
    const { url } = await server.listen();
    try {
      const held = [0, 1].map(() => postJson(`${url}/v1/function_call`, sampleBody()));
      while (server.queue.running + server.queue.waiting < 2) await Bun.sleep(2);
      const refused = await postJson(`${url}/v1/function_call`, sampleBody());
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { code: string }).code).toBe("queue_full");
      open();
      expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
    } finally {
      await server.close();
    }
  });

  test("504 past the request timeout", async () => {
    await withServer({ model: scriptedModel({ delayMs: 300 }), requestTimeoutMs: 50 }, async (base) => {
      const reply = await postJson(`${base}/v1/function_call`, sampleBody());
      expect(reply.status).toBe(504);
      expect(((await reply.json()) as { code: string }).code).toBe("timeout");
    });
  });
});

describe("API key and CORS", () => {
  test("the key guards every route but /health", async () => {
    await withServer({ apiKey: "k1" }, async (base) => {
      expect((await fetch(`${base}/health`)).status).toBe(200);
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/openapi.json`)).status).toBe(401);
      const denied = await postJson(`${base}/v1/function_call`, sampleBody());
      expect(denied.status).toBe(401);
      expect(denied.headers.get("www-authenticate")).toContain("Bearer");
      const ok = await postJson(`${base}/v1/function_call`, sampleBody(), { authorization: "Bearer k1" });
      expect(ok.status).toBe(200);
    });
  });

  test("CORS is off by default", async () => {
    await withServer({}, async (base) => {
      const reply = await fetch(`${base}/health`, { headers: { origin: "http://evil.example" } });
      expect(reply.headers.get("access-control-allow-origin")).toBeNull();
    });
  });

  test("CORS allows only the given origins, never with credentials", async () => {
    await withServer({ corsOrigins: ["http://localhost:5173"] }, async (base) => {
      const preflight = await fetch(`${base}/v1/function_call`, {
        method: "OPTIONS",
        headers: {
          origin: "http://localhost:5173",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
      expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
      const other = await fetch(`${base}/health`, { headers: { origin: "http://evil.example" } });
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
    });
  });

  test('"*" allows any origin without credentials', async () => {
    await withServer({ corsOrigins: ["*"] }, async (base) => {
      const reply = await fetch(`${base}/health`, { headers: { origin: "http://a.example" } });
      expect(reply.headers.get("access-control-allow-origin")).toBe("*");
      expect(reply.headers.get("access-control-allow-credentials")).toBeNull();
    });
  });
});

describe("metrics, OpenAPI, docs", () => {
  test("/v1/models lists the served model (OpenAI shape)", async () => {
    await withServer({ modelName: "rt-tiny" }, async (base) => {
      const list = (await (await fetch(`${base}/v1/models`)).json()) as {
        object: string;
        data: { id: string }[];
      };
      expect(list.object).toBe("list");
      expect(list.data.map((m) => m.id)).toEqual(["rt-tiny"]);
    });
  });

  test("/metrics counts requests by route and status, calls, heads, steps and queue depth", async () => {
    await withServer({}, async (base) => {
      await postJson(`${base}/v1/function_call`, sampleBody());
      await postJson(`${base}/v1/function_call`, "{bad");
      await fetch(`${base}/no/such/path`);
      const text = await (await fetch(`${base}/metrics`)).text();
      expect(text).toContain(
        'rtool_http_requests_total{route="/v1/function_call",method="POST",status="200"} 1',
      );
      expect(text).toContain(
        'rtool_http_requests_total{route="/v1/function_call",method="POST",status="400"} 1',
      );
      expect(text).toContain('rtool_http_requests_total{route="unmatched",method="GET",status="404"} 1');
      expect(text).toContain("rtool_http_request_duration_seconds_bucket");
      expect(text).toContain("rtool_call_heads_count 1");
      expect(text).toContain("rtool_call_steps_count 1");
      expect(text).toContain("rtool_queue_depth 0");
      expect(text).toContain("rtool_prefix_cache_hits 1");
    });
  });

  test("/openapi.json documents every route with its schemas; /docs renders offline", async () => {
    await withServer({}, async (base) => {
      const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
        openapi: string;
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
        components: { schemas: Record<string, unknown> };
      };
      expect(doc.openapi).toBe("3.1.0");
      for (const path of [
        "/health",
        "/v1/function_call",
        "/v2/function_call",
        "/v1/chat/completions",
        "/metrics",
      ]) {
        expect(doc.paths[path]).toBeDefined();
      }
      expect(Object.keys(doc.paths["/v1/function_call"]!.post!.responses)).toEqual(
        expect.arrayContaining(["200", "400", "413", "422", "429", "503"]),
      );
      expect(doc.components.schemas.FunctionCallRequest).toBeDefined();
      expect(doc.components.schemas.FunctionCallReply).toBeDefined();
      const page = await (await fetch(`${base}/docs`)).text();
      expect(page).toContain("POST /v2/function_call");
      expect(page).not.toMatch(/<script|https?:\/\/(?!127)/);
    });
  });
});

describe("scripted replies", () => {
  test("SSE: a head event per head, then the call", async () => {
    await withServer({}, async (base) => {
      const reply = await postJson(`${base}/v2/function_call`, { ...sampleBody("grip it"), stream: true });
      expect(reply.headers.get("content-type")).toContain("text/event-stream");
      const events = await readSse(reply);
      expect(events.map((e) => e.event)).toEqual(["head", "head", "head", "head", "head", "call"]);
      const call = JSON.parse(events.at(-1)!.data);
      expect(call.function).toBe("grip");
      expect(call.args).toEqual({ force: 1 });
    });
  });

  test("chat completions stream: a tool_calls chunk, a finish chunk, [DONE]", async () => {
    await withServer({}, async (base) => {
      const reply = await postJson(`${base}/v1/chat/completions`, { ...sampleBody("release"), stream: true });
      const events = await readSse(reply);
      expect(events.at(-1)!.data).toBe("[DONE]");
      const first = JSON.parse(events[0]!.data);
      expect(first.object).toBe("chat.completion.chunk");
      expect(first.choices[0].delta.tool_calls[0]).toMatchObject({
        index: 0,
        type: "function",
        function: { name: "release", arguments: "{}" },
      });
      expect(JSON.parse(events[1]!.data).choices[0].finish_reason).toBe("tool_calls");
    });
  });
});
