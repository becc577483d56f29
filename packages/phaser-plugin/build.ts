/**
 * Builds the published package: one ESM bundle (`dist/index.js`, Phaser left external as the
 * peer dependency it is) and the `.d.ts` files from `tsc`. `bun run build`.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";

const root = import.meta.dir;
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });

const result = await Bun.build({
  entrypoints: [
    join(root, "src/index.ts"),
    join(root, "src/headless.ts"),
    join(root, "src/in-page/index.ts"),
  ],
  outdir: dist,
  format: "esm",
  target: "browser",
  external: ["phaser"],
  sourcemap: "linked",
  // index.js re-exports headless.js's code through a shared chunk instead of a second copy.
  splitting: true,
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}

const tsc = Bun.spawnSync(["bunx", "tsc", "-p", join(root, "tsconfig.build.json")], {
  cwd: root,
  stdout: "inherit",
  stderr: "inherit",
});
if (tsc.exitCode !== 0) process.exit(tsc.exitCode ?? 1);
console.log(
  `built ${result.outputs.map((output) => output.path.slice(root.length + 1)).join(", ")} and declarations`,
);
