/**
 * `loadWebModel`'s graph cache: the first load builds rt-tiny's graph and keeps it in the Cache
 * API; the second reads it back instead of building, and runs the same model. A graph the runtime
 * cannot open is dropped and rebuilt. Bun has no Cache API, so an in-memory one stands in.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { pathToFileURL } from "node:url";
import { loadWebModel } from "@rtool/core/browser";
import { RT_TINY_DIR } from "@rtool/model-rt-tiny";

const entries = new Map<string, Uint8Array>();
const memoryCache = {
  async match(key: string) {
    const bytes = entries.get(String(key));
    return bytes ? new Response(bytes as BodyInit) : undefined;
  },
  async put(key: string, response: Response) {
    entries.set(String(key), new Uint8Array(await response.arrayBuffer()));
  },
  async delete(key: string | Request) {
    return entries.delete(typeof key === "string" ? key : key.url);
  },
  async keys() {
    return [...entries.keys()].map((url) => new Request(url));
  },
};
const scope = globalThis as { caches?: unknown };
const hadCaches = "caches" in scope;
scope.caches = { open: async () => memoryCache };
afterAll(() => {
  if (!hadCaches) delete scope.caches;
});

const base = `${pathToFileURL(RT_TINY_DIR).href}/`;
const graphKeys = () => [...entries.keys()].filter((key) => key.includes("/rtool-graph/"));

describe("the in-page graph cache", () => {
  test("a second load reads the built graph instead of building it, and runs the same model", async () => {
    const cold = await loadWebModel(base, { cacheName: "test" });
    expect(cold.timings.graphFromCache).toBe(false);
    expect(graphKeys()).toHaveLength(1);
    expect(graphKeys()[0]).toMatch(/rtool-graph\/[0-9a-f]{64}\.onnx$/);
    const warm = await loadWebModel(base, { cacheName: "test" });
    expect(warm.timings.graphFromCache).toBe(true);
    const prompt = cold.model.tokenizer!.encode("<|im_start|>user\nAmiya, use your skill now<|im_end|>\n");
    const [a, b] = await Promise.all([cold.model.forward(prompt), warm.model.forward(prompt)]);
    expect(Array.from(b.logits)).toEqual(Array.from(a.logits));
    await cold.model.dispose();
    await warm.model.dispose();
    const off = await loadWebModel(base, { cacheName: "test", graphCache: false });
    expect(off.timings.graphFromCache).toBe(false);
    await off.model.dispose();
  }, 120_000);

  test("a new graph for the model's URL replaces the older ones", async () => {
    const old = new URL("rtool-graph/0000.onnx", base).href;
    entries.set(old, new Uint8Array(4));
    const [current] = graphKeys().filter((key) => key !== old);
    entries.delete(current!);
    const loaded = await loadWebModel(base, { cacheName: "test" });
    expect(loaded.timings.graphFromCache).toBe(false);
    expect(graphKeys()).toEqual([current!]);
    await loaded.model.dispose();
  }, 120_000);

  test("a cached graph the runtime cannot open is dropped and rebuilt", async () => {
    const [key] = graphKeys();
    entries.set(key!, new TextEncoder().encode("not an onnx model"));
    const loaded = await loadWebModel(base, { cacheName: "test" });
    expect(loaded.timings.graphFromCache).toBe(true);
    expect(entries.get(key!)!.byteLength).toBeGreaterThan(1000);
    await loaded.model.dispose();
  }, 120_000);
});
