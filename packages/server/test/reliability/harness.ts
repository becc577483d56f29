/**
 * Shared pieces of the reliability suite: a real server on 127.0.0.1 over the qwen3-tied fixture
 * (random weights, real tokenizer and decoding) whose forward passes take a set time, so tests
 * can hold work in flight and abandon it. `RTOOL_RELIABILITY=full` (the `test:reliability`
 * script) runs the long forms; `bun test` runs bounded ones.
 */
import { join } from "node:path";
import { type DecoderRuntime, loadModel, type StepInput } from "@rtool/core";
import { type LoadedCallers, serveModel } from "../../src/load-callers";
import { createServer, type RtoolServer, type ServerOptions } from "../../src/server";

/** Whether the long forms run (`bun run test:reliability`). */
export const FULL = process.env.RTOOL_RELIABILITY === "full";

export const FIXTURE = join(import.meta.dir, "../../../core/test/fixtures/qwen3-tied");

/** A runtime whose every forward pass takes at least `ms` longer (a model this size takes ~1 ms). */
export function slowRuntime(inner: DecoderRuntime, ms: number): DecoderRuntime {
  return {
    get config() {
      return inner.config;
    },
    get provider() {
      return inner.provider;
    },
    async step(input: StepInput) {
      await Bun.sleep(ms);
      return inner.step(input);
    },
    emptyKv: () => inner.emptyKv(),
    sliceKv: (kv, length) => inner.sliceKv(kv, length),
    kvBytes: (kv) => inner.kvBytes(kv),
    dispose: () => inner.dispose(),
  };
}

/** The fixture model served as `loadCallers` serves one, every pass slowed by `passMs`. */
export async function slowFixture(passMs: number): Promise<LoadedCallers> {
  const model = await loadModel(FIXTURE, { threads: 1, cache: false });
  return serveModel(
    {
      runtime: slowRuntime(model.runtime, passMs),
      tokenizer: model.tokenizer,
      dispose: () => model.dispose(),
    },
    { lanes: 16, mergePolicy: "always" },
  );
}

/** A listening server over `model`, with the fixture's v2 format; closed by the caller. */
export async function listen(
  options: Partial<ServerOptions> & Pick<ServerOptions, "model">,
): Promise<{ server: RtoolServer; base: string }> {
  const server = createServer({
    port: 0,
    format: "v2",
    modelName: "qwen3-tied",
    onInfo: () => {},
    ...options,
  });
  return { server, base: (await server.listen()).url };
}

/** Waits (bounded) until `check` holds; false when `ms` passed first. */
export async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) return false;
    await Bun.sleep(5);
  }
  return true;
}

/** A long completion body: the fixture's context allows ~480 new tokens. */
export function longCompletion(tokens = 400): Record<string, unknown> {
  return { prompt: "count: 1 2 3", max_tokens: tokens, temperature: 0, ignore_eos: true, stop: [] };
}
