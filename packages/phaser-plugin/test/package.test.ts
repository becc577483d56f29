import { expect, test } from "bun:test";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

// tsc over Phaser's 150k lines of types takes a few seconds on a busy machine.
test("the build gives an ESM bundle with phaser external, and bun pm pack ships dist, the non-test sources, README, LICENSE and package.json", async () => {
  const build = Bun.spawnSync(["bun", "run", "build"], { cwd: root, stderr: "pipe", stdout: "pipe" });
  expect(build.stderr.toString()).not.toContain("error");
  expect(build.exitCode).toBe(0);

  const bundle = await Bun.file(join(root, "dist/index.js")).text();
  expect(bundle).toMatch(/^import \w+ from "phaser";$/m);
  expect(bundle).toContain("export {");
  expect(bundle).not.toContain("bun:test");
  // The headless entry (and the chunk it shares with index.js) must load without Phaser.
  const headless = await Bun.file(join(root, "dist/headless.js")).text();
  expect(headless).not.toContain('from "phaser"');
  // @rtool/client is bundled in: the published files import nothing from the workspace.
  expect(`${bundle}\n${headless}`).not.toMatch(/from "@rtool\//);
  const node = Bun.spawnSync(
    [
      "node",
      "--input-type=module",
      "-e",
      'const m = await import("./dist/headless.js"); console.log(typeof m.AgentClient)',
    ],
    { cwd: root, stdout: "pipe", stderr: "pipe" },
  );
  expect(node.stdout.toString().trim()).toBe("function");

  const pack = Bun.spawnSync(["bun", "pm", "pack", "--dry-run"], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(pack.exitCode).toBe(0);
  const files = [...pack.stdout.toString().matchAll(/^packed \S+ (\S+)$/gm)].map((m) => m[1]!).sort();
  for (const file of [
    "package.json",
    "README.md",
    "LICENSE",
    "dist/index.js",
    "dist/index.d.ts",
    "dist/headless.js",
    "dist/headless.d.ts",
    "dist/plugin.d.ts",
  ])
    expect(files).toContain(file);
  // The sources ride along for the `bun` export condition; tests and fixtures do not.
  expect(files.filter((f) => /test/.test(f))).toEqual([]);
  expect(
    files.every((f) => ["package.json", "README.md", "LICENSE"].includes(f) || /^(dist|src)\//.test(f)),
  ).toBe(true);

  const manifest = (await Bun.file(join(root, "package.json")).json()) as {
    dependencies?: Record<string, string>;
    peerDependencies: Record<string, string>;
    exports: Record<string, Record<string, string>>;
  };
  // Every condition points at a file the tarball holds (no `development` -> unpublished src).
  for (const conditions of Object.values(manifest.exports))
    if (typeof conditions === "object")
      for (const target of Object.values(conditions)) expect(files).toContain(target.replace(/^\.\//, ""));
  // Light packages only (both bundled into dist; the declarations name their types): no core, no zod at run time.
  expect(Object.keys(manifest.dependencies ?? {})).toEqual(["@rtool/client", "@rtool/contract"]);
  expect(manifest.peerDependencies.phaser).toBeDefined();
  expect(manifest.dependencies?.phaser).toBeUndefined();
  expect(manifest.exports["."].types).toBe("./dist/index.d.ts");
  expect(manifest.exports["."].import).toBe("./dist/index.js");
  expect(manifest.exports["./headless"].types).toBe("./dist/headless.d.ts");
}, 120_000);
