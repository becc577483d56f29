/**
 * The three engines of the peer benchmark behind one shape: prepare a scenario (its system prefix
 * warm), then time one call to the scenario's expected call. Every engine is teacher-forced to
 * that call (random weights spell nothing; rt-tiny was trained on heads, not JSON): each step is
 * the engine's real forward pass and token choice, the forcing only raises the scripted token.
 */
import { createRealtimeCaller } from "../../packages/core/src/caller/realtime-caller";
import { TeacherForcedRuntime } from "../../packages/core/src/decode/testing/forced-runtime";
import type { Model } from "../../packages/core/src/model";
import type { RtoolTokenizer } from "../../packages/core/src/tokenizer";
import { callJson, callJsonIds, callSchema, headScripts, type PeerCase, promptOf } from "./peer-scenarios";

/** One timed call. */
export interface PeerMeasure {
  call_ms: number;
  prefill_ms: number;
  decode_ms: number;
  /** Forward passes after the prefill (sequential decode steps). */
  tokens: number;
  /** The engine produced the expected call, complete and valid. */
  valid: boolean;
}

/** An engine at one quantization, loaded. */
export interface PeerEngine {
  readonly engine: "rtool" | "transformers_js" | "llama_cpp";
  readonly quant: string;
  /** Intra-op threads the engine runs with. */
  readonly threads: number;
  /** Untimed: brings the scenario's system prefix into the engine's cache. */
  prepare(c: PeerCase): Promise<void>;
  /** One call from a warm system prefix. */
  measure(c: PeerCase): Promise<PeerMeasure>;
  dispose(): Promise<void>;
}

const sameArgs = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  Object.entries(b).every(([k, v]) => (v === null ? a[k] === undefined || a[k] === null : a[k] === v));

/** rtool: `createRealtimeCaller` (/v2, constrained), a fresh prefix cache warmed with the system turn per call. */
export function rtoolEngine(model: Model<RtoolTokenizer>, quant: string, threads: number): PeerEngine {
  const forced = new TeacherForcedRuntime(model.runtime);
  const callerModel = { runtime: forced, tokenizer: model.tokenizer };
  return {
    engine: "rtool",
    quant,
    threads,
    async prepare(c) {
      // one untimed call: sessions allocate and prepack on first use
      await this.measure(c);
    },
    async measure(c) {
      const caller = await createRealtimeCaller(callerModel, { format: "v2" });
      await caller.warmUp({ tools: c.request.tools, system: c.request.system });
      forced.expect(promptOf(c, model.tokenizer).ids.length, headScripts(c, model.tokenizer));
      const started = performance.now();
      const result = await caller.call(c.request);
      const callMs = performance.now() - started;
      return {
        call_ms: callMs,
        prefill_ms: result.timings.prefillMs,
        decode_ms: result.timings.decodeMs,
        tokens: result.timings.steps - 1,
        valid: result.valid && result.function === c.call.name && sameArgs(result.args, c.call.args),
      };
    },
    dispose: () => model.dispose(),
  };
}

/** Whether `text` is the expected call as JSON. */
function isExpectedJson(text: string, c: PeerCase): boolean {
  try {
    const parsed = JSON.parse(text) as { name?: string; arguments?: Record<string, unknown> };
    return parsed.name === c.call.name && sameArgs(parsed.arguments ?? {}, c.call.args);
  } catch {
    return false;
  }
}

type Tjs = typeof import("@huggingface/transformers");

/**
 * transformers.js: `generate` greedy from the same prompt ids, the system prefix's KV passed as
 * `past_key_values` (a copy per call, since generate updates the cache in place).
 */
export async function transformersJsEngine(
  dir: string,
  dtype: "fp32" | "q8" | "q4",
  tokenizer: RtoolTokenizer,
  threads: number,
): Promise<PeerEngine> {
  const tjs: Tjs = await import("@huggingface/transformers").catch((error: unknown) => {
    throw new Error(
      `transformers.js is not installed (the peer engines are optional: bun run peers:install): ${error}`,
    );
  });
  const { AutoModelForCausalLM, env, Tensor, DynamicCache, LogitsProcessor, LogitsProcessorList } = tjs;
  env.allowRemoteModels = false;
  const { dirname, basename } = await import("node:path");
  env.localModelPath = dirname(dir);
  const model = await AutoModelForCausalLM.from_pretrained(basename(dir), {
    dtype,
    device: "cpu",
    session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 },
  });
  const ids64 = (ids: number[]) => new Tensor("int64", BigInt64Array.from(ids, BigInt), [1, ids.length]);
  const ones = (n: number) => new Tensor("int64", new BigInt64Array(n).fill(1n), [1, n]);
  const prefixes = new Map<string, Record<string, unknown>>();

  /** Lifts the scripted token far above the rest and notes when each step's logits arrived. */
  class ForcedTokens extends LogitsProcessor {
    readonly stamps: number[] = [];
    constructor(private readonly script: number[]) {
      super();
    }
    override _call(_inputIds: bigint[][], logits: InstanceType<Tjs["Tensor"]>): InstanceType<Tjs["Tensor"]> {
      this.stamps.push(performance.now());
      // batch 1: the logits are [1, vocab]
      const next = this.script[Math.min(this.stamps.length - 1, this.script.length - 1)];
      (logits.data as Float32Array)[next] = 1e9;
      return logits;
    }
  }

  const engine: PeerEngine = {
    engine: "transformers_js",
    quant: dtype,
    threads,
    async prepare(c) {
      const { ids, prefixLength } = promptOf(c, tokenizer);
      const out = (await model.generate({
        inputs: ids64(ids.slice(0, prefixLength)),
        attention_mask: ones(prefixLength),
        max_new_tokens: 1,
        do_sample: false,
        return_dict_in_generate: true,
      } as never)) as { past_key_values: Record<string, unknown> };
      prefixes.set(c.scenario, { ...out.past_key_values });
      await engine.measure(c);
    },
    async measure(c) {
      const { ids } = promptOf(c, tokenizer);
      const script = callJsonIds(c, tokenizer);
      const forced = new ForcedTokens(script);
      const processors = new LogitsProcessorList();
      processors.push(forced);
      const prefix = prefixes.get(c.scenario);
      const started = performance.now();
      const output = (await model.generate({
        inputs: ids64(ids),
        attention_mask: ones(ids.length),
        past_key_values: prefix ? new DynamicCache(prefix as never) : undefined,
        max_new_tokens: script.length,
        do_sample: false,
        eos_token_id: [],
        logits_processor: processors,
      } as never)) as { tolist(): bigint[][] };
      const callMs = performance.now() - started;
      const produced = output.tolist()[0].slice(ids.length).map(Number);
      const firstStamp = forced.stamps[0] ?? started;
      return {
        call_ms: callMs,
        prefill_ms: firstStamp - started,
        decode_ms: callMs - (firstStamp - started),
        tokens: produced.length - 1,
        valid: isExpectedJson(tokenizer.decode(produced), c),
      };
    },
    async dispose() {
      await model.dispose();
    },
  };
  return engine;
}

