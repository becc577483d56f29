/**
 * The holes a fuzz found, each closed: non-JSON bodies (415), foreign `Host` names (421),
 * nosniff, no CORS by default, 405 with `Allow`, duplicate enum values (422 with the path), an
 * environment too long for the model (4xx naming `environment`), `/health` without file paths,
 * and `__proto__`/`constructor`/`prototype` as parameter names end to end on a real model.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadCallers } from "../../src/load-callers";
import type { RtoolServer } from "../../src/server";
import { postJson } from "../../src/testing/http";
import { fixtureBody } from "../../src/testing/sample-tools";
import { FIXTURE, listen } from "./harness";

setDefaultTimeout(60_000);

let server: RtoolServer;
let base: string;

beforeAll(async () => {
  const model = await loadCallers(FIXTURE, { threads: 1, cache: false, lanes: 2 });
  ({ server, base } = await listen({ model, modelName: "/home/someone/models/qwen3-tied" }));
});
afterAll(() => server.close());

/** A raw HTTP/1.1 request, so the `Host` header is exactly what the test says. */
async function rawGet(path: string, host: string): Promise<string> {
  const { port } = new URL(base);
  let text = "";
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port: Number(port),
    socket: {
      data(_, chunk) {
        text += new TextDecoder().decode(chunk);
      },
    },
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  for (let i = 0; i < 200 && !text.includes("\r\n\r\n"); i++) await Bun.sleep(5);
  socket.end();
  return text;
}

describe("HTTP hardening", () => {
  test("text/plain and form bodies get 415; application/json with a charset is fine", async () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const reply = await fetch(`${base}/v1/function_call`, {
        method: "POST",
        headers: { "content-type": type },
        body: JSON.stringify(fixtureBody()),
      });
      expect(reply.status).toBe(415);
      expect(((await reply.json()) as { field: string }).field).toBe("content-type");
    }
    const ok = await postJson(`${base}/v1/function_call`, fixtureBody(), {
      "content-type": "application/json; charset=utf-8",
    });
    expect(ok.status).toBe(200);
  });

  test("a foreign Host gets 421 (metrics included); loopback names are answered", async () => {
    expect(await rawGet("/metrics", "attacker.example")).toStartWith("HTTP/1.1 421");
    expect(await rawGet("/health", "attacker.example:8899")).toStartWith("HTTP/1.1 421");
    for (const host of ["localhost:1", "127.0.0.1", "[::1]:8899", "LOCALHOST"]) {
      expect(await rawGet("/health", host)).toStartWith("HTTP/1.1 200");
    }
  });

  test("nosniff on every reply, no CORS by default", async () => {
    for (const reply of [await fetch(`${base}/health`), await fetch(`${base}/nowhere`)]) {
      expect(reply.headers.get("x-content-type-options")).toBe("nosniff");
      expect(reply.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  test("a wrong method gets 405 with Allow", async () => {
    const get = await fetch(`${base}/v1/function_call`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const post = await fetch(`${base}/health`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
  });

  test("/health shows no file paths", async () => {
    const text = await (await fetch(`${base}/health`)).text();
    expect(text).not.toContain("/home");
    expect(JSON.parse(text).model).toBe("qwen3-tied");
  });
});

describe("bad tools and prompts", () => {
  test("duplicate enum values: 422 with the field path", async () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "go",
          parameters: { type: "object", properties: { dir: { type: "string", enum: ["up", "up"] } } },
        },
      },
    ];
    const reply = await postJson(`${base}/v1/function_call`, fixtureBody("go up", { tools }));
    expect(reply.status).toBe(422);
    expect(((await reply.json()) as { field: string }).field).toBe(
      "tools[0].function.parameters.properties.dir.enum[1]",
    );
  });

  test("an environment that overflows the model's context: 4xx naming environment", async () => {
    const environment = Array.from({ length: 40 }, (_, i) => `line ${i}: ${"x".repeat(40)}`);
    const reply = await postJson(`${base}/v1/function_call`, fixtureBody("go up", { environment }));
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(((await reply.json()) as { field: string }).field).toBe("environment");
  });

  test("__proto__, constructor and prototype are parameters like any other, end to end", async () => {
    const properties = `{"__proto__":{"type":"string","enum":["a"]},"constructor":{"type":"string","enum":["b"]},"prototype":{"type":"string","enum":["c"]}}`;
    const body = `{"messages":[{"role":"user","content":"set them"}],"max_tokens":4,"tools":[{"type":"function","function":{"name":"set","parameters":{"type":"object","properties":${properties},"required":["__proto__","constructor","prototype"]}}}]}`;
    const reply = await postJson(`${base}/v1/function_call`, body);
    expect(reply.status).toBe(200);
    const text = await reply.text();
    const call = JSON.parse(text) as { function: string; valid: boolean; args: Record<string, unknown> };
    expect(call.function).toBe("set");
    // Valid means all three arrived (constrained to their enums); none dropped.
    expect(call.valid).toBe(true);
    expect(text).toContain('"args":{"__proto__":"a","constructor":"b","prototype":"c"}');
  });
});
