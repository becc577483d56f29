/**
 * A Hugging Face hub stand-in on 127.0.0.1 for pull tests: the tree listing and the `resolve`
 * download route (with the ranged probe `@huggingface/hub` sends), for files held in memory.
 */

/** A running fake hub. */
export interface FakeHub {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  stop(): void;
}

/**
 * Serves `files` (path -> content) as repository `repo` at revision "main".
 *
 * @example
 * ```ts
 * const hub = startFakeHub("org/tiny", { "config.json": "{}" });
 * await pullModel({ repo: "org/tiny", endpoint: hub.url, dir });
 * hub.stop();
 * ```
 */
export function startFakeHub(repo: string, files: Record<string, string | Uint8Array>): FakeHub {
  const bytes = new Map(
    Object.entries(files).map(([path, content]) => [
      path,
      typeof content === "string" ? new TextEncoder().encode(content) : content,
    ]),
  );
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      requests.push(url.pathname);
      if (url.pathname === `/api/models/${repo}/tree/main`) {
        const listing = [...bytes].map(([path, data]) => ({
          type: "file",
          path,
          size: data.byteLength,
          oid: path,
        }));
        return Response.json(listing);
      }
      const prefix = `/${repo}/resolve/main/`;
      if (url.pathname.startsWith(prefix)) {
        const data = bytes.get(decodeURIComponent(url.pathname.slice(prefix.length)));
        if (!data)
          return new Response("not found", { status: 404, headers: { "X-Error-Code": "EntryNotFound" } });
        const headers = { ETag: `"${data.byteLength}"`, "Content-Type": "application/octet-stream" };
        const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.get("range") ?? "");
        if (range) {
          const start = Number(range[1]);
          const end = Math.min(Number(range[2]), data.byteLength - 1);
          return new Response(data.slice(start, end + 1), {
            status: 206,
            headers: { ...headers, "Content-Range": `bytes ${start}-${end}/${data.byteLength}` },
          });
        }
        return new Response(new Blob([data as Uint8Array<ArrayBuffer>]), { headers });
      }
      return new Response("not found", { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}
