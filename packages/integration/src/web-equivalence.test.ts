/**
 * The in-page call path against the server's: every scenario example is decoded by rt-tiny on
 * onnxruntime-node (`loadModel`, as rtool-server loads it) and on onnxruntime-web's WASM backend
 * (`loadWebModel` from `@rtool/core/browser`, as the Phaser plugin's worker loads it, here fed by
 * file URLs). Both must feed the model the same tokens, step for step, and give the same heads,
 * function and arguments.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pathToFileURL } from "node:url";
import { type CallerModel, type DecoderRuntime, loadModel, type Model, RealtimeCaller } from "@rtool/core";
import { loadWebModel } from "@rtool/core/browser";
import { RT_TINY_DIR } from "@rtool/model-rt-tiny";
import { type ScenarioName, scenarios } from "@rtool/sim";

/** A runtime that logs the token ids of every step it runs, so two runs can be compared token for token. */
function recording(runtime: DecoderRuntime, log: number[][]): DecoderRuntime {
  return new Proxy(runtime, {
    get(target, key, receiver) {
      if (key === "step")
        return (input: Parameters<DecoderRuntime["step"]>[0]) => {
          log.push(Array.from(input.tokenIds));
          return target.step(input);
        };
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A caller configured as the server's lanes are (system turn cached as its own entry). */
function callerOf(model: CallerModel, log: number[][]): RealtimeCaller {
  return new RealtimeCaller(
    { runtime: recording(model.runtime, log), tokenizer: model.tokenizer },
    { format: "v2", cacheSystemTurn: true },
  );
}

let nodeModel: Model;
let webModel: Model;

describe("rt-tiny in the page decodes what the server decodes", () => {
  beforeAll(async () => {
    nodeModel = await loadModel(RT_TINY_DIR, { cache: false, threads: 1 });
    ({ model: webModel } = await loadWebModel(`${pathToFileURL(RT_TINY_DIR).href}/`, { cacheName: false }));
  }, 120_000);

  afterAll(async () => {
    await nodeModel?.dispose();
    await webModel?.dispose();
  });

  test("the prefill logits agree (same graph, two ONNX Runtime builds)", async () => {
    const ids = nodeModel.tokenizer!.encode("<|im_start|>user\nAmiya, use your skill now<|im_end|>\n");
    const [a, b] = await Promise.all([nodeModel.forward(ids), webModel.forward(ids)]);
    let maxDiff = 0;
    for (let i = 0; i < a.logits.length; i++)
      maxDiff = Math.max(maxDiff, Math.abs(a.logits[i] - b.logits[i]));
    console.log(`prefill logits: max |node - web| = ${maxDiff.toExponential(2)} over ${a.logits.length}`);
    expect(maxDiff).toBeLessThan(1e-2);
  }, 60_000);

  for (const name of Object.keys(scenarios) as ScenarioName[]) {
    test(`${name}: same tokens, same heads, same call`, async () => {
      const scenario = scenarios[name];
      const nodeSteps: number[][] = [];
      const webSteps: number[][] = [];
      const onNode = callerOf(nodeModel as unknown as CallerModel, nodeSteps);
      const onWeb = callerOf(webModel as unknown as CallerModel, webSteps);
      for (const example of scenario.examples) {
        const request = {
          query: example.query,
          tools: scenario.tools,
          system: scenario.system,
          environment: example.environment,
          history: example.history,
        };
        const server = await onNode.call(request);
        const page = await onWeb.call(request);
        expect(page.heads).toEqual(server.heads);
        expect(page.function).toBe(server.function);
        expect(page.args).toEqual(server.args);
        expect(page.valid).toBe(server.valid);
      }
      expect(webSteps).toEqual(nodeSteps);
      console.log(`${name}: ${scenario.examples.length} examples, ${nodeSteps.length} steps identical`);
    }, 120_000);
  }
});
