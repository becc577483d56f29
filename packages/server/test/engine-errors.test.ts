/**
 * The remote engine against scripted engines on 127.0.0.1: the request it sends, the reply forms
 * it reads (stop texts kept, or trimmed with vLLM's `stop_reason` / SGLang's `matched_stop`),
 * retries, and the 502/504 answers when the engine fails, after which the server still serves.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { completionsUrl, createOpenAiEngine } from "../src/engine/openai-engine";
import { createServer, type RtoolServer } from "../src/server";
import { postJson, readSse } from "../src/testing/http";
import { sampleBody } from "../src/testing/sample-tools";

type Handler = (body: Record<string, unknown>, request: Request) => Response | Promise<Response>;

let handler: Handler;
let seen: { body: Record<string, unknown>; headers: Headers }[] = [];
let engine: ReturnType<typeof Bun.serve>;
let server: RtoolServer;
let base: string;

/** Engine replies for the robot body's heads (function, arg1..arg4), stop texts kept. */
const KEPT = ["move_to</function>", "300</arg1>", "150</arg2>", "50</arg3>", "<|null|>"];

function completion(texts: string[], extra: (i: number) => Record<string, unknown> = () => ({})) {
  return Response.json({
    id: "cmpl-1",
    object: "text_completion",
    choices: texts.map((text, index) => ({ index, text, finish_reason: "stop", ...extra(index) })),
    usage: { prompt_tokens: 100, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 80 } },
  });
}

beforeAll(async () => {
  engine = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      const body = (await request.json()) as Record<string, unknown>;
      seen.push({ body, headers: request.headers });
      return handler(body, request);
    },
  });
  server = createServer({
    model: createOpenAiEngine({
      url: `http://127.0.0.1:${engine.port}/v1`,
      model: "rt-remote",
      apiKey: "engine-secret",
      timeoutMs: 10_000,
      retries: 2,
      backoffMs: 5,
    }),
    modelName: "rt-remote",
    port: 0,
  });
  base = (await server.listen()).url;
});
afterEach(() => {
  seen = [];
});
afterAll(async () => {
  await server.close();
  engine.stop(true);
});

async function callOnce(): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await postJson(`${base}/v1/function_call`, { ...sampleBody(), max_tokens: 12 });
  return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
}

async function expectStillServing() {
  handler = () => completion(KEPT);
  const { status, body } = await callOnce();
  expect(status).toBe(200);
  expect(body.function).toBe("move_to");
}

describe("remote engine: the request and the replies it reads", () => {
  test("one batched request with every head prompt, and a typed call back", async () => {
    handler = () => completion(KEPT);
    const { status, body } = await callOnce();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      function: "move_to",
      args: { x: 300, y: 150, z: 50 },
      valid: true,
      heads: { function: "move_to", arg1: "300", arg2: "150", arg3: "50", arg4: "<|null|>" },
    });
    expect((body.timings as Record<string, number>).cached_prefix_tokens).toBe(80);
    expect(seen).toHaveLength(1);
    const sent = seen[0]!.body;
    const prompts = sent.prompt as string[];
    expect(prompts).toHaveLength(5);
    const tags = ["<function>", "<arg1>", "<arg2>", "<arg3>", "<arg4>"];
    prompts.forEach((prompt, i) => {
      expect(prompt.endsWith(tags[i]!)).toBe(true);
      // Every prompt shares the whole call prompt: the engine's prefix cache holds it once.
      expect(prompt.slice(0, -tags[i]!.length)).toBe(prompts[0]!.slice(0, -tags[0]!.length));
    });
    expect(sent).toMatchObject({ model: "rt-remote", max_tokens: 12, temperature: 0, n: 1, echo: false });
    expect(sent).toMatchObject({
      ignore_eos: true,
      include_stop_str_in_output: true,
      skip_special_tokens: false,
    });
    expect([...(sent.stop as string[])].sort()).toEqual(
      ["</function>", "</arg1>", "</arg2>", "</arg3>", "</arg4>", "<|null|>", "<|im_end|>"].sort(),
    );
    expect(seen[0]!.headers.get("authorization")).toBe("Bearer engine-secret");
  });

  test("trimmed stop texts are read from stop_reason (vLLM) and matched_stop (SGLang)", async () => {
    const trimmed = ["move_to", "300", "150", "50", ""];
    const stops = ["</function>", "</arg1>", "</arg2>", "</arg3>", "<|null|>"];
    for (const field of ["stop_reason", "matched_stop"]) {
      handler = () => completion(trimmed, (i) => ({ [field]: stops[i] }));
      const { body } = await callOnce();
      expect(body).toMatchObject({ function: "move_to", args: { x: 300, y: 150, z: 50 }, valid: true });
      expect((body.heads as Record<string, string>).arg4).toBe("<|null|>");
    }
  });

  test("choices are placed by their index, in whatever order they come", async () => {
    handler = () =>
      Response.json({
        choices: KEPT.map((text, index) => ({ index, text, finish_reason: "stop" })).reverse(),
      });
    const { body } = await callOnce();
    expect(body).toMatchObject({ function: "move_to", args: { x: 300, y: 150, z: 50 } });
  });

  test("a head cut by another head's closing tag is decoded again with shared stops only", async () => {
    let round = 0;
    handler = (sent) => {
      round++;
      if (round === 1)
        return completion(["move_to</function>", "300</arg2>", "150</arg2>", "50</arg3>", "<|null|>"]);
      expect(sent.prompt as string[]).toHaveLength(1);
      expect(sent.stop).toEqual(["</arg1>", "<|null|>", "<|im_end|>"]);
      return completion(["300</arg2>7</arg1>"]);
    };
    const { body } = await callOnce();
    expect(round).toBe(2);
    expect((body.heads as Record<string, string>).arg1).toBe("300</arg2>7");
    expect(body.valid).toBe(false);
  });

  test("SSE: head events, then the call", async () => {
    handler = () => completion(KEPT);
    const reply = await postJson(`${base}/v1/function_call`, { ...sampleBody(), stream: true });
    const events = await readSse(reply);
    expect(events.map((e) => e.event)).toEqual(["head", "head", "head", "head", "head", "call"]);
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ function: "move_to", valid: true });
  });

  test("/v1/completions passes through to the engine", async () => {
    handler = (sent) => completion((sent.prompt as string[]).map((p) => `${p}!`));
    const reply = await postJson(`${base}/v1/completions`, { prompt: ["a", "b"], max_tokens: 3, stop: "x" });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { choices: { text: string }[]; usage: { prompt_tokens: number } };
    expect(body.choices.map((c) => c.text)).toEqual(["a!", "b!"]);
    expect(seen[0]!.body).toMatchObject({ prompt: ["a", "b"], max_tokens: 3, stop: ["x"] });
  });
});

