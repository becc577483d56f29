/**
 * `/v1/completions` on a fixture model (random weights, head tags as special tokens) through
 * loadCallers: a list of prompts is decoded as one tree and gives each prompt the text it gets
 * alone; stops, lengths and bad bodies.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadModel, loadTokenizer } from "@rtool/core";
import { loadCallers } from "../load-callers";
import { createServer, type RtoolServer } from "../server";
import { postJson } from "../testing/http";
import type { Completion } from "./completions-schema";

const FIXTURE = join(import.meta.dir, "../../../core/test/fixtures/qwen3-tied");
const tokenizer = loadTokenizer(FIXTURE);
const TURN = "<|im_start|>user\nmove up<|im_end|>\n<|im_start|>assistant\n";
let server: RtoolServer;
let base: string;

beforeAll(async () => {
  const model = await loadCallers(FIXTURE, { threads: 1, cache: false, lanes: 2 });
  server = createServer({ model, modelName: "qwen3-tied", port: 0, concurrency: 2 });
  base = (await server.listen()).url;
});
afterAll(() => server.close());

async function complete(body: Record<string, unknown>): Promise<Completion> {
  const reply = await postJson(`${base}/v1/completions`, body);
  expect(reply.status).toBe(200);
  return (await reply.json()) as Completion;
}

describe("/v1/completions", () => {
  test("a list of prompts gets one choice per prompt, each as decoded alone", async () => {
    const prompts = [
      `${TURN}<function>`,
      `${TURN}<arg1>`,
      `${TURN}<arg2>`,
      `${TURN}<function>`, // a repeat
      `${TURN}the longer branch`,
      "hello there", // shares nothing with the others
    ];
    const options = { max_tokens: 6, temperature: 0, stop: ["</function>", "</arg1>", "<|null|>"] };
    const together = await complete({ ...options, prompt: prompts });
    expect(together.object).toBe("text_completion");
    expect(together.model).toBe("qwen3-tied");
    expect(together.choices.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const [i, prompt] of prompts.entries()) {
      const alone = await complete({ ...options, prompt });
      expect(alone.choices).toHaveLength(1);
      expect(together.choices[i]!.text).toBe(alone.choices[0]!.text);
      expect(together.choices[i]!.finish_reason).toBe(alone.choices[0]!.finish_reason);
    }
    expect(together.choices[3]).toEqual({ ...together.choices[0]!, index: 3 });
    const usage = together.usage;
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    expect(usage.completion_tokens).toBeGreaterThan(0);
  });

  test("token-id prompts decode as their text, and as a plain greedy loop does", async () => {
    const ids = tokenizer.encode(`${TURN}<arg1>`);
    const options = { max_tokens: 6, temperature: 0, ignore_eos: true };
    const byText = await complete({ ...options, prompt: `${TURN}<arg1>` });
    const byIds = await complete({ ...options, prompt: ids });
    expect(byIds.choices[0]).toEqual(byText.choices[0]!);
    expect(byIds.usage.prompt_tokens).toBe(ids.length);
    // Core's whole-sequence greedy loop, no tree and no prefix cache.
    const model = await loadModel(FIXTURE, { threads: 1, cache: false });
    try {
      const generated = await model.generate(ids, { maxTokens: 6 });
      expect(byIds.choices[0]!.text).toBe(tokenizer.decode(generated));
    } finally {
      await model.dispose();
    }
  });

  test("a stop text ends the choice before it (or with it, when asked to include it)", async () => {
    const free = await complete({ prompt: "hello there", max_tokens: 8, ignore_eos: true });
    const text = free.choices[0]!.text;
    expect(free.choices[0]!.finish_reason).toBe("length");
    expect(text.length).toBeGreaterThan(1);
    const stop = text.slice(1, 2);
    const cut = text.slice(0, text.indexOf(stop));
    const stopped = await complete({ prompt: "hello there", max_tokens: 8, ignore_eos: true, stop });
    expect(stopped.choices[0]).toMatchObject({ text: cut, finish_reason: "stop", stop_reason: stop });
    const kept = await complete({
      prompt: "hello there",
      max_tokens: 8,
      ignore_eos: true,
      stop: [stop],
      include_stop_str_in_output: true,
    });
    expect(kept.choices[0]!.text).toBe(cut + stop);
  });

  test("one-token prompts, alone and together (nothing shared to prefill)", async () => {
    const ids = tokenizer.encode("a");
    expect(ids).toHaveLength(1);
    const alone = await complete({ prompt: ids, max_tokens: 3, ignore_eos: true });
    const together = await complete({
      prompt: [ids, tokenizer.encode("b")],
      max_tokens: 3,
      ignore_eos: true,
    });
    expect(together.choices[0]!.text).toBe(alone.choices[0]!.text);
    expect(together.choices).toHaveLength(2);
  });

  test("malformed bodies get 400 naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, "prompt"],
      [{ prompt: [] }, "prompt"],
      [{ prompt: "x", max_tokens: 0 }, "max_tokens"],
      [{ prompt: "x", echo: true }, "echo"],
      [{ prompt: "x", stream: true }, "stream"],
      [{ prompt: "x", n: 2 }, "n"],
      [{ prompt: "x", stop: [""] }, "stop"],
      [{ prompt: [[1, 2], [999999]] }, "prompt[1][0]"],
      [{ prompt: "x".repeat(600), max_tokens: 8 }, "prompt"],
    ];
    for (const [body, field] of cases) {
      const reply = await postJson(`${base}/v1/completions`, body);
      expect(reply.status).toBe(400);
      const error = (await reply.json()) as { field: string; code: string };
      expect(error.field.startsWith(field)).toBe(true);
    }
  });
});
