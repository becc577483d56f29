/**
 * Builds one publishable package into its `dist/` (run from the package folder; every package's
 * `build` and `prepack` call it): an ESM bundle per entry point with dependencies left external,
 * and `.d.ts` files from `tsc -p tsconfig.build.json`. Packages depending on other workspace
 * packages need those built first (turbo's `^build`, or pack them in dependency order), because
 * the declarations resolve `@rtool/*` through their published `types`, not their sources.
 *
 * @example
 * // packages/core/package.json
 * "prepack": "bun ../../scripts/build-package.ts --target bun src/index.ts"
 */
import { existsSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

type Target = "bun" | "node" | "browser";

interface BuildArgs {
  target: Target;
  entries: string[];
  /** Bundled in rather than imported at run time (the plugin bundles @rtool/client). */
  bundle: string[];
}

function parseArgs(argv: readonly string[]): BuildArgs {
  const args: BuildArgs = { target: "bun", entries: [], bundle: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--target") args.target = argv[++i] as Target;
    else if (arg === "--bundle") args.bundle.push(argv[++i]!);
    else if (arg.startsWith("--")) throw new Error(`build-package: unknown option ${arg}`);
    else args.entries.push(arg);
  }
  if (!["bun", "node", "browser"].includes(args.target))
    throw new Error(`build-package: --target must be bun, node or browser, not ${args.target}`);
  if (args.entries.length === 0) throw new Error("build-package: name at least one entry point");
  return args;
}

const root = process.cwd();
const args = parseArgs(process.argv.slice(2));
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });

const manifest = (await Bun.file(join(root, "package.json")).json()) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
// What the package declares it depends on is imported at run time, never copied in.
const external = [
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}),
]
  .filter((name) => !args.bundle.includes(name))
  .flatMap((name) => [name, `${name}/*`]);

const result = await Bun.build({
  entrypoints: args.entries.map((entry) => join(root, entry)),
  outdir: dist,
  root: join(root, "src"),
  format: "esm",
  target: args.target,
  // what is bundled in from the workspace (the plugin's @rtool/client) is read from its sources
  conditions: ["bun"],
  external,
  sourcemap: "linked",
  splitting: args.entries.length > 1,
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}

const tsconfig = join(root, "tsconfig.build.json");
if (!existsSync(tsconfig)) throw new Error(`build-package: ${tsconfig} is missing`);
const tsc = Bun.spawnSync(["bun", "x", "tsc", "-p", tsconfig], {
  cwd: root,
  stdout: "inherit",
  stderr: "inherit",
});
if (tsc.exitCode !== 0) process.exit(tsc.exitCode ?? 1);
console.log(`built ${result.outputs.map((o) => relative(root, o.path)).join(", ")} and declarations`);
