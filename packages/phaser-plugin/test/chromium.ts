/**
 * What the browser tests of the plugin and of apps built on it share (test-only, never packed):
 * Debian's chromium, the flags it runs headless with, and a URL where no server listens.
 */
import { existsSync } from "node:fs";

/** Debian's chromium (`apt-get install -y chromium`); browser tests skip where it is absent. */
export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

/** Headless, sandbox-free, GPU-free, and quiet: no network of its own, no updates, no first-run UI. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** A loopback URL where nothing listens (a port that was just free), so connections are refused at once. */
export function closedPortUrl(): string {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const url = `http://127.0.0.1:${probe.port}`;
  probe.stop(true);
  return url;
}
