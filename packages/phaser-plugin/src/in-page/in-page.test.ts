/**
 * The in-page engine's page and worker sides joined by a MessageChannel (what a Worker is made
 * of), with a scripted core in place of the model: the transport contract the client relies on
 * (replies, streamed heads, aborts that leave the worker's queue, refused requests, load failure).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { AgentClient } from "../client";
import { RequestRejectedError, ServerUnavailableError } from "../transport";
import { inPageEngine, type WorkerLike } from "./in-page-engine";
import type { CoreCallerOptions, CoreCallRequest, CoreCallResult, InPageCore } from "./protocol";
import { serveInPageWorker, type WorkerScope } from "./worker-host";

const moveTool = {
  name: "move",
  parameters: {
    type: "object" as const,
    properties: { direction: { type: "string" as const, enum: ["up", "down"] } },
    required: ["direction"],
  },
};
const tools = [{ type: "function" as const, function: moveTool }];

/** A core whose caller answers `move(direction)` from the query's last word, after `delayMs`. */
function scriptedCore(
  options: { delayMs?: number; loadError?: string; withLanes?: boolean; withAnswerCache?: boolean } = {},
) {
  const decoded: string[] = [];
  /** The options each caller was made with, and the answer caches made. */
  const callerOptions: CoreCallerOptions[] = [];
  const answerCaches: { entries: number }[] = [];
  const formats: string[] = [];
  let callers = 0;
  /** Calls decoding now, and the most at once. */
  const concurrency = { now: 0, most: 0 };
  const result = (request: CoreCallRequest): CoreCallResult => {
    decoded.push(request.query);
    formats.push(request.format);
    if (request.query === "bad") throw Object.assign(new Error("tools[0]: bad"), { name: "ToolSchemaError" });
    const direction = request.query.split(" ").pop()!;
    return {
      function: "move",
      args: { direction },
      heads: { function: "move", arg1: direction },
      valid: true,
      errors: [],
      timings: { prefillMs: 2, decodeMs: 1, steps: 2, cachedPrefixTokens: 30, totalMs: 3.5, forwardMs: 2.5 },
    };
  };
  const wait = async () => {
    concurrency.most = Math.max(concurrency.most, ++concurrency.now);
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
    concurrency.now--;
  };
  const caller = () => ({
    call: async (request: CoreCallRequest) => {
      await wait();
      return result(request);
    },
    async *stream(request: CoreCallRequest) {
      await wait();
      const call = result(request);
      for (const [head, text] of Object.entries(call.heads))
        yield { head, text: text ?? null, done: true as const };
      yield { call };
    },
  });
  const core: InPageCore = {
    async loadWebModel() {
      if (options.loadError) throw new Error(options.loadError);
      return {
        model: {},
        timings: { fetchMs: 1, buildGraphMs: 2, createSessionMs: 3, totalMs: 6, graphFromCache: true },
        wasm: { requested: 4, numThreads: 4, crossOriginIsolated: true, note: null },
      };
    },
    async createRealtimeCaller(_model: never, made: CoreCallerOptions) {
      callers++;
      callerOptions.push(made);
      return caller();
    },
    ...(options.withLanes
      ? {
          createCallerLanes: (_model: never, lanes: number, made: CoreCallerOptions) => {
            callers += lanes;
            for (let i = 0; i < lanes; i++) callerOptions.push(made);
            return Array.from({ length: lanes }, caller);
          },
        }
      : {}),
    ...(options.withAnswerCache
      ? {
          AnswerCache: class {
            constructor(readonly entries: number) {
              answerCaches.push(this);
            }
          },
        }
      : {}),
  };
  return { core, decoded, formats, concurrency, callers: () => callers, callerOptions, answerCaches };
}

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

/** The engine and a worker host on the two ends of one channel. */
function connect(core: InPageCore, stream = true, lanes?: number, answerCache?: number) {
  const channel = new MessageChannel();
  channels.push(channel);
  serveInPageWorker(channel.port2 as unknown as WorkerScope, core);
  channel.port2.start();
  const engine = inPageEngine({
    worker: channel.port1 as unknown as WorkerLike,
    modelUrl: "/m/",
    stream,
    ...(lanes ? { lanes } : {}),
    ...(answerCache !== undefined ? { answerCache } : {}),
  });
  channel.port1.start();
  return engine;
}

