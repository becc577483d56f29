/**
 * The caller on a scripted fake model (heads follow fixed scripts like a trained model would), to
 * check the guarantees that random weights cannot show: a valid unconstrained output is left
 * exactly as it is by the constraints, and forced tokens only save forward passes.
 */
import { describe, expect, test } from "bun:test";
import { PrefixCache } from "../batch/prefix-cache";
import { HashRuntime, ListVocab } from "../decode/testing/hash-runtime";
import { ToolSchemaError } from "../prompt/tools";
import { CallerInputError } from "./errors";
import { createRealtimeCaller } from "./realtime-caller";
import { DEFAULT_COPY_BIAS } from "./types";

const HEADS = ["function", "arg1", "arg2", "arg3", "content"];
const SPECIAL = [...HEADS.flatMap((h) => [`<${h}>`, `</${h}>`]), "<|null|>", "<|im_end|>", "<|im_start|>"];
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const vocab = new ListVocab([...SPECIAL, ...ASCII, "\n", "move", "use_skill", "north", "Amiya", " s2"]);

const tools = [
  {
    type: "function",
    function: {
      name: "move",
      parameters: {
        type: "object",
        properties: {
          unit_id: { type: "string" },
          target: { type: "string", enum: ["north", "south"] },
          speed: { type: "number" },
        },
        required: ["unit_id", "target"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "use_skill",
      parameters: {
        type: "object",
        properties: { unit_id: { type: "string" }, skill_id: { type: "string", enum: ["s1", "s2"] } },
        required: ["unit_id"],
      },
    },
  },
];

/** A fake model whose heads spell `scripts[head]` (text including the stop marker). */
function scriptedModel(scripts: Record<string, string>) {
  const runtime = new HashRuntime(vocab.size);
  for (const [head, text] of Object.entries(scripts))
    runtime.script.set(vocab.id(`<${head}>`), vocab.encode(text));
  return { runtime, tokenizer: vocab };
}

const request = { query: "Amiya go north", tools, system: "Game.", maxTokens: 16 };

describe("constraints leave a valid output alone", () => {
  const scripts = {
    function: "move</function>",
    arg1: "Amiya</arg1>",
    arg2: " north</arg2>",
    arg3: "<|null|>",
  };

  test("unconstrained valid == constrained, head for head; forcing only saves steps", async () => {
    // without prompt-lookup drafts, which save steps of their own (copying "Amiya" and "north")
    const free = await (
      await createRealtimeCaller(scriptedModel(scripts), { format: "v2", constrained: false, draftTokens: 0 })
    ).call(request);
    expect(free).toMatchObject({
      function: "move",
      args: { unit_id: "Amiya", target: "north" },
      valid: true,
      heads: { function: "move", arg1: "Amiya", arg2: " north", arg3: null },
    });
    const noSkip = await (
      await createRealtimeCaller(scriptedModel(scripts), {
        format: "v2",
        skipForcedTokens: false,
        draftTokens: 0,
      })
    ).call(request);
    expect(noSkip.heads).toEqual(free.heads);
    expect(noSkip.timings.steps).toBe(free.timings.steps);
    const constrained = await (
      await createRealtimeCaller(scriptedModel(scripts), { format: "v2", draftTokens: 0 })
    ).call(request);
    expect(constrained.function).toBe(free.function);
    expect(constrained.args).toEqual(free.args);
    expect(constrained.valid).toBe(true);
    expect(constrained.timings.forcedTokens).toBeGreaterThan(0);
    expect(constrained.timings.steps).toBeLessThan(free.timings.steps);
    // drafts change the number of passes only
    const drafted = await (await createRealtimeCaller(scriptedModel(scripts), { format: "v2" })).call(
      request,
    );
    expect(drafted.heads).toEqual(constrained.heads);
    expect(drafted.timings.keptDraftTokens).toBeGreaterThan(0);
    expect(drafted.timings.steps).toBeLessThanOrEqual(constrained.timings.steps);
  });

  test("a two-tool call: the arg head past use_skill's parameters is forced to null", async () => {
    const model = scriptedModel({
      function: "use_skill</function>",
      arg1: "Amiya</arg1>",
      arg2: " s2</arg2>",
    });
    const result = await (await createRealtimeCaller(model, { format: "v2" })).call(request);
    expect(result).toMatchObject({
      function: "use_skill",
      args: { unit_id: "Amiya", skill_id: "s2" },
      valid: true,
    });
    expect(result.heads.arg3).toBeNull();
  });

  test("an invalid script is held to the schema by the constraints", async () => {
    // the model wants an unknown tool and an out-of-enum target
    const scripts = { function: "mover</function>", arg1: "Amiya</arg1>", arg2: " west</arg2>" };
    const free = await (
      await createRealtimeCaller(scriptedModel(scripts), { format: "v2", constrained: false })
    ).call(request);
    expect(free.valid).toBe(false);
    const held = await (await createRealtimeCaller(scriptedModel(scripts), { format: "v2" })).call(request);
    expect(held.function).toBe("move");
    expect(held.args.unit_id).toBe("Amiya");
    expect(["north", "south"]).toContain(held.args.target as string);
  });
});

describe("prefix cache", () => {
  test("callers on one runtime can share one cache", async () => {
    const model = scriptedModel({ function: "move</function>", arg1: "Amiya</arg1>", arg2: " north</arg2>" });
    const cache = new PrefixCache(model.runtime, { maxBytes: 1 << 24 });
    const first = await createRealtimeCaller(model, { format: "v2", prefixCache: cache });
    const second = await createRealtimeCaller(model, { format: "v2", prefixCache: cache });
    const a = await first.call(request);
    const b = await second.call(request);
    expect(a.timings.cachedPrefixTokens).toBe(0);
    expect(b.timings.cachedPrefixTokens).toBe(b.timings.promptTokens);
    expect(b.heads).toEqual(a.heads);
    expect(second.cacheStats()).toEqual(first.cacheStats());
  });

  test("warmUp prefills the system turn, so a call only prefills its user turn", async () => {
    const rt = await createRealtimeCaller(scriptedModel({ function: "move</function>" }), { format: "v2" });
    const { tokens } = await rt.warmUp({ tools, system: "Game." });
    const result = await rt.call(request);
    expect(result.timings.cachedPrefixTokens).toBe(tokens);
    expect(rt.cacheStats()).toMatchObject({ hits: 1, entries: 2 });
  });

  test("prefixCacheBytes 0 turns the cache off", async () => {
    const rt = await createRealtimeCaller(scriptedModel({}), { format: "v2", prefixCacheBytes: 0 });
    await rt.call(request);
    const again = await rt.call(request);
    expect(again.timings.cachedPrefixTokens).toBe(0);
    expect(rt.cacheStats().entries).toBe(0);
  });
});

describe("the format is a field of the request", () => {
  const scripts = { function: "move</function>", arg1: "Amiya</arg1>", arg2: " north</arg2>" };

  test("one caller without a default serves v1 and v2 as a caller per format does", async () => {
    const model = scriptedModel(scripts);
    const both = await createRealtimeCaller(model, {});
    for (const format of ["v1", "v2"] as const) {
      const alone = await (await createRealtimeCaller(scriptedModel(scripts), { format })).call(request);
      const shared = await both.call({ ...request, format });
      expect(shared.heads).toEqual(alone.heads);
      expect(shared.args).toEqual(alone.args);
      expect(shared.timings.promptTokens).toBe(alone.timings.promptTokens);
    }
  });

  test("the request's format wins over the caller's default", async () => {
    const v2 = await createRealtimeCaller(scriptedModel(scripts), { format: "v2" });
    const v1 = await createRealtimeCaller(scriptedModel(scripts), { format: "v1" });
    const asV1 = await v2.call({ ...request, format: "v1" });
    expect(asV1.timings.promptTokens).toBe((await v1.call(request)).timings.promptTokens);
    expect(asV1.timings.promptTokens).not.toBe((await v2.call(request)).timings.promptTokens);
  });

  test("one prefix cache, keyed on tokens, holds both formats' prompts", async () => {
    const rt = await createRealtimeCaller(scriptedModel(scripts), { cacheSystemTurn: true });
    const v1 = await rt.call({ ...request, format: "v1" });
    const v2 = await rt.call({ ...request, format: "v2" });
    // v2 takes nothing of v1's prompt: it reuses just its own system turn, as on a fresh caller
    const fresh = await createRealtimeCaller(scriptedModel(scripts), { format: "v2", cacheSystemTurn: true });
    expect(v2.timings.cachedPrefixTokens).toBe((await fresh.call(request)).timings.cachedPrefixTokens);
    expect(v2.timings.cachedPrefixTokens).toBeLessThan(v2.timings.promptTokens);
    const v1Again = await rt.call({ ...request, format: "v1" });
    const v2Again = await rt.call({ ...request, format: "v2" });
    expect(v1Again.timings.cachedPrefixTokens).toBe(v1.timings.promptTokens);
    expect(v2Again.timings.cachedPrefixTokens).toBe(v2.timings.promptTokens);
    expect(v1Again.heads).toEqual(v1.heads);
    expect(v2Again.heads).toEqual(v2.heads);
    // each format's system turn and full prompt: four entries in the one cache
    expect(rt.cacheStats().entries).toBe(4);
  });

  test("a missing or unknown format is refused, naming the field", async () => {
    const rt = await createRealtimeCaller(scriptedModel(scripts), {});
    for (const format of [undefined, "v3"]) {
      const error = await rt
        .call({ ...request, format: format as "v1" | undefined })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CallerInputError);
      expect((error as CallerInputError).path).toBe("format");
    }
    await expect(rt.warmUp({ tools })).rejects.toBeInstanceOf(CallerInputError);
  });
});

describe("stream", () => {
  test("heads as they finish, the function first, then the call; bad input throws from the iterator", async () => {
    const model = scriptedModel({ function: "move</function>", arg1: "Amiya</arg1>", arg2: " north</arg2>" });
    const rt = await createRealtimeCaller(model, { format: "v2" });
    const events = [];
    for await (const ev of rt.stream(request)) events.push(ev);
    const order = events.map((e) => ("head" in e ? e.head : "call"));
    expect(order[0]).toBe("function");
    expect(order.at(-1)).toBe("call");
    expect(order.slice(1, -1).sort()).toEqual(["arg1", "arg2", "arg3"]);
    expect(events[0]).toEqual({ head: "function", text: "move", done: true });
    const drain = async () => {
      for await (const _ of rt.stream({ ...request, tools: [] })) {
        // no events: the request is refused before decoding
      }
    };
    await expect(drain()).rejects.toBeInstanceOf(ToolSchemaError);
  });
});

describe("caller construction", () => {
  test("a model without a fitting tokenizer is refused with the field named", async () => {
    const runtime = new HashRuntime(vocab.size - 1);
    await expect(createRealtimeCaller({ runtime, tokenizer: vocab }, { format: "v2" })).rejects.toThrow(
      "model.tokenizer",
    );
    const bare = { runtime, tokenizer: undefined } as unknown as Parameters<typeof createRealtimeCaller>[0];
    await expect(createRealtimeCaller(bare, { format: "v2" })).rejects.toThrow("model.tokenizer");
    await expect(
      createRealtimeCaller(scriptedModel({}), { format: "v3" as unknown as "v2" }),
    ).rejects.toThrow("unknown prompt format");
  });
});

test("a bad draftTokens is refused when the caller is made", async () => {
  for (const draftTokens of [-1, 1.5]) {
    const error = await createRealtimeCaller(scriptedModel({ function: "move</function>" }), {
      format: "v2",
      draftTokens,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(CallerInputError);
    expect((error as CallerInputError).message).toContain("draftTokens");
  }
});

test("a bad copyBias is refused when the caller is made; the default nudge is on", async () => {
  for (const copyBias of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
    const error = await createRealtimeCaller(scriptedModel({ function: "move</function>" }), {
      format: "v2",
      copyBias,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(CallerInputError);
    expect((error as CallerInputError).message).toContain("copyBias");
  }
  const caller = await createRealtimeCaller(scriptedModel({ function: "move</function>" }), { format: "v2" });
  expect(caller.copyBias).toBe(DEFAULT_COPY_BIAS);
});
