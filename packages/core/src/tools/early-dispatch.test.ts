/**
 * Early dispatch: the handler starts once the function head and the required argument heads are
 * final, before the last head finishes, with a positive head-start; on scripted streams (exact
 * rules) and on the real-time caller's stream over a fixture model (real decoding).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { z } from "zod";
import { createRealtimeCaller, type RealtimeCaller } from "../caller/realtime-caller";
import { loadModel } from "../load-model";
import type { Model } from "../model";
import type { RtoolTokenizer } from "../tokenizer";
import { defineTool } from "./define-tool";
import type { StreamEvent } from "./early-dispatch";
import { type AuditEntry, ToolExecutor } from "./executor";
import { ToolRegistry } from "./registry";

/** When each handler started, to compare with when heads arrived. */
let started: { tool: string; at: number; args: unknown }[] = [];

const registry = new ToolRegistry([
  defineTool({
    name: "move",
    parameters: z.object({
      direction: z.enum(["up", "down", "left", "right"]),
      speed: z.enum(["slow", "fast"]).optional(),
    }),
    handler: (args) => {
      started.push({ tool: "move", at: performance.now(), args });
      return "moved";
    },
  }),
  defineTool({
    name: "fire",
    parameters: z.object({ target: z.enum(["boss", "minion"]) }),
    handler: (args) => {
      started.push({ tool: "fire", at: performance.now(), args });
      return "fired";
    },
  }),
]);

/** Yields events with a pause before each, recording when each was yielded. */
async function* scripted(events: StreamEvent[], gapMs: number, log: number[]): AsyncGenerator<StreamEvent> {
  for (const event of events) {
    await Bun.sleep(gapMs);
    log.push(performance.now());
    yield event;
  }
}

const head = (name: string, text: string | null): StreamEvent => ({ head: name, text, done: true });

describe("early dispatch on scripted streams", () => {
  test("starts after the required heads, before the content head; reports late optional args", async () => {
    started = [];
    const audit: AuditEntry[] = [];
    const executor = new ToolExecutor(registry, { onAudit: (e) => audit.push(e) });
    const times: number[] = [];
    const events = [
      head("function", "move"),
      head("arg1", "up"),
      head("arg2", "fast"),
      head("content", "Going up quickly."),
      { call: { function: "move", args: { direction: "up", speed: "fast" }, valid: true, errors: [] } },
    ];
    const outcome = await executor.executeStream(scripted(events, 15, times));
    expect(outcome.result).toMatchObject({ ok: true, value: "moved" });
    expect(outcome.early).toBe(true);
    expect(started[0].args).toEqual({ direction: "up" });
    // Dispatched right after arg1 (the second event), before arg2, content and the call.
    expect(started[0].at).toBeGreaterThanOrEqual(times[1]);
    expect(started[0].at).toBeLessThan(times[2]);
    expect(outcome.headStartMs).toBeGreaterThan(0);
    // Measured from the dispatch (argument parsing included), which lies between arg1 and the handler's start.
    expect(outcome.headStartMs).toBeGreaterThanOrEqual(times[4] - started[0].at - 0.5);
    expect(outcome.headStartMs).toBeLessThanOrEqual(times[4] - times[1] + 0.5);
    expect(outcome.lateArgs).toEqual(["speed"]);
    expect(outcome.consistent).toBe(true);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ source: "stream", tool: "move" });
    expect(audit[0].headStartMs).toBe(outcome.headStartMs);
  });

  test("waitForOptional waits for every parameter head of the chosen tool", async () => {
    started = [];
    const times: number[] = [];
    const events = [
      head("function", "move"),
      head("arg1", "down"),
      head("arg2", null),
      head("content", "ok"),
      { call: { function: "move", args: { direction: "down" }, valid: true, errors: [] } },
    ];
    const outcome = await new ToolExecutor(registry).executeStream(scripted(events, 10, times), {
      waitForOptional: true,
    });
    expect(started[0].at).toBeGreaterThanOrEqual(times[2]);
    expect(outcome.lateArgs).toEqual([]);
    expect(outcome.headStartMs).toBeGreaterThan(0);
  });

  test("no early start for an unknown tool or an invalid required value; the complete call decides", async () => {
    started = [];
    const executor = new ToolExecutor(registry);
    const unknown = await executor.executeStream(
      scripted(
        [head("function", "jump"), { call: { function: null, args: {}, valid: false, errors: [] } }],
        1,
        [],
      ),
    );
    expect(unknown).toMatchObject({ early: false, headStartMs: 0 });
    expect(unknown.result.status).toBe("unknown_tool");
    const invalid = await executor.executeStream(
      scripted(
        [
          head("function", "fire"),
          head("arg1", "tower"),
          {
            call: {
              function: "fire",
              args: {},
              valid: false,
              errors: [{ path: "args.target", message: "bad" }],
            },
          },
        ],
        1,
        [],
      ),
    );
    expect(invalid.early).toBe(false);
    expect(invalid.result.status).toBe("invalid_arguments");
    expect(started).toHaveLength(0);
  });

  test("a stream that fails or ends without a call: no_call, or the dispatched result marked unconfirmed", async () => {
    const executor = new ToolExecutor(registry);
    async function* broken(): AsyncGenerator<StreamEvent> {
      yield head("function", "fire");
      throw new Error("connection reset");
    }
    const failed = await executor.executeStream(broken());
    expect(failed.result.status).toBe("no_call");
    expect(failed.streamError?.message).toBe("connection reset");
    async function* cut(): AsyncGenerator<StreamEvent> {
      yield head("function", "fire");
      yield head("arg1", "boss");
    }
    const unconfirmed = await executor.executeStream(cut());
    expect(unconfirmed).toMatchObject({ early: false, call: null, headStartMs: 0 });
    expect(unconfirmed.result.status).toBe("ok");
  });

  test("a complete call that disagrees with the dispatched one is flagged", async () => {
    const outcome = await new ToolExecutor(registry).executeStream(
      scripted(
        [
          head("function", "fire"),
          head("arg1", "boss"),
          { call: { function: "fire", args: { target: "minion" } } },
        ],
        1,
        [],
      ),
    );
    expect(outcome.consistent).toBe(false);
  });
});

