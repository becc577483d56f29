/**
 * The bad-input suite: every malformed request gets its documented status and a JSON error
 * naming the field, the server stays up, and the next good call succeeds. These checks all
 * happen before the model is touched, so a scripted caller stands in for it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type RtoolServer } from "./server";
import { postJson } from "./testing/http";
import { ROBOT_TOOLS, sampleBody } from "./testing/sample-tools";
import { scriptedModel } from "./testing/scripted-caller";

const KEY = "test-key-123";
const auth = { authorization: `Bearer ${KEY}` };
let server: RtoolServer;
let base: string;
const model = scriptedModel();

beforeAll(async () => {
  server = createServer({ model, modelName: "scripted", port: 0, apiKey: KEY, maxBodyBytes: 64 * 1024 });
  base = (await server.listen()).url;
});
afterAll(() => server.close());

const fn = (name: string, properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "function",
  function: { name, parameters: { type: "object", properties, ...extra } },
});
const withBody = (patch: Record<string, unknown>) => ({ ...sampleBody(), ...patch });
const without = (key: string) => {
  const body = sampleBody();
  delete body[key];
  return body;
};
const sevenParams = Object.fromEntries(
  ["a", "b", "c", "d", "e", "f", "g"].map((k) => [k, { type: "string" }]),
);
const deep = `${"[".repeat(1000)}${"]".repeat(1000)}`;
const notUtf8 = new Uint8Array([
  ...new TextEncoder().encode('{"messages":[{"role":"user","content":"'),
  0xff,
  0xfe,
  0xc3,
  ...new TextEncoder().encode('"}],"tools":[]}'),
]);

interface Case {
  name: string;
  body: unknown;
  status: number;
  field: string;
  path?: string;
  headers?: Record<string, string>;
}

const cases: Case[] = [
  { name: "not JSON", body: "{oops", status: 400, field: "body" },
  { name: "empty body", body: "", status: 400, field: "body" },
  { name: "JSON array", body: "[]", status: 400, field: "body" },
  { name: "JSON string", body: '"move up"', status: 400, field: "body" },
  { name: "JSON null", body: "null", status: 400, field: "body" },
  { name: "trailing garbage", body: `${JSON.stringify(sampleBody())} x`, status: 400, field: "body" },
  { name: "missing messages", body: without("messages"), status: 400, field: "messages" },
  { name: "messages not an array", body: withBody({ messages: "hi" }), status: 400, field: "messages" },
  { name: "messages empty", body: withBody({ messages: [] }), status: 400, field: "messages" },
  {
    name: "message without role",
    body: withBody({ messages: [{ content: "hi" }] }),
    status: 400,
    field: "messages[0].role",
  },
  {
    name: "unknown role",
    body: withBody({ messages: [{ role: "wizard", content: "hi" }] }),
    status: 400,
    field: "messages[0].role",
  },
  {
    name: "content not a string",
    body: withBody({ messages: [{ role: "user", content: 42 }] }),
    status: 400,
    field: "messages[0].content",
  },
  {
    name: "no user message",
    body: withBody({ messages: [{ role: "system", content: "be brief" }] }),
    status: 400,
    field: "messages",
  },
  {
    name: "blank query",
    body: withBody({ messages: [{ role: "user", content: "   " }] }),
    status: 400,
    field: "messages[0].content",
  },
  {
    name: "too many messages",
    body: withBody({ messages: Array.from({ length: 65 }, () => ({ role: "user", content: "x" })) }),
    status: 400,
    field: "messages",
  },
  { name: "missing tools", body: without("tools"), status: 400, field: "tools" },
  { name: "empty tools", body: withBody({ tools: [] }), status: 400, field: "tools" },
  { name: "tools not an array", body: withBody({ tools: { name: "x" } }), status: 400, field: "tools" },
  { name: "tool is a string", body: withBody({ tools: ["move"] }), status: 400, field: "tools[0]" },
  {
    name: "7-parameter tool",
    body: withBody({ tools: [fn("many", sevenParams)] }),
    status: 422,
    field: "tools[0].function.parameters.properties",
  },
  {
    name: "array parameter",
    body: withBody({ tools: [fn("path", { points: { type: "array" } })] }),
    status: 422,
    field: "tools[0].function.parameters.properties.points.type",
  },
  {
    name: "duplicate tool names",
    body: withBody({ tools: [ROBOT_TOOLS[1], ROBOT_TOOLS[1]] }),
    status: 422,
    field: "tools[1]",
  },
  {
    name: "tool name with spaces",
    body: withBody({ tools: [fn("move to", {})] }),
    status: 422,
    field: "tools[0].function.name",
  },
  {
    name: "required names unknown property",
    body: withBody({ tools: [fn("go", { x: { type: "number" } }, { required: ["y"] })] }),
    status: 422,
    field: "tools[0].function.parameters.required[0]",
  },
  {
    name: "empty enum value",
    body: withBody({ tools: [fn("pick", { c: { type: "string", enum: [""] } })] }),
    status: 422,
    field: "tools[0].function.parameters.properties.c.enum[0]",
  },
  {
    name: "environment not an array",
    body: withBody({ environment: "hot" }),
    status: 400,
    field: "environment",
  },
  {
    name: "environment entry a number",
    body: withBody({ environment: [1] }),
    status: 400,
    field: "environment[0]",
  },
  {
    name: "oversized history",
    body: withBody({ history: Array.from({ length: 300 }, (_, i) => `move(${i})`) }),
    status: 400,
    field: "history",
  },
  {
    name: "history entry too long",
    body: withBody({ history: ["x".repeat(3000)] }),
    status: 400,
    field: "history[0]",
  },
  { name: "system not a string", body: withBody({ system: 7 }), status: 400, field: "system" },
  { name: "max_tokens zero", body: withBody({ max_tokens: 0 }), status: 400, field: "max_tokens" },
  { name: "max_tokens a string", body: withBody({ max_tokens: "32" }), status: 400, field: "max_tokens" },
  { name: "max_tokens fractional", body: withBody({ max_tokens: 1.5 }), status: 400, field: "max_tokens" },
  { name: "max_tokens huge", body: withBody({ max_tokens: 100000 }), status: 400, field: "max_tokens" },
  { name: "temperature negative", body: withBody({ temperature: -1 }), status: 400, field: "temperature" },
  {
    name: "include_content_head not boolean",
    body: withBody({ include_content_head: "yes" }),
    status: 400,
    field: "include_content_head",
  },
  { name: "stream not boolean", body: withBody({ stream: "true" }), status: 400, field: "stream" },
  { name: "huge body", body: withBody({ system: "x".repeat(100 * 1024) }), status: 413, field: "body" },
  { name: "non-UTF-8 body", body: notUtf8, status: 400, field: "body" },
  { name: "deeply nested JSON", body: deep, status: 400, field: "body" },
  {
    name: "deep nesting inside a tool",
    body: withBody({
      tools: [{ type: "function", function: JSON.parse(`${'{"a":'.repeat(100)}1${"}".repeat(100)}`) }],
    }),
    status: 400,
    field: "body",
  },
  {
    name: "wrong API key",
    body: sampleBody(),
    status: 401,
    field: "authorization",
    headers: { authorization: "Bearer nope" },
  },
  {
    name: "missing API key",
    body: sampleBody(),
    status: 401,
    field: "authorization",
    headers: { authorization: "" },
  },
  { name: "unknown route", body: sampleBody(), status: 404, field: "path", path: "/v3/function_call" },
  {
    name: "chat: tool type not function",
    body: { messages: [{ role: "user", content: "go" }], tools: [{ type: "retrieval", function: {} }] },
    status: 400,
    field: "tools[0].type",
    path: "/v1/chat/completions",
  },
  {
    name: "chat: tool_choice names no tool",
    body: {
      messages: [{ role: "user", content: "go" }],
      tools: ROBOT_TOOLS,
      tool_choice: { type: "function", function: { name: "fly" } },
    },
    status: 400,
    field: "tool_choice.function.name",
    path: "/v1/chat/completions",
  },
  {
    name: "chat: 7-parameter tool",
    body: { messages: [{ role: "user", content: "go" }], tools: [fn("many", sevenParams)] },
    status: 422,
    field: "tools[0].function.parameters.properties",
    path: "/v1/chat/completions",
  },
];

describe("bad input", () => {
  test("the suite has at least 30 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  for (const c of cases) {
    test(`${c.name} -> ${c.status} naming ${c.field}`, async () => {
      const path = c.path ?? "/v1/function_call";
      const response = await postJson(`${base}${path}`, c.body, { ...auth, ...c.headers });
      expect(response.status).toBe(c.status);
      expect(response.headers.get("content-type")).toContain("application/json");
      const error = (await response.json()) as {
        success: boolean;
        error: string;
        field: string;
        code: string;
      };
      expect(error.success).toBe(false);
      expect(error.field).toBe(c.field);
      expect(error.error).toContain(c.field);
      expect(typeof error.code).toBe("string");
      // The server is still up and the next good call succeeds.
      const good = await postJson(`${base}/v2/function_call`, sampleBody(), auth);
      expect(good.status).toBe(200);
      expect(((await good.json()) as { success: boolean }).success).toBe(true);
    });
  }

  test("a chunked body (no Content-Length) over the limit -> 413; within it, a good call", async () => {
    const chunked = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      return new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 16 * 1024)
            controller.enqueue(bytes.slice(at, at + 16 * 1024));
          controller.close();
        },
      });
    };
    const send = (text: string) =>
      fetch(`${base}/v2/function_call`, {
        method: "POST",
        headers: { "content-type": "application/json", ...auth },
        body: chunked(text),
      });
    const huge = await send(JSON.stringify(withBody({ system: "x".repeat(100 * 1024) })));
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { field: string }).field).toBe("body");
    const good = await send(JSON.stringify(sampleBody()));
    expect(good.status).toBe(200);
  });

  test("no bad request reached the model", () => {
    expect(model.caller.calls).toBe(cases.length + 1);
  });
});