type NodeLlama = typeof import("node-llama-cpp");
type Llama = Awaited<ReturnType<NodeLlama["getLlama"]>>;

/** node-llama-cpp's library, or why it cannot load here. */
export async function loadLlama(): Promise<{ lib: NodeLlama; llama: Llama } | string> {
  try {
    const lib = await import("node-llama-cpp");
    const llama = await lib.getLlama({ gpu: false, build: "never", logLevel: lib.LlamaLogLevel.error });
    return { lib, llama };
  } catch (error) {
    return `${error instanceof Error ? error.message : String(error)} (the peer engines are optional: bun run peers:install)`;
  }
}

type LlamaModel = Awaited<ReturnType<Llama["loadModel"]>>;

/**
 * llama.cpp's threads spin at barriers: on a machine whose cores are shared with other work, all
 * cores can be many times slower than one. Ten greedy tokens at `threads` and at 1 pick the
 * faster, so the peer runs at its best setting here.
 */
async function fasterThreads(model: LlamaModel, threads: number): Promise<number> {
  if (threads <= 1) return 1;
  const perToken: number[] = [];
  for (const n of [threads, 1]) {
    const context = await model.createContext({ contextSize: 256, threads: n });
    const started = performance.now();
    let count = 0;
    for await (const _ of context.getSequence().evaluate([1, 2, 3] as never, { temperature: 0 })) {
      if (++count >= 10) break;
    }
    perToken.push((performance.now() - started) / count);
    await context.dispose();
  }
  return perToken[0] <= perToken[1] ? threads : 1;
}

/**
 * llama.cpp through node-llama-cpp: one context sequence holding the system prefix; each call
 * erases back to it, evaluates the rest of the prompt and samples greedily under the tools'
 * JSON-schema grammar until the call's JSON is complete.
 */
export async function llamaCppEngine(
  loaded: { lib: NodeLlama; llama: Llama },
  ggufPath: string,
  quant: string,
  tokenizer: RtoolTokenizer,
  threads: number,
): Promise<PeerEngine> {
  const { lib, llama } = loaded;
  const model = await llama.loadModel({ modelPath: ggufPath });
  const chosenThreads = await fasterThreads(model, threads);
  const context = await model.createContext({ contextSize: 4096, threads: chosenThreads, batchSize: 512 });
  const sequence = context.getSequence();
  const grammars = new Map<string, InstanceType<NodeLlama["LlamaJsonSchemaGrammar"]>>();
  const erase = async (from: number) => {
    if (sequence.nextTokenIndex > from)
      await sequence.eraseContextTokenRanges([{ start: from, end: sequence.nextTokenIndex }]);
  };
  const engine: PeerEngine = {
    engine: "llama_cpp",
    quant,
    threads: chosenThreads,
    async prepare(c) {
      const { ids, prefixLength } = promptOf(c, tokenizer);
      grammars.set(c.scenario, await llama.createGrammarForJsonSchema(callSchema(c.specs) as never));
      await erase(0);
      await sequence.evaluateWithoutGeneratingNewTokens(ids.slice(0, prefixLength) as never);
      await engine.measure(c);
    },
    async measure(c) {
      const { ids, prefixLength } = promptOf(c, tokenizer);
      const script = callJsonIds(c, tokenizer);
      const grammar = grammars.get(c.scenario)!;
      await erase(prefixLength);
      const started = performance.now();
      let firstAt = 0;
      const produced: number[] = [];
      const bias = () => {
        const b = new lib.TokenBias(model.tokenizer);
        const next = script[Math.min(produced.length, script.length - 1)];
        b.set(next as never, { logit: 1e4 });
        return b;
      };
      const state = new lib.LlamaGrammarEvaluationState({ model, grammar });
      for await (const token of sequence.evaluate(ids.slice(prefixLength) as never, {
        temperature: 0,
        grammarEvaluationState: state,
        tokenBias: bias,
      })) {
        if (produced.length === 0) firstAt = performance.now();
        produced.push(Number(token));
        if (produced.length >= script.length) break;
      }
      const callMs = performance.now() - started;
      const text = tokenizer.decode(produced);
      return {
        call_ms: callMs,
        prefill_ms: firstAt - started,
        decode_ms: callMs - (firstAt - started),
        tokens: produced.length - 1,
        valid: text === callJson(c) && isExpectedJson(text, c),
      };
    },
    async dispose() {
      await context.dispose();
      await model.dispose();
    },
  };
  return engine;
}
