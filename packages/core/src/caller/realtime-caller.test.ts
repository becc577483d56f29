/**
 * The caller and the multi-head decoder on the random-weight fixtures (real ONNX Runtime):
 * tree-batched heads == each head alone == plain greedy generation, warm == cold, constrained
 * heads valid, bad input typed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { PrefixCache } from "../batch/prefix-cache";
import { buildHeadConstraints } from "../decode/constraints/build";
import { decodeHeads, type HeadPlan } from "../decode/multi-head";
import { TeacherForcedRuntime } from "../decode/testing/forced-runtime";
import { VocabIndex } from "../decode/token-vocab";
import { loadModel } from "../load-model";
import type { Model } from "../model";
import { buildPrompt, systemPrefix } from "../prompt/build";
import { END_OF_TURN, headCloseTag, headNames, headTag, NULL_MARKER } from "../prompt/heads";
import { normalizeTools, type ToolInput, ToolSchemaError } from "../prompt/tools";
import type { RtoolTokenizer } from "../tokenizer";
import { AnswerCache } from "./answer-cache";
import { CallerInputError, PromptTooLongError } from "./errors";
import { type CallStreamEvent, createRealtimeCaller, RealtimeCaller } from "./realtime-caller";

const FIXTURES = join(import.meta.dir, "../../test/fixtures");
const SYSTEM = "Game.";

const fn = (name: string, properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: "function",
  function: { name, parameters: { type: "object", properties, required } },
});

/** Tool sets giving 1 head (no parameters), 3 heads (two) and 8 heads (six, plus content). */
const TOOLS_BY_HEADS: Record<number, { tools: ToolInput[]; includeContent: boolean }> = {
  1: { tools: [fn("jump"), fn("duck")], includeContent: false },
  3: {
    tools: [fn("go", { d: { type: "string" }, v: { type: "number" } }), fn("stop")],
    includeContent: false,
  },
  8: {
    tools: [
      fn("set", {
        a: { type: "string" },
        b: { type: "number" },
        c: { type: "integer" },
        d: { type: "boolean" },
        e: { type: "string", enum: ["x", "y"] },
        f: { type: "string" },
      }),
    ],
    includeContent: true,
  },
};

const ENUM_TOOLS = [
  fn("move", { d: { type: "string", enum: ["up", "down"] }, f: { type: "boolean" } }, ["d"]),
  fn("fire", { n: { type: "integer" } }),
];

