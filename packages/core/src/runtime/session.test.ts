import { expect, test } from "bun:test";
import * as ort from "onnxruntime-node";
import { GraphBuilder } from "../graph/onnx-builder";
import { missingCudaLibraries } from "./cuda-libraries";
import {
  CUDA_INSTALL_HINT,
  ProviderUnavailableError,
  SessionCreateError,
  UnknownProviderError,
} from "./errors";
import { createSession, type ProviderRequest } from "./session";

function doubler(): Uint8Array {
  const g = new GraphBuilder("doubler");
  const x = g.input("x", "float32", ["n"]);
  g.output(g.mul(x, g.scalar(2)), "y", "float32", ["n"]);
  return g.serialize();
}

const cudaInstalled = missingCudaLibraries()?.missing.length === 0;
if (cudaInstalled)
  console.warn(`SKIP ${import.meta.file}: the CPU-fallback tests need a machine without the CUDA libraries`);

test("cpu session runs a built graph", async () => {
  const { session, provider } = await createSession(doubler(), { provider: "cpu", threads: 1 });
  expect(provider).toBe("cpu");
  const out = await session.run({ x: new ort.Tensor("float32", new Float32Array([1, 2, 3]), [3]) });
  expect(Array.from(out.y.data as Float32Array)).toEqual([2, 4, 6]);
  await session.release();
});

test("an unknown provider is a typed error", async () => {
  const error = await createSession(doubler(), { provider: "tpu" as ProviderRequest }).catch((e) => e);
  expect(error).toBeInstanceOf(UnknownProviderError);
  expect(error.provider).toBe("tpu");
});

test.skipIf(cudaInstalled)(
  "cuda without its libraries: ProviderUnavailableError with the install hint",
  async () => {
    const error = await createSession(doubler(), { provider: "cuda" }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.provider).toBe("cuda");
    expect(error.message).toContain(CUDA_INSTALL_HINT);
    expect(error.message).toContain("ONNXRUNTIME_NODE_INSTALL=skip");
  },
);

test.skipIf(cudaInstalled)("auto falls back to the cpu with a warning", async () => {
  const warnings: string[] = [];
  const { session, provider } = await createSession(doubler(), {
    provider: "auto",
    onWarning: (m) => warnings.push(m),
  });
  expect(provider).toBe("cpu");
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("CUDA unavailable");
  await session.release();
});

test("a corrupt model is a SessionCreateError", async () => {
  const error = await createSession(new Uint8Array([1, 2, 3, 4, 5]), { provider: "cpu" }).catch((e) => e);
  expect(error).toBeInstanceOf(SessionCreateError);
});