describe("early dispatch on the real-time caller's stream (fixture model)", () => {
  let model: Model<RtoolTokenizer>;
  let caller: RealtimeCaller;
  beforeAll(async () => {
    model = await loadModel(join(import.meta.dir, "../../test/fixtures/qwen3-tied"), { cache: false });
    caller = await createRealtimeCaller(model, { format: "v2" });
  });
  afterAll(async () => {
    await model.dispose();
  });

  test("the handler starts before the last head (content) finishes; head-start is positive", async () => {
    started = [];
    // Short names: the fixture's context is 512 tokens of a byte-level vocabulary.
    const small = new ToolRegistry([
      defineTool({
        name: "go",
        parameters: z.object({ d: z.enum(["u", "d"]), s: z.enum(["a", "b"]).optional() }),
        handler: (args) => started.push({ tool: "go", at: performance.now(), args }),
      }),
      defineTool({
        name: "hit",
        parameters: z.object({ t: z.enum(["x", "y"]) }),
        handler: (args) => started.push({ tool: "hit", at: performance.now(), args }),
      }),
    ]);
    const headTimes = new Map<string, number>();
    async function* timed(): AsyncGenerator<StreamEvent> {
      for await (const event of caller.stream({
        query: "go up",
        tools: small.tools(),
        system: "Game.",
        includeContent: true,
        maxTokens: 16,
      })) {
        if ("head" in event) headTimes.set(event.head, performance.now());
        yield event;
      }
    }
    const outcome = await new ToolExecutor(small).executeStream(timed());
    expect(outcome.result.ok).toBe(true);
    expect(outcome.early).toBe(true);
    expect(outcome.consistent).toBe(true);
    expect(outcome.headStartMs).toBeGreaterThan(0);
    const lastHeadAt = Math.max(...headTimes.values());
    expect(started).toHaveLength(1);
    expect(started[0].at).toBeLessThan(lastHeadAt);
  });
});