for (const fixture of ["qwen3-tied", "qwen2-gqa"]) {
  describe(`multi-head decoding on ${fixture}`, () => {
    let model: Model<RtoolTokenizer>;
    beforeAll(async () => {
      model = await loadModel(join(FIXTURES, fixture), { cache: false });
    });
    afterAll(async () => {
      await model.dispose();
    });

    const plansFor = (heads: number): { plans: HeadPlan[]; promptIds: number[]; systemIds: number[] } => {
      const { tools, includeContent } = TOOLS_BY_HEADS[heads];
      const specs = normalizeTools(tools);
      const argCount = Math.max(0, ...specs.map((t) => t.parameters.length));
      const plans = headNames(argCount, includeContent).map((name) => ({
        name,
        tagIds: model.tokenizer.encode(headTag(name)),
        stops: { value: [headCloseTag(name), END_OF_TURN], null: [NULL_MARKER] },
        constraint: null,
      }));
      const req = { query: "go now", tools: specs, system: SYSTEM };
      const promptIds = model.tokenizer.encode(buildPrompt("v2", req));
      const systemIds = model.tokenizer.encode(systemPrefix("v2", req));
      return { plans, promptIds, systemIds };
    };

    for (const heads of [1, 3, 8]) {
      test(`${heads} heads: batched == alone == greedy generate, cold and warm`, async () => {
        const { plans, promptIds, systemIds } = plansFor(heads);
        expect(plans.length).toBe(heads);
        const runtime = model.runtime;
        const vocab = new VocabIndex(model.tokenizer);
        const base = { runtime, vocab, maxTokens: 8 };
        const cold = await decodeHeads({
          ...base,
          past: runtime.emptyKv(),
          pending: promptIds,
          heads: plans,
        });
        const stopIds = [...plans[0].stops.value, NULL_MARKER].map((m) => model.tokenizer.tokenId(m)!);
        for (let i = 0; i < heads; i++) {
          const alone = await decodeHeads({
            ...base,
            past: runtime.emptyKv(),
            pending: promptIds,
            heads: [plans[i]],
          });
          expect(cold.heads[i].tokenIds).toEqual(alone.heads[0].tokenIds);
          const close = model.tokenizer.tokenId(plans[i].stops.value[0])!;
          const greedy = await model.generate([...promptIds, ...plans[i].tagIds], {
            maxTokens: 8,
            stopTokens: [close, ...stopIds.slice(1)],
          });
          expect(cold.heads[i].tokenIds).toEqual(greedy);
        }
        expect(cold.steps).toBe(Math.max(...cold.heads.map((h) => h.tokenIds.length)));

        const cache = new PrefixCache(runtime, { maxBytes: 1 << 26 });
        cache.insert(promptIds, cold.promptKv!);
        const full = cache.lookup(promptIds);
        expect(full.length).toBe(promptIds.length);
        const warm = await decodeHeads({ ...base, past: full.kv!, pending: [], heads: plans });
        expect(warm.heads.map((h) => h.tokenIds)).toEqual(cold.heads.map((h) => h.tokenIds));
        const partial = cache.lookup(systemIds);
        expect(partial.length).toBe(systemIds.length);
        const half = await decodeHeads({
          ...base,
          past: partial.kv!,
          pending: promptIds.slice(systemIds.length),
          heads: plans,
        });
        expect(half.heads.map((h) => h.tokenIds)).toEqual(cold.heads.map((h) => h.tokenIds));
      });
    }

    test("the caller: warm results equal cold results, and the cache is reused", async () => {
      const { tools, includeContent } = TOOLS_BY_HEADS[8];
      const request = { query: "go now", tools, system: SYSTEM, maxTokens: 8, includeContent };
      const rt = await createRealtimeCaller(model, { format: "v2", constrained: false });
      const cold = await rt.call(request);
      const warm = await rt.call(request);
      expect(warm.heads).toEqual(cold.heads);
      expect(warm.timings.cachedPrefixTokens).toBe(warm.timings.promptTokens);
      expect(warm.timings.prefilledTokens).toBe(0);
      // another query shares the system turn
      const other = await rt.call({ ...request, query: "stay" });
      expect(other.timings.cachedPrefixTokens).toBeGreaterThan(0);
      // each prompt token is reused or prefilled; the passes fed the prefill and the heads' tokens
      for (const t of [cold.timings, warm.timings, other.timings]) {
        expect(t.prefilledTokens + t.cachedPrefixTokens).toBe(t.promptTokens);
        expect(t.fedTokens).toBeGreaterThan(t.prefilledTokens);
      }
      // the same heads from a cold and a warm prompt: the difference is the prefill alone
      expect(cold.timings.fedTokens - cold.timings.prefilledTokens).toBe(warm.timings.fedTokens);
      const fresh = await (await createRealtimeCaller(model, { format: "v2", constrained: false })).call({
        ...request,
        query: "stay",
      });
      expect(other.heads).toEqual(fresh.heads);
      expect(rt.cacheStats()).toMatchObject({ hits: 2, misses: 1 });
    });

    test("constrained function and enum heads are always valid", async () => {
      const rt = await createRealtimeCaller(model, { format: "v2" });
      const specs = normalizeTools(ENUM_TOOLS);
      for (const query of ["a", "go up", "shoot 3", "be calm", "left!", "??", "x y z", "now"]) {
        const result = await rt.call({ query, tools: ENUM_TOOLS, system: SYSTEM, maxTokens: 6 });
        const tool = specs.find((t) => t.name === result.function);
        expect(tool).toBeDefined();
        for (const parameter of tool!.parameters) {
          const value = result.args[parameter.name];
          if (parameter.enum) expect(parameter.enum).toContain(value as string);
          if (parameter.type === "boolean" && value !== undefined) expect(typeof value).toBe("boolean");
          if (parameter.enum && parameter.required) expect(value).toBeDefined();
        }
        expect(result.errors.filter((e) => e.path === "function")).toEqual([]);
      }
      // the constraints the caller applies are the prompt engineer's, narrowed once the function is known
      expect(buildHeadConstraints(specs, "fire").arg2?.kind).toBe("null");
    });

    test("normalized ToolSpecs (a registry's specs()) are served like the raw tools", async () => {
      const rt = await createRealtimeCaller(model, { format: "v2" });
      const raw = await rt.call({ query: "go up", tools: ENUM_TOOLS, system: SYSTEM, maxTokens: 6 });
      const specs = await rt.call({
        query: "go up",
        tools: normalizeTools(ENUM_TOOLS),
        system: SYSTEM,
        maxTokens: 6,
      });
      expect(specs.heads).toEqual(raw.heads);
      expect(specs.args).toEqual(raw.args);
    });

    test("teacher-forced to a valid call: constrained output == unconstrained output", async () => {
      const request = { query: "go up", tools: ENUM_TOOLS, system: SYSTEM, maxTokens: 8 };
      const promptIds = model.tokenizer.encode(
        buildPrompt("v2", { ...request, tools: normalizeTools(ENUM_TOOLS) }),
      );
      const scripts = [
        ["function", "move</function>"],
        ["arg1", "up</arg1>"],
        ["arg2", " true</arg2>"],
      ].map(([head, text]) => ({
        tagIds: model.tokenizer.encode(`<${head}>`),
        continuation: model.tokenizer.encode(text),
      }));
      const callWith = async (options: { constrained: boolean; skipForcedTokens?: boolean }) => {
        const runtime = new TeacherForcedRuntime(model.runtime);
        runtime.expect(promptIds.length, scripts);
        const rt = await createRealtimeCaller(
          { runtime, tokenizer: model.tokenizer },
          { format: "v2", ...options },
        );
        return rt.call(request);
      };
      const free = await callWith({ constrained: false });
      expect(free).toMatchObject({ function: "move", args: { d: "up", f: true }, valid: true });
      const held = await callWith({ constrained: true, skipForcedTokens: false });
      expect(held.heads).toEqual(free.heads);
      const fast = await callWith({ constrained: true });
      expect([fast.function, fast.args, fast.valid]).toEqual([free.function, free.args, true]);
      expect(fast.timings.steps).toBeLessThan(free.timings.steps);
    });

    test("stream: each head once, then the call", async () => {
      const rt = await createRealtimeCaller(model, { format: "v2" });
      const events: CallStreamEvent[] = [];
      for await (const ev of rt.stream({ query: "go up", tools: ENUM_TOOLS, system: SYSTEM, maxTokens: 6 })) {
        events.push(ev);
      }
      const last = events.at(-1)!;
      expect("call" in last).toBe(true);
      const headEvents = events.slice(0, -1) as { head: string; text: string | null; done: true }[];
      expect(headEvents[0].head).toBe("function");
      expect(headEvents.map((e) => e.head).sort()).toEqual(["arg1", "arg2", "function"]);
      const call = (last as { call: { heads: Record<string, string | null> } }).call;
      for (const ev of headEvents) expect(call.heads[ev.head]).toBe(ev.text);
    });

    test("answerCache: a repeated greedy call gets the decoded answer without a pass", async () => {
      const answers = new AnswerCache(8);
      const rt = await createRealtimeCaller(model, { format: "v2", answerCache: answers });
      const request = { query: "go up", tools: ENUM_TOOLS, system: SYSTEM, maxTokens: 6 };
      const first = await rt.call(request);
      expect(first.timings.answerCached).toBe(false);
      expect(first.timings.steps).toBeGreaterThan(0);
      const again = await rt.call(request);
      expect(again.timings).toMatchObject({ answerCached: true, steps: 0, prefilledTokens: 0, fedTokens: 0 });
      expect(again.timings.promptTokens).toBe(first.timings.promptTokens);
      const { timings: _a, ...firstCall } = first;
      const { timings: _b, ...againCall } = again;
      expect(againCall).toEqual(firstCall);
      // the same as decoding again without the cache
      const plain = await (await createRealtimeCaller(model, { format: "v2" })).call(request);
      expect(again.heads).toEqual(plain.heads);
      // a stream replays the heads, then the call
      const events: CallStreamEvent[] = [];
      for await (const ev of rt.stream(request)) events.push(ev);
      const heads = events.slice(0, -1) as { head: string; text: string | null }[];
      expect(heads.map((e) => e.head).sort()).toEqual(Object.keys(first.heads).sort());
      for (const ev of heads) expect(first.heads[ev.head as keyof typeof first.heads]).toBe(ev.text);
      expect(
        (events.at(-1) as { call: { timings: { answerCached: boolean } } }).call.timings.answerCached,
      ).toBe(true);
      // another prompt, other settings or sampling: decoded
      expect((await rt.call({ ...request, query: "go down" })).timings.answerCached).toBe(false);
      expect((await rt.call({ ...request, maxTokens: 5 })).timings.answerCached).toBe(false);
      expect((await rt.call({ ...request, temperature: 0.7 })).timings.answerCached).toBe(false);
      expect(answers.stats()).toMatchObject({ hits: 2, entries: 3 });
    });

    test("concurrent calls on one caller give the results of sequential calls", async () => {
      const rt = await createRealtimeCaller(model, { format: "v2" });
      const queries = ["go up", "fire", "calm down"];
      const together = await Promise.all(
        queries.map((query) => rt.call({ query, tools: ENUM_TOOLS, system: SYSTEM, maxTokens: 6 })),
      );
      const seq = await createRealtimeCaller(model, { format: "v2" });
      for (let i = 0; i < queries.length; i++) {
        const alone = await seq.call({ query: queries[i], tools: ENUM_TOOLS, system: SYSTEM, maxTokens: 6 });
        expect(together[i].heads).toEqual(alone.heads);
      }
    });

    test("cacheSystemTurn: callers sharing a cache prefill the system turn once, same results", async () => {
      const cache = new PrefixCache(model.runtime, { maxBytes: 64 << 20 });
      let steps = 0;
      const runtime = new Proxy(model.runtime, {
        get(target, key) {
          if (key === "step")
            return (input: Parameters<typeof target.step>[0]) => {
              steps++;
              return target.step(input);
            };
          const value = Reflect.get(target, key);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const callers = [0, 1, 2].map(
        () =>
          new RealtimeCaller(
            { runtime, tokenizer: model.tokenizer },
            { format: "v2", prefixCache: cache, cacheSystemTurn: true },
          ),
      );
      const queries = ["go up", "fire", "calm down"];
      const request = (query: string) => ({ query, tools: ENUM_TOOLS, system: SYSTEM, maxTokens: 6 });
      const results = await Promise.all(callers.map((rt, i) => rt.call(request(queries[i]!))));
      const systemIds = model.tokenizer.encode(
        systemPrefix("v2", { tools: normalizeTools(ENUM_TOOLS), system: SYSTEM }),
      );
      expect(cache.holds(systemIds)).toBe(true);
      const callSteps = results.reduce((sum, r) => sum + r.timings.steps, 0);
      expect(steps).toBe(callSteps + 1);
      for (const r of results) expect(r.timings.cachedPrefixTokens).toBeGreaterThanOrEqual(systemIds.length);
      const plain = await createRealtimeCaller(model, { format: "v2" });
      for (let i = 0; i < queries.length; i++) {
        expect(results[i]!.heads).toEqual((await plain.call(request(queries[i]!))).heads);
      }
    });

    test("bad input: typed errors with a path, no crash", async () => {
      const rt = await createRealtimeCaller(model, { format: "v2" });
      const call = (request: Record<string, unknown>) =>
        rt.call({ query: "go", tools: ENUM_TOOLS, ...request } as Parameters<typeof rt.call>[0]);
      const seven = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`p${i}`, { type: "string" }]));
      const cases: [Record<string, unknown>, new (...args: never[]) => Error, string][] = [
        [{ tools: [] }, ToolSchemaError, "tools"],
        [{ tools: [fn("a"), fn("a")] }, ToolSchemaError, "tools[1]"],
        [{ tools: [fn("a", seven)] }, ToolSchemaError, "tools[0]"],
        [
          { tools: [{ type: "function", function: { name: "a", parameters: { type: "array" } } }] },
          ToolSchemaError,
          "tools[0]",
        ],
        [{ query: "go ".repeat(400) }, PromptTooLongError, "query"],
        [{ maxTokens: 0 }, CallerInputError, "maxTokens"],
        [{ temperature: -1 }, CallerInputError, "temperature"],
        [{ query: 42 }, CallerInputError, "query"],
        [{ history: ["ok", 3] }, CallerInputError, "history[1]"],
      ];
      for (const [request, type, path] of cases) {
        const error = await call(request).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(type);
        expect((error as { path: string }).path.startsWith(path)).toBe(true);
      }
      // the caller still works afterwards
      expect((await call({ maxTokens: 4 })).function).not.toBeNull();
    });
  });
}
