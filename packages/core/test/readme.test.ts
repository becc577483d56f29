/**
 * packages/core/README.md's examples compile: every ```ts block, as a file of its own, passes the
 * TypeScript compiler against `@rtool/core`'s sources. An example naming something core no longer
 * exports, or a variable it never declares, fails here.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const PACKAGE = join(import.meta.dir, "..");

/** Every ```ts block of a markdown text, without its fences. */
function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)\n```$/gm)].map((m) => m[1]!);
}

test("every ts block of packages/core/README.md typechecks (tsc)", async () => {
  const blocks = tsBlocks(readFileSync(join(PACKAGE, "README.md"), "utf8"));
  expect(blocks.length).toBeGreaterThanOrEqual(3);
  // Inside the package, so `@rtool/core` and zod resolve as they do for a user.
  const dir = mkdtempSync(join(import.meta.dir, ".readme-check-"));
  try {
    const files = blocks.map((block, i) => {
      const file = join(dir, `block-${i}.ts`);
      writeFileSync(file, `${block}\n`);
      return file;
    });
    const tsc = require.resolve("typescript/lib/tsc.js");
    const options = ["--noEmit", "--strict", "--target", "ES2022", "--module", "ESNext"];
    options.push("--moduleResolution", "bundler", "--customConditions", "bun", "--skipLibCheck");
    options.push("--verbatimModuleSyntax", "--isolatedModules", "--resolveJsonModule");
    options.push("--types", "bun", "--lib", "ES2022,DOM");
    const proc = Bun.spawn([process.execPath, tsc, ...options, ...files], {
      cwd: PACKAGE,
      stdout: "pipe",
      stderr: "pipe",
    });
    const output = (await new Response(proc.stdout).text()) + (await new Response(proc.stderr).text());
    // An error names the README block (block-<i>.ts: the i-th ts block, from 0), not the temporary folder.
    expect(output.replaceAll(relative(PACKAGE, dir), "README.md")).toBe("");
    expect(await proc.exited).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 600_000);
