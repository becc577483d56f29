import { afterAll, describe, expect, test } from "bun:test";
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ModelLoadError, SafetensorsError, TensorDtypeError, TensorMissingError } from "./errors";
import { SafetensorsFile } from "./safetensors";
import { writeSafetensors } from "./safetensors-writer";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "rtool-st-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function catchError(run: () => unknown): ModelLoadError {
  try {
    run();
  } catch (error) {
    return error as ModelLoadError;
  }
  throw new Error("expected an error");
}

/** Writes a header + data by hand, for malformed files the writer refuses to produce. */
function writeRaw(file: string, header: unknown, dataBytes: number): void {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const bytes = new Uint8Array(8 + json.length + dataBytes);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(json.length), true);
  bytes.set(json, 8);
  writeFileSync(file, bytes);
}

describe("SafetensorsFile", () => {
  const dir = tempDir();
  const file = join(dir, "mixed.safetensors");
  const f32 = new Float32Array([1, -2, 3.5, 0.25, -0, 1e-8]);
  // 1, -2, 65504, smallest subnormal, -inf
  const f16 = new Uint16Array([0x3c00, 0xc000, 0x7bff, 0x0001, 0xfc00]);
  // 1, -3, 3.140625
  const bf16 = new Uint16Array([0x3f80, 0xc040, 0x4049]);
  const i32 = new Int32Array([7, -1, 0x12345678]);
  writeSafetensors(
    file,
    [
      { name: "a.f32", dtype: "F32", shape: [2, 3], data: f32 },
      { name: "b.f16", dtype: "F16", shape: [5], data: f16 },
      { name: "c.bf16", dtype: "BF16", shape: [3, 1], data: bf16 },
      { name: "d.i32", dtype: "I32", shape: [3], data: i32 },
      { name: "e.empty", dtype: "F32", shape: [0, 4], data: new Float32Array(0) },
    ],
    { format: "pt" },
  );

  test("header: names, dtypes, shapes, metadata", () => {
    const weights = new SafetensorsFile(file);
    expect([...weights.tensors.keys()]).toEqual(["a.f32", "b.f16", "c.bf16", "d.i32", "e.empty"]);
    expect(weights.tensors.get("c.bf16")).toMatchObject({ dtype: "BF16", shape: [3, 1] });
    expect(weights.metadata).toEqual({ format: "pt" });
    weights.close();
  });

  test("reads F32, F16, BF16 as float32 and raw bytes", () => {
    const weights = new SafetensorsFile(file);
    expect(Array.from(weights.readFloat32("a.f32"))).toEqual(Array.from(f32));
    expect(Array.from(weights.readFloat32("b.f16"))).toEqual([
      1,
      -2,
      65504,
      2 ** -24,
      Number.NEGATIVE_INFINITY,
    ]);
    expect(Array.from(weights.readFloat32("c.bf16"))).toEqual([1, -3, 3.140625]);
    const raw = weights.readBytes("d.i32");
    expect(Array.from(new Int32Array(raw.buffer, raw.byteOffset, 3))).toEqual([7, -1, 0x12345678]);
    expect(weights.readFloat32("e.empty").length).toBe(0);
    weights.close();
  });

  test("integer tensor as float32 is a TensorDtypeError; unknown name a TensorMissingError", () => {
    const weights = new SafetensorsFile(file);
    const dtypeError = catchError(() => weights.readFloat32("d.i32"));
    expect(dtypeError).toBeInstanceOf(TensorDtypeError);
    expect(dtypeError.tensor).toBe("d.i32");
    const missing = catchError(() => weights.readFloat32("nope"));
    expect(missing).toBeInstanceOf(TensorMissingError);
    expect(missing.file).toBe(file);
    weights.close();
  });

  test("reading after close fails cleanly", () => {
    const weights = new SafetensorsFile(file);
    weights.close();
    expect(catchError(() => weights.readBytes("a.f32"))).toBeInstanceOf(SafetensorsError);
  });

  test("truncated file names the file and the first tensor past the end", () => {
    const cut = join(dir, "cut.safetensors");
    writeFileSync(cut, readFileSync(file));
    const { size } = Bun.file(cut);
    truncateSync(cut, size - 10);
    const error = catchError(() => new SafetensorsFile(cut));
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.file).toBe(cut);
    expect(error.tensor).toBe("d.i32");
    expect(error.message).toContain("truncated");
  });

  test("file cut inside the header or the length prefix", () => {
    const cut = join(dir, "header-cut.safetensors");
    writeFileSync(cut, readFileSync(file).subarray(0, 40));
    expect(catchError(() => new SafetensorsFile(cut)).message).toContain("truncated");
    writeFileSync(cut, new Uint8Array(5));
    expect(catchError(() => new SafetensorsFile(cut))).toBeInstanceOf(SafetensorsError);
  });

  test("missing file", () => {
    const error = catchError(() => new SafetensorsFile(join(dir, "absent.safetensors")));
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.message).toContain("absent.safetensors");
  });

  const malformed: [string, unknown, number, string][] = [
    ["non-JSON header", "not json", 0, "not valid JSON"],
    ["array header", [], 0, "not a JSON object"],
    ["size mismatch", { t: { dtype: "F32", shape: [2], data_offsets: [0, 4] } }, 8, "needs 8 bytes"],
    ["reversed offsets", { t: { dtype: "F32", shape: [1], data_offsets: [4, 0] } }, 8, "data_offsets"],
    ["negative dim", { t: { dtype: "F32", shape: [-1], data_offsets: [0, 4] } }, 8, "bad shape"],
    ["offset past end", { t: { dtype: "F32", shape: [4], data_offsets: [0, 16] } }, 8, "truncated"],
  ];
  for (const [what, header, dataBytes, message] of malformed) {
    test(`malformed: ${what}`, () => {
      const bad = join(dir, "bad.safetensors");
      if (typeof header === "string") {
        const json = new TextEncoder().encode(header);
        const bytes = new Uint8Array(8 + json.length);
        new DataView(bytes.buffer).setBigUint64(0, BigInt(json.length), true);
        bytes.set(json, 8);
        writeFileSync(bad, bytes);
      } else {
        writeRaw(bad, header, dataBytes);
      }
      const error = catchError(() => new SafetensorsFile(bad));
      expect(error).toBeInstanceOf(SafetensorsError);
      expect(error.message).toContain(message);
    });
  }

  test("unknown dtype is a TensorDtypeError naming the tensor", () => {
    const bad = join(dir, "f64.safetensors");
    writeRaw(bad, { w: { dtype: "F64", shape: [1], data_offsets: [0, 8] } }, 8);
    const error = catchError(() => new SafetensorsFile(bad));
    expect(error).toBeInstanceOf(TensorDtypeError);
    expect(error.tensor).toBe("w");
  });

  test("implausible header length", () => {
    const bad = join(dir, "huge.safetensors");
    const bytes = new Uint8Array(16);
    new DataView(bytes.buffer).setBigUint64(0, 1n << 40n, true);
    writeFileSync(bad, bytes);
    expect(catchError(() => new SafetensorsFile(bad)).message).toContain("implausible");
  });

  // Sparse files keep this cheap; Windows file systems would allocate the hole, so skip there.
  test.skipIf(process.platform === "win32")("positioned reads past 4 GiB (multi-gigabyte shards)", () => {
    const big = join(dir, "sparse.safetensors");
    const gap = 5_000_000_000;
    const header = new TextEncoder().encode(
      JSON.stringify({
        gap: { dtype: "U8", shape: [gap], data_offsets: [0, gap] },
        far: { dtype: "BF16", shape: [2], data_offsets: [gap, gap + 4] },
      }).padEnd(120, " "),
    );
    const prefix = new Uint8Array(8);
    new DataView(prefix.buffer).setBigUint64(0, BigInt(header.length), true);
    const fd = openSync(big, "w");
    writeSync(fd, prefix, 0, 8, 0);
    writeSync(fd, header, 0, header.length, 8);
    writeSync(fd, new Uint8Array(new Uint16Array([0x3f80, 0xc040]).buffer), 0, 4, 8 + header.length + gap);
    closeSync(fd);
    const weights = new SafetensorsFile(big);
    expect(Array.from(weights.readFloat32("far"))).toEqual([1, -3]);
    weights.close();
    rmSync(big);
  });
});
