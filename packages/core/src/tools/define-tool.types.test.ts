/**
 * Runs the TypeScript compiler on `define-tool.type-test.ts`: handlers typed from zod and JSON
 * Schema compile, and each `@ts-expect-error` there (misuse) meets its error.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

test("typed handlers compile and misuse does not (tsc on define-tool.type-test.ts)", async () => {
  const tsc = require.resolve("typescript/lib/tsc.js");
  const file = join(import.meta.dir, "define-tool.type-test.ts");
  const options = ["--noEmit", "--strict", "--target", "ES2022", "--module", "ESNext"];
  options.push("--moduleResolution", "bundler", "--skipLibCheck", "--verbatimModuleSyntax");
  options.push("--types", "bun", "--lib", "ES2022,DOM");
  // Workspace packages (the call contract) resolve to their sources, as in the repository's tsconfig.
  options.push("--customConditions", "bun");
  const proc = Bun.spawn([process.execPath, tsc, ...options, file], {
    cwd: join(import.meta.dir, "../.."),
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = (await new Response(proc.stdout).text()) + (await new Response(proc.stderr).text());
  expect(output).toBe("");
  expect(await proc.exited).toBe(0);
}, 600_000);