describe("remote engine: failures are 502/504 with the reason, and the server stays up", () => {
  test("retries overload statuses with back-off, then answers", async () => {
    let calls = 0;
    handler = () => (++calls < 3 ? new Response("busy", { status: 503 }) : completion(KEPT));
    const { status } = await callOnce();
    expect(status).toBe(200);
    expect(calls).toBe(3);
  });

  const failures: [string, Handler, number, string, RegExp, number][] = [
    ["malformed JSON", () => new Response("{not json", { status: 200 }), 502, "engine_error", /not JSON/, 1],
    [
      "a reply that is not a completion",
      () => Response.json({ data: [] }),
      502,
      "engine_error",
      /not a completion \(choices/,
      1,
    ],
    [
      "fewer choices than prompts",
      () => completion(KEPT.slice(0, 2)),
      502,
      "engine_error",
      /2 choices came back for 5 prompts/,
      1,
    ],
    [
      "a client error status",
      () => new Response("prompt too long", { status: 400 }),
      502,
      "engine_error",
      /answered 400: prompt too long/,
      1,
    ],
    [
      "overload past the retries",
      () => new Response("busy", { status: 503 }),
      502,
      "engine_error",
      /answered 503/,
      3,
    ],
  ];
  for (const [name, reply, status, code, message, attempts] of failures) {
    test(`${name} -> ${status}`, async () => {
      handler = reply;
      const result = await callOnce();
      expect(result.status).toBe(status);
      expect(result.body).toMatchObject({ success: false, code });
      expect(String(result.body.error)).toMatch(message);
      expect(seen).toHaveLength(attempts);
      await expectStillServing();
    });
  }

  test("no answer in time -> 504, not retried", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    handler = async () => {
      await gate; // answers only once the test is over
      return completion(KEPT);
    };
    const url = `http://127.0.0.1:${engine.port}`;
    const impatient = createServer({ model: createOpenAiEngine({ url, timeoutMs: 200 }), port: 0 });
    const at = (await impatient.listen()).url;
    try {
      const reply = await postJson(`${at}/v1/function_call`, sampleBody());
      expect(reply.status).toBe(504);
      const body = (await reply.json()) as { code: string; error: string };
      expect(body.code).toBe("engine_timeout");
      expect(body.error).toContain("no answer within 200 ms");
      expect(seen).toHaveLength(1);
      expect((await fetch(`${at}/health`)).status).toBe(200);
    } finally {
      release();
      await impatient.close();
    }
  });

  test("an unreachable engine -> 502 naming it, after the retries", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const lonely = createServer({ model: createOpenAiEngine({ url, retries: 1, backoffMs: 5 }), port: 0 });
    const at = (await lonely.listen()).url;
    try {
      const reply = await postJson(`${at}/v2/function_call`, sampleBody());
      expect(reply.status).toBe(502);
      const body = (await reply.json()) as { code: string; error: string };
      expect(body.code).toBe("engine_error");
      expect(body.error).toContain(`${url}/v1/completions`);
      expect(body.error).toContain("unreachable");
      const health = await fetch(`${at}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ loaded: true, provider: "remote" });
    } finally {
      await lonely.close();
    }
  });
});

test("completionsUrl accepts a base URL, a /v1 URL or the endpoint", () => {
  expect(completionsUrl("http://gpu:8000")).toBe("http://gpu:8000/v1/completions");
  expect(completionsUrl("http://gpu:8000/")).toBe("http://gpu:8000/v1/completions");
  expect(completionsUrl("http://gpu:8000/v1/")).toBe("http://gpu:8000/v1/completions");
  expect(completionsUrl("http://gpu:8000/v1/completions")).toBe("http://gpu:8000/v1/completions");
});
