/**
 * transformers.js export round trips: the exported ONNX decoder, run by onnxruntime with the
 * Optimum inputs (0/1 mask, position ids, empty then filled KV cache), gives rtool's logits on the
 * fixtures. That transformers.js itself loads the directory and generates rtool's greedy tokens
 * is checked in bench/peer-roundtrip.test.ts, with the optional peer engines installed.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import * as ort from "onnxruntime-node";
import { loadModel } from "../load-model";
import type { QwenConfig } from "../model/types";
import { ExportOptionError } from "./errors";
import { exportTransformersJs } from "./transformers-js";

const fixtures = join(import.meta.dir, "../../test/fixtures");
const out = mkdtempSync(join(tmpdir(), "rtool-tjs-test-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const i64 = (values: number[], dims: number[]) =>
  new ort.Tensor(
    "int64",
    BigInt64Array.from(values, (v) => BigInt(v)),
    dims,
  );

/** One Optimum-layout step: `ids` after `past`, with a 0/1 mask over past + ids. */
async function optimumStep(
  session: ort.InferenceSession,
  config: QwenConfig,
  ids: number[],
  positions: number[],
  mask: number[],
  past?: Record<string, ort.Tensor>,
) {
  const feeds: Record<string, ort.Tensor> = {
    input_ids: i64(ids, [1, ids.length]),
    attention_mask: i64(mask, [1, mask.length]),
    position_ids: i64(positions, [1, positions.length]),
  };
  for (let l = 0; l < config.numLayers; l++) {
    for (const kind of ["key", "value"]) {
      feeds[`past_key_values.${l}.${kind}`] =
        past?.[`present.${l}.${kind}`] ??
        new ort.Tensor("float32", new Float32Array(0), [1, config.numKeyValueHeads, 0, config.headDim]);
    }
  }
  return session.run(feeds);
}

function expectClose(actual: Float32Array, expected: Float32Array, tolerance = 1e-4): void {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < actual.length; i++) worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
  expect(worst).toBeLessThan(tolerance);
}

for (const name of ["qwen2-gqa", "qwen3-tied"]) {
  test(`${name}: exported decoder's logits equal rtool's (prefill, a cached step, left padding)`, async () => {
    const dir = join(fixtures, name);
    const golden = JSON.parse(readFileSync(join(dir, "golden.json"), "utf8")) as { input_ids: number[] };
    const exported = await exportTransformersJs(dir, join(out, name));
    expect(basename(exported.modelPath)).toBe("model.onnx");
    for (const file of ["config.json", "tokenizer.json", "tokenizer_config.json", "generation_config.json"])
      expect(existsSync(join(out, name, file))).toBe(true);
    expect(
      JSON.parse(readFileSync(join(out, name, "tokenizer_config.json"), "utf8")).chat_template,
    ).toContain("<|im_start|>");

    const model = await loadModel(dir, { cache: false, threads: 1 });
    const session = await ort.InferenceSession.create(exported.modelPath, { intraOpNumThreads: 1 });
    try {
      const config = model.config;
      const ids = golden.input_ids;
      const n = ids.length;
      const positions = ids.map((_, i) => i);
      // every row of the prompt, against rtool's step asked for every row
      const prefill = await optimumStep(
        session,
        config,
        ids,
        positions,
        ids.map(() => 1),
      );
      expect(prefill.logits.dims).toEqual([1, n, config.vocabSize]);
      const ours = await model.runtime.step({
        tokenIds: ids,
        positions,
        past: model.runtime.emptyKv(),
        logitRows: positions,
      });
      expectClose(prefill.logits.data as Float32Array, ours.logits);
      // one cached step on top of the prompt
      const next = 7;
      const step = await optimumStep(
        session,
        config,
        [next],
        [n],
        [...ids, next].map(() => 1),
        prefill,
      );
      const oursNext = await model.runtime.step({ tokenIds: [next], positions: [n], past: ours.present });
      expect(step.logits.dims).toEqual([1, 1, config.vocabSize]);
      expectClose(step.logits.data as Float32Array, oursNext.logits);
      // a left pad token masked out (0) with positions shifted leaves the last logits unchanged
      const padded = await optimumStep(
        session,
        config,
        [0, ...ids],
        [0, ...positions],
        [0, ...ids.map(() => 1)],
      );
      const last = (padded.logits.data as Float32Array).subarray(n * config.vocabSize);
      expectClose(last, (await model.forward(ids)).logits);
    } finally {
      await session.release();
      await model.dispose();
    }
  }, 60_000);
}

test("unknown dtypes are refused with the option named", async () => {
  const error = await exportTransformersJs(join(fixtures, "qwen2-gqa"), join(out, "x"), {
    dtype: "fp16" as "fp32",
  }).catch((e) => e);
  expect(error).toBeInstanceOf(ExportOptionError);
  expect(error.option).toBe("dtype");
});
