/**
 * The app's local web server: the page, the game bundle (built once with `Bun.build` from
 * `src/client/main.ts`), and `/rtool/*` forwarded to an rtool-server, so the browser talks to
 * one origin (no CORS to configure) and the server can stay on loopback.
 */
import { buildArenaBundle } from "./bundle";
import { inPageAssets } from "./in-page-assets";
import { arenaPage } from "./page";

// The bundler lives in its own module (the in-page assets use it too, and must not import this one).
export { BundleError, buildArenaBundle, bundleClient } from "./bundle";

/** Options of {@link startArenaApp}. */
export interface ArenaAppOptions {
  /**
   * rtool-server base URL the `/rtool` prefix forwards to, e.g. `http://127.0.0.1:8899`; omit when
   * pages run the model themselves (`?engine=in-page`).
   */
  rtoolUrl?: string;
  /** Interface to bind; default 127.0.0.1. */
  hostname?: string;
  /** Port; default 5173; 0 picks a free one. */
  port?: number;
  /** Minify the bundle; default false. */
  minify?: boolean;
  /**
   * Send {@link ISOLATION_HEADERS}, so pages are cross-origin isolated; default true. `false`
   * shows the in-page engine's one-thread fallback.
   */
  isolate?: boolean;
}

/** A running app server. */
export interface ArenaApp {
  /** The page's URL. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Headers on every response: they make the page cross-origin isolated (`crossOriginIsolated`),
 * which SharedArrayBuffer and so onnxruntime-web's WASM threads need (`?engine=in-page`). The
 * page loads nothing from other origins, so requiring CORP of them costs nothing.
 */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-embedder-policy": "require-corp",
};

/** `response` with {@link ISOLATION_HEADERS} set. */
export function isolated(response: Response): Response {
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) response.headers.set(name, value);
  return response;
}

const FORWARDED_REQUEST_HEADERS = ["content-type", "accept", "authorization"];
const FORWARDED_REPLY_HEADERS = ["content-type", "retry-after", "cache-control"];

/**
 * Builds the bundle and serves the app.
 *
 * @example
 * const app = await startArenaApp({ rtoolUrl: "http://127.0.0.1:8899", port: 5173 });
 * console.log(app.url); // http://127.0.0.1:5173/
 */
export async function startArenaApp(options: ArenaAppOptions): Promise<ArenaApp> {
  const bundle = await buildArenaBundle(options.minify ?? false);
  const page = arenaPage();
  const upstream = options.rtoolUrl?.replace(/\/+$/, "") ?? null;
  const assets = inPageAssets(options.minify ?? false);
  const hostname = options.hostname ?? "127.0.0.1";

  const server = Bun.serve({
    hostname,
    port: options.port ?? 5173,
    // SSE replies and queued calls can take a while; Bun's default idle timeout is 10 s.
    idleTimeout: 60,
    async fetch(request) {
      const response = await route(request);
      return options.isolate === false ? response : isolated(response);
    },
  });
  async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/" || url.pathname === "/index.html") {
      return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    if (url.pathname === "/main.js") {
      return new Response(bundle, { headers: { "content-type": "text/javascript; charset=utf-8" } });
    }
    if (url.pathname === "/favicon.ico") return new Response(null, { status: 204 });
    const asset = assets(url.pathname);
    if (asset) return asset;
    if (url.pathname.startsWith("/rtool/") && upstream)
      return forward(request, `${upstream}${url.pathname.slice(6)}${url.search}`);
    return new Response("not found", { status: 404 });
  }
  const port = server.port!;
  return {
    url: `http://${hostname}:${port}/`,
    port,
    stop: () => server.stop(true),
  };
}

async function forward(request: Request, target: string): Promise<Response> {
  const headers = new Headers();
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  let reply: Response;
  try {
    reply = await fetch(target, {
      method: request.method,
      headers,
      body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
      signal: request.signal,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return Response.json(
      {
        success: false,
        error: `rtool-server unreachable: ${message}`,
        code: "upstream_unreachable",
        field: null,
        issues: [],
      },
      { status: 502 },
    );
  }
  const replyHeaders = new Headers();
  for (const name of FORWARDED_REPLY_HEADERS) {
    const value = reply.headers.get(name);
    if (value !== null) replyHeaders.set(name, value);
  }
  return new Response(reply.body, { status: reply.status, headers: replyHeaders });
}
