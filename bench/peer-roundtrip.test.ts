/**
 * Round trips through the optional peer engines, run by `bun run test` once they are installed
 * (`bun run peers:install`; CI does): the GGUF export runs in llama.cpp (node-llama-cpp's prebuilt
 * binary) and gives rtool's greedy tokens, and transformers.js loads the transformers.js export
 * offline and generates rtool's greedy tokens. Where node-llama-cpp cannot load (another OS/CPU,
 * no prebuilt build) its tests are skipped with the reason printed.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { exportGguf } from "../packages/core/src/export/gguf";
import { exportTransformersJs } from "../packages/core/src/export/transformers-js";
import { loadModel } from "../packages/core/src/load-model";

const fixtures = join(import.meta.dir, "../packages/core/test/fixtures");
const out = mkdtempSync(join(tmpdir(), "rtool-peer-roundtrip-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

type Llama = Awaited<ReturnType<typeof import("node-llama-cpp").getLlama>>;

async function tryLlama(): Promise<Llama | string> {
  try {
    const { getLlama, LlamaLogLevel } = await import("node-llama-cpp");
    return await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const llama = await tryLlama();
if (typeof llama === "string")
  console.warn(`skipping the llama.cpp round trip: node-llama-cpp cannot load (${llama})`);

for (const name of ["qwen2-gqa", "qwen3-tied"]) {
  test.skipIf(typeof llama === "string")(
    `${name}: llama.cpp greedy tokens equal rtool's`,
    async () => {
      const lib = llama as Llama;
      const dir = join(fixtures, name);
      const golden = JSON.parse(readFileSync(join(dir, "golden.json"), "utf8")) as { input_ids: number[] };
      const path = join(out, `${name}.gguf`);
      await exportGguf(dir, path, { type: "F32" });
      const model = await loadModel(dir, { cache: false, threads: 1 });
      const ours = await model.generate(golden.input_ids, { maxTokens: 10 });
      await model.dispose();
      const llamaModel = await lib.loadModel({ modelPath: path });
      const context = await llamaModel.createContext({ contextSize: 128, threads: 1 });
      try {
        const theirs: number[] = [];
        for await (const token of context
          .getSequence()
          .evaluate(golden.input_ids as never, { temperature: 0 })) {
          theirs.push(Number(token));
          if (theirs.length === ours.length) break;
        }
        expect(theirs).toEqual(ours);
      } finally {
        await context.dispose();
        await llamaModel.dispose();
      }
    },
    60_000,
  );
}

test("transformers.js loads the export offline and generates rtool's greedy tokens (fp32 and q8)", async () => {
  const { AutoModelForCausalLM, env, Tensor } = await import("@huggingface/transformers");
  env.allowRemoteModels = false;
  const dir = join(fixtures, "qwen2-gqa");
  const golden = JSON.parse(readFileSync(join(dir, "golden.json"), "utf8")) as { input_ids: number[] };
  for (const [dtype, quant] of [
    ["fp32", "none"],
    ["q8", "int8"],
  ] as const) {
    const exported = await exportTransformersJs(dir, join(out, `tjs-${dtype}`), { dtype, logits: "last" });
    expect(basename(exported.modelPath)).toBe(dtype === "q8" ? "model_quantized.onnx" : "model.onnx");
    env.localModelPath = dirname(exported.dir);
    const tjs = await AutoModelForCausalLM.from_pretrained(basename(exported.dir), {
      dtype,
      device: "cpu",
      session_options: { intraOpNumThreads: 1 },
    });
    const ids = golden.input_ids;
    const output = (await tjs.generate({
      inputs: new Tensor("int64", BigInt64Array.from(ids, BigInt), [1, ids.length]),
      attention_mask: new Tensor(
        "int64",
        BigInt64Array.from(ids, () => 1n),
        [1, ids.length],
      ),
      max_new_tokens: 8,
      do_sample: false,
      eos_token_id: [],
    })) as { tolist(): bigint[][] };
    const theirs = output.tolist()[0].slice(ids.length).map(Number);
    await tjs.dispose();
    const model = await loadModel(dir, { cache: false, threads: 1, quant });
    const ours = await model.generate(ids, { maxTokens: 8 });
    await model.dispose();
    expect(theirs).toEqual(ours);
  }
}, 120_000);
