/**
 * The Phaser plugins in a real browser (Debian's chromium, headless, via playwright-core): as a
 * scene plugin and as a global plugin, agents reach the server, streamed heads arrive, calls that
 * break the registered schema are rejected before their handler, and a dead server shows the
 * offline status. Skips where /usr/bin/chromium is absent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS, closedPortUrl, hasChromium } from "./chromium";

const deadUrl = closedPortUrl();

if (!hasChromium)
  console.warn(`SKIP plugin browser test: ${CHROMIUM} not found (apt-get install -y chromium)`);

let server: ReturnType<typeof Bun.serve>;
let browser: Browser;
let page: Page;
let replies = 0;

describe.skipIf(!hasChromium)("RtoolPlugin in chromium", () => {
  beforeAll(async () => {
    const built = await Bun.build({
      entrypoints: [join(import.meta.dir, "browser-page.ts")],
      target: "browser",
      format: "esm",
      // @rtool/client from its sources (the workspace's "bun" condition), no build needed first
      conditions: ["bun"],
    });
    if (!built.success) throw new Error(built.logs.join("\n"));
    const bundle = await built.outputs[0]!.text();
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        const path = new URL(request.url).pathname;
        if (path === "/") {
          return new Response('<!doctype html><body><script type="module" src="/page.js"></script></body>', {
            headers: { "content-type": "text/html" },
          });
        }
        if (path === "/page.js")
          return new Response(bundle, { headers: { "content-type": "text/javascript" } });
        if (path !== "/v2/function_call") return new Response(null, { status: 404 });
        const body = (await request.json()) as { stream?: boolean };
        replies += 1;
        // Every fifth reply breaks the schema ("up" is not an allowed direction).
        const direction = replies % 5 === 0 ? "up" : replies % 2 === 0 ? "left" : "right";
        const reply = {
          success: true,
          function: "step",
          args: { direction },
          heads: { function: "step", arg1: direction },
          latency_ms: 1,
          valid: true,
          errors: [],
        };
        if (!body.stream) return Response.json(reply);
        const sse = `event: head\ndata: ${JSON.stringify({ head: "function", text: "step", done: true })}\n\nevent: call\ndata: ${JSON.stringify(reply)}\n\n`;
        return new Response(sse, { headers: { "content-type": "text/event-stream" } });
      },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    page = await browser.newPage();
    page.setDefaultTimeout(120_000);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
  }, 60_000);

  test("scene and global plugins run their agents, stream heads and reject schema-breaking calls", async () => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(`${server.url.href}?server=${encodeURIComponent(server.url.href)}`);
    await page.waitForFunction(
      () => {
        const r = window.pluginResults;
        return r && r.scene.length >= 5 && r.global.length >= 5 && r.rejected.length >= 1;
      },
      null,
      { timeout: 90_000, polling: 100 },
    );
    const results = await page.evaluate(() => window.pluginResults);
    expect(errors).toEqual([]);
    expect(new Set([...results.scene, ...results.global])).toEqual(new Set(["left", "right"]));
    expect(results.rejected.every((r) => r === "bad_enum:step")).toBe(true);
    expect(results.heads).toContain("function");
    expect(results.status[0]).toBe("online");
  }, 180_000);

  test("with no server, the scene plugin shows the offline status and backs off", async () => {
    const offline = await browser.newPage();
    offline.setDefaultTimeout(120_000);
    let attempts = 0;
    offline.on("request", (request) => {
      if (request.url().startsWith(deadUrl)) attempts += 1;
    });
    await offline.goto(`${server.url.href}?server=${encodeURIComponent(deadUrl)}`);
    await offline.waitForFunction(() => window.pluginResults?.status.includes("offline"), null, {
      timeout: 90_000,
    });
    attempts = 0;
    await offline.waitForTimeout(2000);
    // Two clients (scene and global), each backing off on its own from 500 ms once offline: a few
    // attempts in 2 s where two 16 Hz loops would make ~64.
    expect(attempts).toBeLessThanOrEqual(8);
    await offline.close();
  }, 180_000);
});
