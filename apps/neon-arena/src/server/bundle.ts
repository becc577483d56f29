/**
 * Browser bundles of the app's client entries (`src/client`), built with `Bun.build`: the page's
 * game and the in-page worker.
 */
import { join } from "node:path";

/** Thrown when the game bundle does not build. */
export class BundleError extends Error {
  readonly logs: string[];
  constructor(logs: string[]) {
    super(`the Neon Arena bundle failed to build:\n${logs.join("\n")}`);
    this.name = "BundleError";
    this.logs = logs;
  }
}

/**
 * Bundles one browser entry of `src/client` (the page's `main.ts`, the in-page worker). The
 * plugin and core resolve to their TypeScript sources through the "bun" export condition (the
 * workspace sources), so no package build is needed first.
 */
export async function bundleClient(entry: string, minify = false): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(import.meta.dir, "..", "client", entry)],
    target: "browser",
    format: "esm",
    conditions: ["bun"],
    minify,
  });
  if (!result.success) throw new BundleError(result.logs.map((log) => String(log)));
  return result.outputs[0]!.text();
}

/** Builds the page's bundle. */
export async function buildArenaBundle(minify = false): Promise<string> {
  return bundleClient("main.ts", minify);
}
