/**
 * A model-free {@link Caller} for tests of the HTTP layer: it picks the tool named in the query
 * (else the first), fills each parameter with a value of its type, and can take a set time per
 * call so tests can hold calls in flight.
 */
import { type ToolSpec, toToolSpecs } from "@rtool/core";
import type { Caller, CallerEvent, CallerRequest, CallerResult } from "../caller";
import type { LoadedModel } from "../model-host";

/** Options of {@link createScriptedCaller}. */
export interface ScriptedCallerOptions {
  /** Milliseconds each call takes; default 0. */
  delayMs?: number;
  /** Calls wait for this before answering (tests that need calls held in flight). */
  gate?: Promise<void>;
}

function sampleValue(parameter: ToolSpec["parameters"][number], query: string): string {
  if (parameter.enum) return String(parameter.enum[0]);
  if (parameter.type === "number" || parameter.type === "integer") return "1";
  if (parameter.type === "boolean") return "true";
  return query;
}

function decide(request: CallerRequest): CallerResult {
  const tools = toToolSpecs(request.tools);
  const tool = tools.find((t) => request.query.includes(t.name)) ?? tools[0]!;
  const width = Math.max(...tools.map((t) => t.parameters.length));
  const heads: Record<string, string | null> = { function: tool.name };
  const args: Record<string, unknown> = {};
  for (let i = 0; i < width; i++) {
    const parameter = tool.parameters[i];
    heads[`arg${i + 1}`] = parameter ? sampleValue(parameter, request.query) : null;
    if (parameter) {
      const text = heads[`arg${i + 1}`]!;
      args[parameter.name] =
        parameter.type === "number" || parameter.type === "integer"
          ? Number(text)
          : parameter.type === "boolean"
            ? text === "true"
            : text;
    }
  }
  if (request.includeContent) heads.content = `calling ${tool.name}`;
  const steps = 1 + Math.max(0, ...Object.values(heads).map((h) => (h ?? "").length));
  return {
    function: tool.name,
    args,
    heads,
    valid: true,
    errors: [],
    timings: { prefillMs: 0, decodeMs: 0, steps, cachedPrefixTokens: 0, totalMs: 0 },
  };
}

/**
 * A scripted caller.
 *
 * @example
 * ```ts
 * const server = createServer({ model: scriptedModel({ delayMs: 50 }), port: 0 });
 * ```
 */
export function createScriptedCaller(options: ScriptedCallerOptions = {}): Caller & { calls: number } {
  const delay = async () => {
    await options.gate;
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
  };
  let hits = 0;
  const caller = {
    calls: 0,
    async call(request: CallerRequest): Promise<CallerResult> {
      caller.calls++;
      await delay();
      hits++;
      return decide(request);
    },
    async *stream(request: CallerRequest): AsyncIterable<CallerEvent> {
      caller.calls++;
      await delay();
      const result = decide(request);
      for (const [head, text] of Object.entries(result.heads))
        yield { head, text: text ?? "<|null|>", done: true };
      yield { call: result };
    },
    cacheStats: () => ({ hits, misses: 0, evictions: 0, cachedTokens: 0, bytes: 0 }),
  };
  return caller;
}

/** A {@link LoadedModel} whose caller is a scripted one. */
export function scriptedModel(
  options: ScriptedCallerOptions = {},
): LoadedModel & { caller: ReturnType<typeof createScriptedCaller> } {
  const caller = createScriptedCaller(options);
  return { caller, provider: "cpu" };
}
