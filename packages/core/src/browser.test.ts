import { expect, test } from "bun:test";
import { join } from "node:path";

/** Specifiers a browser bundle cannot resolve: Node built-ins and the native runtime. */
const NODE_ONLY = /^(node:.*|onnxruntime-node|fs|path|os|child_process|worker_threads|crypto|url|util)$/;

test("the browser entry bundles for the browser with no Node-only import", async () => {
  const nodeOnly: string[] = [];
  const result = await Bun.build({
    entrypoints: [join(import.meta.dir, "browser.ts")],
    target: "browser",
    // the workspace packages' sources, as the arena's bundler reads them: their `dist` exists only
    // after a build, which this test must not depend on
    conditions: ["bun"],
    plugins: [
      {
        name: "record-node-only",
        setup(build) {
          build.onResolve({ filter: NODE_ONLY }, (args) => {
            nodeOnly.push(`${args.path} (from ${args.importer})`);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  expect(result.logs.filter((log) => log.level === "error").map(String)).toEqual([]);
  expect(nodeOnly).toEqual([]);
  expect(result.success).toBe(true);
}, 60_000);
