import { afterEach, describe, expect, test } from "bun:test";
import { chooseWasmThreads } from "./web-runtime";

const scope = globalThis as { crossOriginIsolated?: boolean };
const had = "crossOriginIsolated" in scope;
const before = scope.crossOriginIsolated;

afterEach(() => {
  if (had) scope.crossOriginIsolated = before;
  else delete scope.crossOriginIsolated;
});

describe("WASM threads", () => {
  test("an isolated page gets what it asks for, by default min(4, cores)", () => {
    scope.crossOriginIsolated = true;
    const cores = navigator.hardwareConcurrency;
    expect(chooseWasmThreads()).toEqual({
      requested: Math.min(4, cores),
      numThreads: Math.min(4, cores),
      crossOriginIsolated: true,
      note: null,
    });
    expect(chooseWasmThreads(3).numThreads).toBe(3);
  });

  test("a page that is not isolated runs on one thread and says why", () => {
    scope.crossOriginIsolated = false;
    const threads = chooseWasmThreads(4);
    expect(threads).toMatchObject({ requested: 4, numThreads: 1, crossOriginIsolated: false });
    expect(threads.note).toContain("Cross-Origin-Embedder-Policy: require-corp");
    expect(chooseWasmThreads(1)).toMatchObject({ numThreads: 1, note: null });
  });
});