describe("in-page engine", () => {
  test("loads, then answers a command through the client with head events first", async () => {
    const { core } = scriptedCore();
    const engine = connect(core);
    expect(engine.threads).toBeNull();
    expect(await engine.ready).toMatchObject({ totalMs: 6, graphFromCache: true });
    expect(engine.threads).toMatchObject({ numThreads: 4, crossOriginIsolated: true });
    const client = new AgentClient({ transport: engine.transport });
    const moved: string[] = [];
    const heads: string[] = [];
    const timings: unknown[] = [];
    client.on("head", (h) => heads.push(`${h.head}=${h.text}`));
    client.on("call", (c) => timings.push(c.timings));
    client.tool(moveTool, ({ direction }) => void moved.push(direction as string));
    const outcome = await client.command("go up");
    expect(outcome).toEqual({ ok: true, function: "move", args: { direction: "up" } });
    expect(moved).toEqual(["up"]);
    expect(heads).toEqual(["function=move", "arg1=up"]);
    // the engine's stages in the server's reply shape
    expect(timings).toEqual([
      expect.objectContaining({
        prefill_ms: 2,
        forward_ms: 2.5,
        steps: 2,
        cached_prefix_tokens: 30,
        prompt_tokens: 0,
      }),
    ]);
    expect((timings[0] as { queue_ms: number }).queue_ms).toBeGreaterThanOrEqual(0);
    expect(client.status).toBe("online");
    client.destroy();
  });

  test("an aborted request leaves the worker's queue undecoded (latest wins)", async () => {
    const { core, decoded } = scriptedCore({ delayMs: 30 });
    const { transport } = connect(core, false);
    const first = transport.send({ format: "v2", query: "go up", tools });
    const controller = new AbortController();
    const second = transport.send({ format: "v2", query: "go down", tools }, { signal: controller.signal });
    const third = transport.send({ format: "v2", query: "go up", tools });
    controller.abort();
    await expect(second).rejects.toMatchObject({ name: "AbortError" });
    expect((await first).function).toBe("move");
    expect((await third).args).toEqual({ direction: "up" });
    expect(decoded).toEqual(["go up", "go up"]);
  });

  test("calls decode on lanes at once; calls beyond the free lanes queue, and leave it when cancelled", async () => {
    const { core, decoded, concurrency, callers } = scriptedCore({ delayMs: 30, withLanes: true });
    const { transport } = connect(core, false, 2);
    const controller = new AbortController();
    const sent = [
      transport.send({ format: "v2", query: "ship up", tools }),
      transport.send({ format: "v2", query: "ship down", tools }),
      transport.send({ format: "v2", query: "late down", tools }, { signal: controller.signal }),
      transport.send({ format: "v2", query: "squad up", tools }),
    ];
    controller.abort();
    await expect(sent[2]!).rejects.toMatchObject({ name: "AbortError" });
    await Promise.all([sent[0], sent[1], sent[3]]);
    expect(callers()).toBe(2);
    expect(concurrency.most).toBe(2);
    expect(decoded).toEqual(["ship up", "ship down", "squad up"]);
  });

  test("lanes: 1 decodes one call at a time", async () => {
    const { core, concurrency, callers } = scriptedCore({ delayMs: 10, withLanes: true });
    const { transport } = connect(core, false, 1);
    await Promise.all(["a up", "b down"].map((query) => transport.send({ format: "v2", query, tools })));
    expect(callers()).toBe(1);
    expect(concurrency.most).toBe(1);
  });

  test("the lanes share one answer cache of 256 entries; answerCache: 0 (or a core without one) makes none", async () => {
    const shared = scriptedCore({ withLanes: true, withAnswerCache: true });
    await connect(shared.core, false, 2).transport.send({ format: "v2", query: "go up", tools });
    expect(shared.answerCaches.map((c) => c.entries)).toEqual([256]);
    expect(shared.callerOptions).toHaveLength(2);
    for (const made of shared.callerOptions) {
      expect(made.cacheSystemTurn).toBe(true);
      expect(made.answerCache as unknown).toBe(shared.answerCaches[0]);
    }
    const off = scriptedCore({ withLanes: true, withAnswerCache: true });
    await connect(off.core, false, 2, 0).transport.send({ format: "v2", query: "go up", tools });
    expect(off.answerCaches).toEqual([]);
    expect(off.callerOptions.every((made) => made.answerCache === undefined)).toBe(true);
    const older = scriptedCore();
    await connect(older.core, false).transport.send({ format: "v2", query: "go up", tools });
    expect(older.callerOptions[0]!.answerCache).toBeUndefined();
  });

  test("one caller serves both formats, each request carrying its own", async () => {
    const { core, formats, callers } = scriptedCore();
    const { transport } = connect(core, false);
    await transport.send({ format: "v1", query: "go up", tools });
    await transport.send({ format: "v2", query: "go down", tools });
    await transport.send({ format: "v1", query: "go up", tools });
    expect(formats).toEqual(["v1", "v2", "v1"]);
    expect(callers()).toBe(1);
  });

  test("workers: a call goes to the copy that decoded it last, else the least busy; a cancel reaches its copy", async () => {
    const copies = [scriptedCore({ delayMs: 30 }), scriptedCore({ delayMs: 30 })];
    const ports = copies.map(({ core }) => {
      const channel = new MessageChannel();
      channels.push(channel);
      serveInPageWorker(channel.port2 as unknown as WorkerScope, core);
      channel.port2.start();
      return channel.port1;
    });
    const engine = inPageEngine({ worker: ports as unknown as WorkerLike[], modelUrl: "/m/", stream: false });
    for (const port of ports) port.start();
    expect(engine.workers).toBe(2);
    expect(await engine.ready).toMatchObject({ totalMs: 6 });
    const controller = new AbortController();
    const sent = [
      engine.transport.send({ format: "v2", query: "a up", tools }),
      engine.transport.send({ format: "v2", query: "b down", tools }),
      engine.transport.send({ format: "v2", query: "c up", tools }),
      engine.transport.send({ format: "v2", query: "d down", tools }, { signal: controller.signal }),
    ];
    controller.abort();
    await expect(sent[3]!).rejects.toMatchObject({ name: "AbortError" });
    await Promise.all(sent.slice(0, 3));
    expect(copies.map((c) => c.decoded)).toEqual([["a up", "c up"], ["b down"]]);
    // with the second copy free again, the next call goes to the first (the first of equals)
    await engine.transport.send({ format: "v2", query: "e up", tools });
    expect(copies[0]!.decoded.at(-1)).toBe("e up");
    // a request repeated exactly goes back to the copy that decoded it (its answer cache), busy or not
    const busy = engine.transport.send({ format: "v2", query: "f up", tools });
    await engine.transport.send({ format: "v2", query: "b down", tools });
    await busy;
    expect(copies.map((c) => c.decoded)).toEqual([
      ["a up", "c up", "e up", "f up"],
      ["b down", "b down"],
    ]);
    engine.terminate();
  });

  test("workers: a count that is not a whole number, or copies of one given worker, is refused", () => {
    const { port1 } = new MessageChannel();
    const one = port1 as unknown as WorkerLike;
    expect(() => inPageEngine({ worker: one, workers: 2, modelUrl: "/m/" })).toThrow(RangeError);
    expect(() => inPageEngine({ worker: one, workers: 0, modelUrl: "/m/" })).toThrow("workers: 0");
    expect(() => inPageEngine({ worker: [], modelUrl: "/m/" })).toThrow("empty list");
    port1.close();
  });

  test("a wrong request is refused; a model that cannot load makes calls unavailable", async () => {
    const { transport } = connect(scriptedCore().core);
    const refused = transport.send({ format: "v2", query: "bad", tools });
    await expect(refused).rejects.toBeInstanceOf(RequestRejectedError);
    const broken = connect(scriptedCore({ loadError: "HTTP 404" }).core);
    await expect(broken.ready).rejects.toThrow("HTTP 404");
    const failed = broken.transport.send({ format: "v2", query: "go up", tools });
    await expect(failed).rejects.toBeInstanceOf(ServerUnavailableError);
    await expect(failed).rejects.toThrow("HTTP 404");
  });
});
