/**
 * Model files fetched by URL and kept in the browser's Cache API, so a page loads the model from
 * the network once and from the cache afterwards. Where there is no Cache API (Bun, Node, an
 * insecure http page), files are simply fetched.
 */

/** Options of {@link fetchModelFile}. */
export interface ModelFileOptions {
  /** Cache API cache to keep files in; default "rtool-models"; `false` never caches. */
  cacheName?: string | false;
  /** The fetch to use; default the global one. */
  fetch?: typeof fetch;
}

/** A model file could not be fetched. */
export class ModelFetchError extends Error {
  override name = "ModelFetchError";
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`could not fetch model file ${url}: ${reason}`);
  }
}

/** The cache to use, or null where the Cache API is absent or refused (opaque origins, private modes). */
export async function openCache(name: string | false): Promise<Cache | null> {
  if (name === false || typeof caches === "undefined") return null;
  try {
    return await caches.open(name);
  } catch {
    return null;
  }
}

/**
 * The bytes of one model file: from the cache when there, else fetched (and cached on success).
 * Files are keyed by URL, so a new model version belongs at a new URL.
 *
 * @example
 * ```ts
 * const bytes = await fetchModelFile(new URL("model.safetensors", "https://game.example/rt-tiny/"));
 * ```
 */
export async function fetchModelFile(url: string | URL, options: ModelFileOptions = {}): Promise<Uint8Array> {
  const href = String(url);
  const cache = await openCache(options.cacheName ?? "rtool-models");
  const cached = await cache?.match(href);
  if (cached) return new Uint8Array(await cached.arrayBuffer());
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(href);
  } catch (error) {
    throw new ModelFetchError(href, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw new ModelFetchError(href, `HTTP ${response.status} ${response.statusText}`.trim());
  if (cache) {
    // a full or refused cache must not stop the model from loading
    await cache.put(href, response.clone()).catch(() => undefined);
  }
  return new Uint8Array(await response.arrayBuffer());
}

/** Parses a fetched JSON file, naming the URL when it is not JSON. */
export function parseJsonFile(bytes: Uint8Array, url: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new ModelFetchError(url, `not valid JSON (${error instanceof Error ? error.message : error})`);
  }
}
