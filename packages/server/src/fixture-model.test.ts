/**
 * Routes against a real server on 127.0.0.1 serving a fixture model (random weights, head tags
 * as special tokens) through loadCallers: constrained decoding keeps every call well-formed.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { FunctionCallReply } from "@rtool/contract";
import { type LoadedCallers, loadCallers } from "./load-callers";
import { createServer, type RtoolServer } from "./server";
import { postJson, readSse } from "./testing/http";
import { FIXTURE_TOOLS, fixtureBody } from "./testing/sample-tools";

// Loading a model (or spawning the CLI) takes seconds on a busy machine.
setDefaultTimeout(60_000);

const FIXTURE = join(import.meta.dir, "../../core/test/fixtures/qwen3-tied");
const TOOL_NAMES = ["move", "stop"];
let server: RtoolServer;
let loaded: LoadedCallers;
let base: string;

beforeAll(async () => {
  // "always": the fixture is so small that the cost policy would rightly never merge its steps.
  // No answer cache: these tests repeat requests to see them decoded again (its own test is below).
  loaded = await loadCallers(FIXTURE, {
    threads: 1,
    cache: false,
    lanes: 4,
    mergePolicy: "always",
    answerCacheEntries: 0,
  });
  // The fixtures have a 512-token context and byte-level vocabularies: the v2 prompt leaves room
  // for the reference client's default 32 tokens per head, so `/v1/function_call` serves v2 here.
  server = createServer({ model: loaded, modelName: "qwen3-tied", port: 0, concurrency: 4, format: "v2" });
  base = (await server.listen()).url;
});
afterAll(() => server.close());

async function call(path: string, body: unknown): Promise<FunctionCallReply> {
  const reply = await postJson(`${base}${path}`, body);
  expect(reply.status).toBe(200);
  return (await reply.json()) as FunctionCallReply;
}

function expectReplyShape(reply: FunctionCallReply, heads: string[]) {
  expect(typeof reply.success).toBe("boolean");
  expect(reply.function === null || typeof reply.function === "string").toBe(true);
  expect(typeof reply.args).toBe("object");
  expect(Array.isArray(reply.args)).toBe(false);
  expect(Object.keys(reply.heads).sort()).toEqual([...heads].sort());
  for (const text of Object.values(reply.heads)) expect(typeof text).toBe("string");
  expect(reply.content === null || typeof reply.content === "string").toBe(true);
  expect(typeof reply.latency_ms).toBe("number");
  expect(reply.error === null || typeof reply.error === "string").toBe(true);
  expect(typeof reply.valid).toBe("boolean");
  expect(Array.isArray(reply.errors)).toBe(true);
  for (const key of [
    "prefill_ms",
    "decode_ms",
    "steps",
    "cached_prefix_tokens",
    "total_ms",
    "queue_ms",
    "prepare_ms",
    "lane_wait_ms",
    "batch_wait_ms",
    "forward_ms",
    "shared_steps",
    "prompt_tokens",
    "prefilled_tokens",
    "fed_tokens",
  ] as const) {
    expect(typeof reply.timings[key]).toBe("number");
  }
  // The model's stages sit inside its total; a prompt has tokens.
  expect(reply.timings.forward_ms + reply.timings.batch_wait_ms).toBeLessThanOrEqual(
    reply.timings.total_ms + 0.01,
  );
  expect(reply.timings.prompt_tokens).toBeGreaterThan(0);
  // Every prompt token is either reused from the prefix cache or prefilled by the call.
  expect(reply.timings.prefilled_tokens + reply.timings.cached_prefix_tokens).toBe(
    reply.timings.prompt_tokens,
  );
  expect(reply.timings.fed_tokens).toBeGreaterThanOrEqual(reply.timings.prefilled_tokens);
  expect(typeof reply.timings.answer_cached).toBe("boolean");
  // Constrained decoding: the function head always spells one of the tools.
  expect(TOOL_NAMES).toContain(reply.heads.function!);
  expect(reply.success).toBe(true);
  expect(TOOL_NAMES).toContain(reply.function!);
}

describe("function_call on a fixture model", () => {
  test("v1 and v2 replies carry every reference field with the right types", async () => {
    const v1 = createServer({ model: loaded, port: 0, format: "v1" });
    try {
      const url = (await v1.listen()).url;
      // The v1 system turn alone is ~450 tokens here: one short tool, a few tokens per head.
      const tool = {
        type: "function",
        function: { name: "move", parameters: { type: "object", properties: { d: { type: "string" } } } },
      };
      const body = { ...fixtureBody("up", { environment: ["x"] }), tools: [tool], max_tokens: 3 };
      const reply = await postJson(`${url}/v1/function_call`, body);
      expect(reply.status).toBe(200);
      expectReplyShape((await reply.json()) as FunctionCallReply, ["function", "arg1"]);
    } finally {
      // The model belongs to the main server: stop this listener without disposing it.
      await v1.queue.close();
    }
    const reply = await call(
      "/v2/function_call",
      fixtureBody("go up 2", { environment: ["x: 1"], history: ["stop()"] }),
    );
    expectReplyShape(reply, ["function", "arg1", "arg2"]);
  });

  test("include_content_head adds the content head", async () => {
    const reply = await call("/v2/function_call", fixtureBody("go", { include_content_head: true }));
    expectReplyShape(reply, ["content", "function", "arg1", "arg2"]);
  });

  test("the second identical call reuses the cached prompt", async () => {
    const body = fixtureBody("again and again", { system: "You drive a robot." });
    const first = await call("/v2/function_call", body);
    const second = await call("/v2/function_call", body);
    expect(second.timings.cached_prefix_tokens).toBeGreaterThan(0);
    expect(second.heads).toEqual(first.heads);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/rtool_prefix_cache_hits [1-9]/);
  });

  test("SSE: one head event per head, then the call, equal to the JSON reply", async () => {
    const body = fixtureBody("down 3");
    const plain = await call("/v2/function_call", body);
    const events = await readSse(await postJson(`${base}/v2/function_call`, { ...body, stream: true }));
    const heads = events.filter((e) => e.event === "head").map((e) => JSON.parse(e.data));
    expect(events.at(-1)!.event).toBe("call");
    expect(events).toHaveLength(heads.length + 1);
    expect(heads.map((h) => h.head).sort()).toEqual(Object.keys(plain.heads).sort());
    for (const h of heads) expect(h).toMatchObject({ text: plain.heads[h.head], done: true });
    const streamed = JSON.parse(events.at(-1)!.data) as FunctionCallReply;
    expect(streamed.function).toBe(plain.function);
    expect(streamed.args).toEqual(plain.args);
    expect(streamed.heads).toEqual(plain.heads);
  });

  test("a prompt over the model's context is 422 naming the query", async () => {
    const reply = await postJson(`${base}/v2/function_call`, fixtureBody("x".repeat(2000)));
    expect(reply.status).toBe(422);
    expect(((await reply.json()) as { field: string }).field).toBe("messages[0].content");
  });
});

describe("chat completions on a fixture model", () => {
  test("answers with well-formed tool_calls", async () => {
    const reply = await postJson(`${base}/v1/chat/completions`, {
      model: "qwen3-tied",
      messages: [
        { role: "system", content: "Robot." },
        { role: "user", content: [{ type: "text", text: "stop now" }] },
      ],
      tools: FIXTURE_TOOLS,
      max_tokens: 6,
    });
    expect(reply.status).toBe(200);
    const completion = (await reply.json()) as {
      object: string;
      model: string;
      choices: {
        message: {
          role: string;
          tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[];
        };
        finish_reason: string;
      }[];
    };
    expect(completion.object).toBe("chat.completion");
    expect(completion.model).toBe("qwen3-tied");
    const [choice] = completion.choices;
    expect(choice!.finish_reason).toBe("tool_calls");
    const [toolCall] = choice!.message.tool_calls;
    expect(toolCall!.id).toMatch(/^call_/);
    expect(toolCall!.type).toBe("function");
    expect(TOOL_NAMES).toContain(toolCall!.function.name);
    const args = JSON.parse(toolCall!.function.arguments);
    expect(typeof args).toBe("object");
  });
});

describe("a client written for the reference server", () => {
  test("posts {messages, tools, environment, history} to /v1/function_call and reads the reply", async () => {
    const health = (await (await fetch(`${base}/health`)).json()) as { loaded?: boolean; status?: string };
    expect(health.loaded === true || health.status === "ok").toBe(true);
    const response = await fetch(`${base}/v1/function_call`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        messages: [{ role: "user", content: "move up" }],
        tools: FIXTURE_TOOLS,
        environment: ["pos: 0"],
        history: [],
      }),
    });
    const data = (await response.json()) as { function: string; args: object; heads: Record<string, string> };
    expect(TOOL_NAMES).toContain(data.function);
    expect(typeof data.args).toBe("object");
    expect(typeof data.heads.function).toBe("string");
    expect(typeof data.heads.arg1).toBe("string");
  });
});

describe("cross-request batching", () => {
  test("concurrent calls share forward passes and each gets its own answer", async () => {
    const queries = ["up 1", "down 2", "stop", "up 3", "left", "right 4", "halt", "go"];
    const alone: FunctionCallReply[] = [];
    for (const q of queries) alone.push(await call("/v2/function_call", fixtureBody(q)));
    // A first burst leaves the system prompt in every lane's prefix cache.
    await Promise.all(queries.map((q) => call("/v2/function_call", fixtureBody(q))));
    const before = loaded.batchStats();
    const together = await Promise.all(queries.map((q) => call("/v2/function_call", fixtureBody(q))));
    const passes = loaded.batchStats().passes - before.passes;
    const steps = loaded.batchStats().steps - before.steps;
    expect(passes).toBeLessThan(steps);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/rtool_forward_passes [1-9]/);
    together.forEach((reply, i) => {
      expect(reply.heads).toEqual(alone[i]!.heads);
      expect(reply.args).toEqual(alone[i]!.args);
    });
  });
});

describe("the answer cache", () => {
  test("a repeated greedy request gets the decoded answer without a forward pass", async () => {
    const withAnswers = await loadCallers(FIXTURE, { threads: 1, cache: false, lanes: 2 });
    const answering = createServer({ model: withAnswers, port: 0, concurrency: 2, format: "v2" });
    const url = (await answering.listen()).url;
    try {
      const body = fixtureBody("up 7", { system: "You drive a robot." });
      const post = async (extra: object = {}) =>
        (await (
          await postJson(`${url}/v2/function_call`, { ...body, ...extra })
        ).json()) as FunctionCallReply;
      const first = await post();
      const passes = withAnswers.batchStats().passes;
      const second = await post();
      expect(first.timings.answer_cached).toBe(false);
      expect(second.timings).toMatchObject({
        answer_cached: true,
        steps: 0,
        prefilled_tokens: 0,
        fed_tokens: 0,
      });
      expect(withAnswers.batchStats().passes).toBe(passes);
      expect(second.heads).toEqual(first.heads);
      expect(second.args).toEqual(first.args);
      expect(second.function).toBe(first.function);
      // sampling is never answered from the cache
      expect((await post({ temperature: 0.5 })).timings.answer_cached).toBe(false);
    } finally {
      await answering.close();
    }
  });
});
