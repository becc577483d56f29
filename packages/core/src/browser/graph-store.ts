/**
 * Built graphs kept in the browser's Cache API next to the model files, so a page builds a
 * model's ONNX graph once: later loads read the serialized graph instead of building it in
 * TypeScript. The key covers what the graph is made from: rtool's version, the graph builder's
 * version, the quantization variant and the SHA-256 of config.json and model.safetensors.
 */
import { QWEN_GRAPH_VERSION } from "../graph/qwen";
import { VERSION } from "../version";
import { openCache } from "./model-files";

/**
 * The graph cache key of a model's files and graph variant: a SHA-256 hex digest, or null where
 * WebCrypto is absent (an insecure http page), which turns the graph cache off.
 *
 * @example
 * ```ts
 * const key = await webGraphCacheKey(configBytes, weightBytes, "fp32");
 * ```
 */
export async function webGraphCacheKey(
  config: Uint8Array,
  weights: Uint8Array,
  variant: string,
): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const head = new TextEncoder().encode(
    `rtool ${VERSION}\ngraph ${QWEN_GRAPH_VERSION}\nvariant ${variant}\n`,
  );
  const digest = async (bytes: Uint8Array) =>
    new Uint8Array(await subtle.digest("SHA-256", bytes as BufferSource));
  const [configHash, weightHash] = await Promise.all([digest(config), digest(weights)]);
  const all = new Uint8Array(head.length + 64);
  all.set(head);
  all.set(configHash, head.length);
  all.set(weightHash, head.length + 32);
  return [...(await digest(all))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One cached graph: read, store (replacing the model URL's other graphs) and drop, all of which
 * fail soft (no cache means build).
 */
export interface GraphStore {
  read(): Promise<Uint8Array | null>;
  write(graph: Uint8Array): Promise<void>;
  drop(): Promise<void>;
}

/** The store of the graph with `key`, under the model's base URL in cache `cacheName`. */
export function graphStore(cacheName: string | false, base: URL, key: string | null): GraphStore {
  const href = key === null ? null : new URL(`rtool-graph/${key}.onnx`, base).href;
  const cache = () => (href === null ? Promise.resolve(null) : openCache(cacheName));
  return {
    async read() {
      try {
        const hit = await (await cache())?.match(href!);
        return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
      } catch {
        return null;
      }
    },
    async write(graph) {
      try {
        const open = await cache();
        if (!open) return;
        await open.put(
          href!,
          new Response(graph as BodyInit, { headers: { "content-type": "application/octet-stream" } }),
        );
        // graphs of this model URL's earlier files, versions or variants would only take space
        const folder = new URL("rtool-graph/", base).href;
        for (const request of await open.keys()) {
          if (request.url.startsWith(folder) && request.url !== href) await open.delete(request);
        }
      } catch {
        // a full or refused cache only means the next load builds the graph again
      }
    },
    async drop() {
      try {
        await (await cache())?.delete(href!);
      } catch {
        // nothing to drop
      }
    },
  };
}
