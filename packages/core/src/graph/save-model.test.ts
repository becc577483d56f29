import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ort from "onnxruntime-node";
import { GraphBuilder } from "./onnx-builder";
import { saveModel } from "./save-model";

const dir = mkdtempSync(join(tmpdir(), "rtool-save-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function affine(): GraphBuilder {
  const g = new GraphBuilder("affine");
  const x = g.input("x", "float32", [1, 3]);
  const w = g.initializer(
    "w",
    Float32Array.from({ length: 3 * 300 }, (_, i) => (i % 7) - 3),
    [3, 300],
  );
  const b = g.initializer(
    "b",
    Float32Array.from({ length: 300 }, (_, i) => i / 10),
    [300],
  );
  g.output(g.add(g.matmul(x, w), b), "y", "float32", [1, 300]);
  return g;
}

test("large initializers go to an aligned side file that ONNX Runtime reads back", async () => {
  const g = affine();
  const saved = saveModel(g, join(dir, "m", "model.onnx"), { externalThreshold: 1024 });
  expect(saved.dataPath).toBe(join(dir, "m", "model.onnx.data"));
  // w (3600 bytes) goes out, aligned at 0; b (1200 bytes) follows at 4096
  expect(saved.externalBytes).toBe(4096 + 1200);
  expect(statSync(saved.dataPath!).size).toBe(4096 + 1200);
  expect(statSync(saved.modelPath).size).toBeLessThan(1024);

  const x = new ort.Tensor("float32", new Float32Array([1, 2, 3]), [1, 3]);
  const fromFile = await ort.InferenceSession.create(saved.modelPath);
  const inline = await ort.InferenceSession.create(g.serialize());
  const a = (await fromFile.run({ x })).y.data as Float32Array;
  const b = (await inline.run({ x })).y.data as Float32Array;
  expect(Array.from(a)).toEqual(Array.from(b));
  // column 1: w[0][1] = -2, w[1][1] = -3, w[2][1] = 3, b[1] = 0.1
  expect(a[1]).toBeCloseTo(1 * -2 + 2 * -3 + 3 * 3 + 0.1, 5);
  await fromFile.release();
  await inline.release();
});

test("no side file when every initializer is small", () => {
  const saved = saveModel(affine(), join(dir, "small", "model.onnx"), { externalThreshold: 1 << 20 });
  expect(saved.dataPath).toBeUndefined();
  expect(existsSync(join(dir, "small", "model.onnx.data"))).toBe(false);
});
