/**
 * The root README's quick start and "ten lines" are copies of the examples' marked parts
 * (`// README:<name>` to `// README:end`): an edit to either side without the other fails here,
 * so the README never shows code that the example tests no longer run.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { EXAMPLES_DIR } from "./run";

const README = readFileSync(join(EXAMPLES_DIR, "..", "README.md"), "utf8");

/** The marked parts of one example file, by name; blank lines at either end dropped. */
function readmeParts(source: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const match of source.matchAll(/^\/\/ README:([\w-]+)\n([\s\S]*?)^\/\/ README:end$/gm)) {
    const [, name, body] = match;
    if (name === "end") continue;
    parts.set(name!, body!.replace(/^\n+/, "").replace(/\n+$/, ""));
  }
  return parts;
}

/** Every ```ts block of a markdown text, without its fences. */
function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)\n```$/gm)].map((m) => m[1]!);
}

const sources = readdirSync(join(EXAMPLES_DIR, "src")).filter((f) => f.endsWith(".ts"));

test.each(sources)("the README holds %s's marked part verbatim", (file) => {
  const parts = readmeParts(readFileSync(join(EXAMPLES_DIR, "src", file), "utf8"));
  expect(parts.size).toBe(1);
  const blocks = tsBlocks(README);
  for (const [name, body] of parts) {
    // A readable failure: it names the file and part instead of printing the whole README.
    const same = blocks.includes(body);
    if (!same)
      console.error(`README has no \`\`\`ts block equal to examples/src/${file} (// README:${name})`);
    expect(same).toBe(true);
  }
});

test("every ts block of the README's code is one of the examples' parts", () => {
  const parts = sources.flatMap((file) => [
    ...readmeParts(readFileSync(join(EXAMPLES_DIR, "src", file), "utf8")).values(),
  ]);
  for (const block of tsBlocks(README)) expect(parts).toContain(block);
});

test("the quick start starts the server with bunx and says how another origin reaches it", () => {
  expect(README).toContain("bunx rtool-server ");
  expect(README).toMatch(/--cors http:\/\/localhost:\d+/);
});
