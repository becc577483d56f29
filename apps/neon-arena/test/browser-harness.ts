/**
 * What the browser tests share: Debian's chromium launched headless by playwright-core with a
 * fresh profile, the page's `window.rtoolArena.state()` read from the test, and where
 * screenshots go.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  closedPortUrl,
  hasChromium,
} from "../../../packages/phaser-plugin/test/chromium";
import type { ArenaSnapshot } from "../src/client/arena-hub";
import type { InPageStatus } from "../src/client/in-page";
import { type ArenaApp, startArenaApp } from "../src/index";

/** The plugin's browser-test basics: Debian's chromium, its headless flags, a refused URL. */
export { CHROMIUM, closedPortUrl, hasChromium };

/**
 * Where screenshots go: a git-ignored folder, so a test run never rewrites tracked files. The
 * committed ones under bench/results/screens are refreshed only on request (`bun run bench`, or
 * `RTOOL_UPDATE_SCREENS=1 bun run test`).
 */
export const SCREENS =
  process.env.RTOOL_UPDATE_SCREENS === "1"
    ? join(import.meta.dir, "..", "..", "..", "bench", "results", "screens")
    : join(import.meta.dir, "..", "..", "..", ".cache", "screens");
mkdirSync(SCREENS, { recursive: true });

/** A chromium with one page, and helpers over the app's state hook. */
export interface ArenaBrowser {
  context: BrowserContext;
  page: Page;
  /** Page errors and console errors seen so far. */
  errors: string[];
  state(): Promise<ArenaSnapshot>;
  /** Waits until `predicate`, a JavaScript expression over `s` (the snapshot), holds in the page. */
  waitForState(predicate: string, timeoutMs: number): Promise<void>;
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Launches chromium with a fresh profile and opens `url`. */
export async function openArena(url: string): Promise<ArenaBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), "neon-arena-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1600, height: 760 },
  });
  // A loaded machine (CI runs everything on two cores) can take a while to load a 3 MB bundle.
  context.setDefaultTimeout(300_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  mkdirSync(SCREENS, { recursive: true });
  await page.goto(url);
  await page.waitForFunction(() => window.rtoolArena?.state().scene !== null, null, { timeout: 300_000 });
  return {
    context,
    page,
    errors,
    state: () => page.evaluate(() => window.rtoolArena.state()),
    async waitForState(predicate: string, timeoutMs: number) {
      await page.waitForFunction(
        `(() => { const s = window.rtoolArena.state(); return ${predicate}; })()`,
        null,
        {
          timeout: timeoutMs,
          polling: 100,
        },
      );
    },
    async screenshot(name: string) {
      await page.screenshot({ path: join(SCREENS, name) });
    },
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Sum of a `Record<string, number>` (calls per ship, per direction). */
export function total(counts: unknown): number {
  return Object.values(counts as Record<string, number>).reduce((a, b) => a + b, 0);
}

/**
 * Waits until the page's in-page model (`?engine=in-page`) has loaded or failed, and returns the
 * page's report of it.
 */
export async function inPageLoad(page: Page): Promise<InPageStatus> {
  await page.waitForFunction(
    () => window.rtoolArena.inPage?.timings || window.rtoolArena.inPage?.error,
    null,
    { timeout: 300_000 },
  );
  return page.evaluate(() => window.rtoolArena.inPage!);
}

/**
 * The WASM thread workers onnxruntime-web started in the page (its pthread pool: threads beyond
 * the in-page worker's own); none when it runs on one thread.
 */
export function wasmThreadWorkers(page: Page): number {
  return page.workers().filter((worker) => worker.url().includes("/ort/ort-wasm-")).length;
}

/** The arena app and a chromium page on it with rt-tiny in the page, for the in-page tests. */
export interface InPageArena {
  app: ArenaApp;
  browser: ArenaBrowser;
  /**
   * URLs of the page's requests to `/rtool/` (the app's forwarding to an rtool-server) since the
   * page opened: an in-page run must make none, which is what proves no server was used.
   */
  rtoolRequests: string[];
  close(): Promise<void>;
}

/**
 * Starts the arena app (no rtool-server process) and opens it with `?engine=in-page` plus
 * `query` (e.g. `"scene=pong"`), recording every request the page makes to `/rtool/`.
 */
export async function openInPageArena(query = ""): Promise<InPageArena> {
  const app = await startArenaApp({ port: 0 });
  try {
    const browser = await openArena(`${app.url}?engine=in-page${query ? `&${query}` : ""}`);
    const rtoolRequests: string[] = [];
    browser.page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/rtool/")) rtoolRequests.push(request.url());
    });
    return {
      app,
      browser,
      rtoolRequests,
      async close() {
        await browser.close();
        await app.stop();
      },
    };
  } catch (error) {
    await app.stop();
    throw error;
  }
}
