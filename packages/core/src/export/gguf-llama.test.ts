/**
 * The exported GGUF runs in llama.cpp (node-llama-cpp's prebuilt binary, a root dev dependency):
 * greedy tokens from the fixtures' golden prompts equal rtool's. Skipped, with the reason printed,
 * where the binary cannot load (another OS/CPU, no prebuilt build).
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadModel } from "../load-model";
import { exportGguf } from "./gguf";

const fixtures = join(import.meta.dir, "../../test/fixtures");
const out = mkdtempSync(join(tmpdir(), "rtool-gguf-llama-"));
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
