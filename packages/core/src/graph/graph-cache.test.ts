import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findCachedGraph, graphCacheRoot, removeCachedGraph, storeCachedGraph } from "./graph-cache";

const root = mkdtempSync(join(tmpdir(), "rtool-cache-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("RTOOL_CACHE_DIR decides the root; without it tests use the temporary directory", () => {
  const before = process.env.RTOOL_CACHE_DIR;
  process.env.RTOOL_CACHE_DIR = root;
  expect(graphCacheRoot()).toBe(root);
  delete process.env.RTOOL_CACHE_DIR;
  expect(graphCacheRoot()).toBe(join(tmpdir(), "rtool-test-cache", "graphs"));
  if (before === undefined) delete process.env.RTOOL_CACHE_DIR;
  else process.env.RTOOL_CACHE_DIR = before;
});

test("a stored entry is found; a second store of the same key keeps the first; removal forgets it", () => {
  const key = "k1";
  expect(findCachedGraph(key, root)).toBeUndefined();
  const path = storeCachedGraph(key, (dir) => writeFileSync(join(dir, "model.onnx"), "first"), root);
  expect(findCachedGraph(key, root)).toBe(path);
  const again = storeCachedGraph(key, (dir) => writeFileSync(join(dir, "model.onnx"), "second"), root);
  expect(again).toBe(path);
  expect(readFileSync(path, "utf8")).toBe("first");
  // no staging directories are left behind
  expect(readdirSync(root)).toEqual([key]);
  removeCachedGraph(key, root);
  expect(findCachedGraph(key, root)).toBeUndefined();
});

test("a writer that fails leaves no entry", () => {
  expect(() =>
    storeCachedGraph(
      "k2",
      (dir) => {
        writeFileSync(join(dir, "model.onnx"), "partial");
        throw new Error("disk full");
      },
      root,
    ),
  ).toThrow("disk full");
  expect(existsSync(join(root, "k2"))).toBe(false);
  expect(readdirSync(root).filter((f) => f.startsWith(".staging"))).toEqual([]);
});
