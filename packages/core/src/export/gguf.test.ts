/**
 * GGUF export round trips: the file parses with @huggingface/gguf (metadata as written), and every
 * tensor read back from the file with an independent decoder equals the weights (F32 exactly, F16
 * as fp16-rounded, Q8_0/Q4_0 as ggml's block formulas give for the values quantized).
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gguf } from "@huggingface/gguf";
import { openWeights } from "../model/weights";
import { ExportOptionError } from "./errors";
import { float32ToHalfBits, quantizeQ4_0, quantizeQ8_0 } from "./ggml-blocks";
import { exportGguf, type GgufFileType } from "./gguf";

const fixtures = join(import.meta.dir, "../../test/fixtures");
const out = mkdtempSync(join(tmpdir(), "rtool-gguf-test-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const f16 = (v: number) => Math.f16round(v);

/** Independent of ggml-blocks' decoder: reads one tensor's values from the file bytes. */
function readTensor(file: Uint8Array, start: number, dtype: number, count: number): Float32Array {
  const view = new DataView(file.buffer, file.byteOffset + start);
  const half = (at: number) => new Float16Array(new Uint16Array([view.getUint16(at, true)]).buffer)[0];
  const values = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    if (dtype === 0) values[i] = view.getFloat32(i * 4, true);
    else if (dtype === 1) values[i] = half(i * 2);
    else if (dtype === 8)
      values[i] = view.getInt8(Math.floor(i / 32) * 34 + 2 + (i % 32)) * half(Math.floor(i / 32) * 34);
    else if (dtype === 2) {
      const block = Math.floor(i / 32) * 18;
      const j = i % 32;
      const byte = view.getUint8(block + 2 + (j % 16));
      values[i] = ((j < 16 ? byte & 15 : byte >> 4) - 8) * half(block);
    } else throw new Error(`dtype ${dtype}`);
  }
  return values;
}

/** What ggml's reference quantizers give for one block, dequantized (the formulas, written out). */
function expectedBlock(block: Float32Array, dtype: 8 | 2): number[] {
  let amax = 0;
  let max = 0;
  for (const v of block)
    if (Math.abs(v) > amax) {
      amax = Math.abs(v);
      max = v;
    }
  const d = Math.fround(dtype === 8 ? amax / 127 : max / -8);
  const id = d ? Math.fround(1 / d) : 0;
  return [...block].map((v) => {
    const x = Math.fround(v * id);
    const q =
      dtype === 8
        ? Math.sign(x) * Math.round(Math.abs(x))
        : Math.min(15, Math.trunc(Math.fround(x + 8.5))) - 8;
    return q * f16(d);
  });
}

async function exportAndParse(name: string, type: GgufFileType) {
  const path = join(out, `${name}-${type}.gguf`);
  const written = await exportGguf(join(fixtures, name), path, { type });
  const parsed = await gguf(path, { allowLocalFile: true });
  return { path, written, parsed, bytes: new Uint8Array(readFileSync(path)) };
}

test("float32 to half rounds to nearest even like Math.f16round", () => {
  const samples = [
    0,
    -0,
    1,
    -2.5,
    65504,
    65520,
    1e-8,
    6e-8,
    5.96e-8,
    3e-5,
    0.1,
    1 / 3,
    2049,
    2051,
    1e6,
    -1e-6,
  ];
  for (let i = 0; i < 2000; i++) samples.push((Math.random() - 0.5) * 10 ** (Math.random() * 12 - 8));
  for (const v of samples) {
    const bits = float32ToHalfBits(v);
    const back = new Float16Array(new Uint16Array([bits]).buffer)[0];
    expect(Object.is(back, f16(Math.fround(v))) || back === f16(Math.fround(v))).toBe(true);
  }
});

test("Q8_0 and Q4_0 blocks follow ggml's reference quantizers", () => {
  const x = new Float32Array(64).map((_, i) => Math.sin(i * 1.7) * (i < 32 ? 1 : 0.01));
  const q8 = quantizeQ8_0(x);
  expect(q8.length).toBe(68);
  const read8 = readTensor(q8, 0, 8, 64);
  const zeroSigned = (v: number) => v + 0;
  expect([...read8].map(zeroSigned)).toEqual(
    [...expectedBlock(x.subarray(0, 32), 8), ...expectedBlock(x.subarray(32), 8)].map(zeroSigned),
  );
  const q4 = quantizeQ4_0(x);
  expect(q4.length).toBe(36);
  const read4 = readTensor(q4, 0, 2, 64);
  expect([...read4].map(zeroSigned)).toEqual(
    [...expectedBlock(x.subarray(0, 32), 2), ...expectedBlock(x.subarray(32), 2)].map(zeroSigned),
  );
  // the value of largest magnitude is exact up to the fp16 scale
  const extreme = x.subarray(0, 32).reduce((m, v) => (Math.abs(v) > Math.abs(m) ? v : m), 0);
  expect(read4[x.indexOf(extreme)]).toBeCloseTo(extreme, 3);
  // an all-zero block has scale 0 and decodes to zeros
  expect([...readTensor(quantizeQ4_0(new Float32Array(32)), 0, 2, 32)].every((v) => v === 0)).toBe(true);
});

