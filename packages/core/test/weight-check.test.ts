/**
 * `loadModel` refuses a checkpoint whose tensors hold NaN or infinities, naming the tensor, and
 * loads it anyway with `skipWeightCheck`; a graph cached by such a load never serves a checked one.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadModel } from "../src/load-model";
import { TensorValueError } from "../src/model/errors";
import { firstNonFinite } from "../src/model/finite-weights";
import { SafetensorsFile } from "../src/model/safetensors";
import { writeSafetensors } from "../src/model/safetensors-writer";

const work = mkdtempSync(join(tmpdir(), "rtool-weight-check-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the qwen3-tied fixture with `bad` written into one element of `tensor`. */
function damagedCopy(tensor: string, bad: number): string {
  const dir = join(work, `damaged-${String(bad)}-${tensor}`);
  cpSync(join(import.meta.dir, "fixtures/qwen3-tied"), dir, { recursive: true });
  const file = join(dir, "model.safetensors");
  const source = new SafetensorsFile(file);
  const tensors = [...source.tensors.entries()].map(([name, info]) => {
    const data = source.readFloat32(name);
    if (name === tensor) data[3] = bad;
    return { name, dtype: "F32" as const, shape: [...info.shape], data };
  });
  source.close();
  writeSafetensors(file, tensors);
  return dir;
}

describe("weight check", () => {
  test("firstNonFinite finds NaN and both infinities, and nothing in finite data", () => {
    expect(firstNonFinite(new Float32Array([0, 1, -2, 3e38]))).toBe(-1);
    expect(firstNonFinite(new Float32Array([0, Number.NaN]))).toBe(1);
    expect(firstNonFinite(new Float32Array([Number.POSITIVE_INFINITY]))).toBe(0);
    expect(firstNonFinite(new Float32Array([1, 2, Number.NEGATIVE_INFINITY]))).toBe(2);
  });

  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
    test(`a tensor holding ${bad} is refused by name; skipWeightCheck loads it`, async () => {
      const tensor = "model.layers.0.mlp.down_proj.weight";
      const dir = damagedCopy(tensor, bad);
      const error = await loadModel(dir, { cache: false, threads: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TensorValueError);
      expect((error as TensorValueError).tensor).toBe(tensor);
      expect((error as Error).message).toContain(tensor);
      expect((error as TensorValueError).index).toBe(3);
      const model = await loadModel(dir, { cache: false, threads: 1, skipWeightCheck: true });
      await model.dispose();
    });
  }

  test("a graph cached by a skipWeightCheck load is not reused by a checked load", async () => {
    const tensor = "model.layers.0.mlp.up_proj.weight";
    const dir = damagedCopy(tensor, Number.NaN);
    const saved = process.env.RTOOL_CACHE_DIR;
    process.env.RTOOL_CACHE_DIR = join(work, "graph-cache");
    try {
      const unchecked = await loadModel(dir, { threads: 1, skipWeightCheck: true });
      await unchecked.dispose();
      expect(readdirSync(process.env.RTOOL_CACHE_DIR).filter((f) => !f.startsWith("."))).toHaveLength(1);
      const hits: string[] = [];
      const error = await loadModel(dir, {
        threads: 1,
        onProgress: (event) => hits.push(event.stage),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TensorValueError);
      expect((error as TensorValueError).tensor).toBe(tensor);
      expect(hits).not.toContain("graph-cache-hit");
      // and the unchecked load still finds its own entry
      const again: string[] = [];
      const model = await loadModel(dir, {
        threads: 1,
        skipWeightCheck: true,
        onProgress: (event) => again.push(event.stage),
      });
      await model.dispose();
      expect(again).toContain("graph-cache-hit");
    } finally {
      if (saved === undefined) delete process.env.RTOOL_CACHE_DIR;
      else process.env.RTOOL_CACHE_DIR = saved;
    }
  });
});