for (const type of ["F32", "F16", "Q8_0", "Q4_0"] as const) {
  test(`qwen2-gqa as ${type}: metadata, tensor names, shapes and values`, async () => {
    const { parsed, bytes, written } = await exportAndParse("qwen2-gqa", type);
    const m = parsed.metadata as Record<string, unknown>;
    expect(m.version).toBe(3);
    expect(m["general.architecture"]).toBe("qwen2");
    expect(m["qwen2.block_count"]).toBe(2);
    expect(m["qwen2.embedding_length"]).toBe(32);
    expect(m["qwen2.feed_forward_length"]).toBe(64);
    expect(m["qwen2.attention.head_count"]).toBe(4);
    expect(m["qwen2.attention.head_count_kv"]).toBe(2);
    expect(m["qwen2.context_length"]).toBe(512);
    expect(m["qwen2.rope.freq_base"]).toBe(10000);
    expect(m["qwen2.attention.layer_norm_rms_epsilon"]).toBeCloseTo(1e-6, 12);
    expect(m["tokenizer.ggml.model"]).toBe("gpt2");
    expect(m["tokenizer.ggml.pre"]).toBe("qwen2");
    const tokens = m["tokenizer.ggml.tokens"] as string[];
    expect(tokens).toHaveLength(352);
    expect(tokens[317]).toBe("<|im_start|>");
    expect(tokens[351]).toBe("[PAD351]");
    const types = m["tokenizer.ggml.token_type"] as number[];
    expect([types[0], types[317], types[351]]).toEqual([1, 3, 5]);
    expect((m["tokenizer.ggml.merges"] as string[])[0]).toBe("Ġ t");
    expect(m["tokenizer.ggml.eos_token_id"]).toBe(318);
    expect(m["tokenizer.ggml.padding_token_id"]).toBe(316);

    const infos = new Map(parsed.tensorInfos.map((t) => [t.name, t]));
    expect(infos.size).toBe(written.tensors.length);
    for (const name of [
      "token_embd.weight",
      "output.weight",
      "output_norm.weight",
      "blk.1.attn_q.bias",
      "blk.1.ffn_down.weight",
    ])
      expect(infos.has(name)).toBe(true);
    expect(infos.get("blk.0.attn_q.weight")?.shape).toEqual([32n, 32n]);
    expect(infos.get("blk.0.attn_k.weight")?.shape).toEqual([32n, 16n]);
    expect(infos.get("blk.0.ffn_down.weight")?.shape).toEqual([64n, 32n]);
    expect(infos.get("token_embd.weight")?.shape).toEqual([32n, 352n]);

    const weights = openWeights(join(fixtures, "qwen2-gqa"));
    try {
      for (const t of written.tensors) {
        const info = infos.get(t.name)!;
        const original = weights.readFloat32(t.source);
        const values = readTensor(
          bytes,
          Number(parsed.tensorDataOffset + info.offset),
          info.dtype,
          original.length,
        );
        expect(Number(info.offset) % 32).toBe(0);
        if (info.dtype === 0) expect(values).toEqual(original);
        else if (info.dtype === 1) expect(values).toEqual(original.map(f16));
        else {
          // each block's values are the block formula applied to the originals
          const expected: number[] = [];
          for (let b = 0; b < original.length / 32; b++)
            expected.push(...expectedBlock(original.subarray(b * 32, b * 32 + 32), info.dtype as 8 | 2));
          // (+ 0 folds -0 into 0: a zero quant times a negative scale is -0 on one side only)
          expect([...values].map((v) => v + 0)).toEqual(expected.map((v) => v + 0));
        }
      }
    } finally {
      weights.close();
    }
    const matrixType = type === "Q4_0" ? 2 : { F32: 0, F16: 1, Q8_0: 8 }[type];
    expect(infos.get("blk.0.ffn_up.weight")?.dtype).toBe(matrixType);
    expect(infos.get("blk.0.attn_norm.weight")?.dtype).toBe(0);
    expect(infos.get("blk.0.attn_q.bias")?.dtype).toBe(0);
    // int4 keeps its classifier and embedding at 8 bits, as rtool's int4 mode does
    if (type === "Q4_0") expect(infos.get("output.weight")?.dtype).toBe(8);
  });
}

test("qwen3-tied: q/k norms, key/value length from head_dim, no output.weight, F16 for rows that are not whole blocks", async () => {
  const { parsed } = await exportAndParse("qwen3-tied", "Q8_0");
  const m = parsed.metadata as Record<string, unknown>;
  expect(m["general.architecture"]).toBe("qwen3");
  expect(m["qwen3.attention.key_length"]).toBe(16);
  expect(m["qwen3.attention.value_length"]).toBe(16);
  expect(m["qwen3.rope.freq_base"]).toBe(1000000);
  const names = parsed.tensorInfos.map((t) => t.name);
  expect(names).toContain("blk.0.attn_q_norm.weight");
  expect(names).toContain("blk.1.attn_k_norm.weight");
  expect(names).not.toContain("output.weight");
  expect(names.some((n) => n.endsWith(".bias"))).toBe(false);
  const info = (n: string) => parsed.tensorInfos.find((t) => t.name === n)!;
  // hidden 48 is not a multiple of 32: stored F16; intermediate 96 is: Q8_0
  expect(info("blk.0.attn_q.weight").dtype).toBe(1);
  expect(info("blk.0.ffn_down.weight").dtype).toBe(8);
});

test("unknown file types are refused with the option named", async () => {
  const error = await exportGguf(join(fixtures, "qwen2-gqa"), join(out, "x.gguf"), {
    type: "Q5_K" as GgufFileType,
  }).catch((e) => e);
  expect(error).toBeInstanceOf(ExportOptionError);
  expect(error.option).toBe("type");
});
