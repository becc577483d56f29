/**
 * The one test command: runs `bun test` in every workspace package that has tests (and in
 * examples and tools/train), one package at a time so fixtures resolve relative to the package, streams the output, and closes with the
 * line CI reads: "N passed, N failed".
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const workspaces = [
  ...["packages", "apps"].flatMap((group) => {
    const dir = join(root, group);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .map((name) => join(dir, name))
      .filter((p) => existsSync(join(p, "package.json")));
  }),
  // the runnable examples the README's quick start is copied from: one workspace member
  join(root, "examples"),
  // the rt-tiny data generator and its hand-written eval set: no package, but tested the same way
  join(root, "tools", "train"),
];

// The peer engines (node-llama-cpp, transformers.js) are an optional install of their own
// (`bun run peers:install`, about 700 MB); their round-trip tests run only where they are there.
const peerEngines = join(root, "bench", "node_modules", "node-llama-cpp");
if (existsSync(peerEngines)) workspaces.push(join(root, "bench"));
else
  console.log(
    "bench/peer-roundtrip.test.ts not run: the optional peer engines are not installed (bun run peers:install; CI installs them)",
  );

function hasTests(dir: string): boolean {
  const walk = (d: string): boolean =>
    readdirSync(d).some((name) => {
      if (name === "node_modules" || name === "dist") return false;
      const p = join(d, name);
      if (statSync(p).isDirectory()) return walk(p);
      return /\.test\.(ts|tsx|js)$/.test(name);
    });
  return walk(dir);
}

const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
let brokenRuns = 0;
for (const dir of workspaces) {
  const name = dir.slice(root.length + 1);
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  if (!hasTests(dir)) continue;
  console.log(`\n=== ${name}`);
  const proc = Bun.spawn(["bun", "test", "--timeout", "300000"], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  process.stdout.write(out);
  process.stdout.write(err);
  const text = `${out}\n${err}`;
  const pass = Number(/^\s*(\d+) pass\s*$/m.exec(text)?.[1] ?? 0);
  const fail = Number(/^\s*(\d+) fail\s*$/m.exec(text)?.[1] ?? 0);
  passed += pass;
  failed += fail;
  if (code !== 0 && fail === 0) {
    // A crash or a load error outside any test still has to fail the run.
    brokenRuns += 1;
    failed += 1;
    console.log(`!!! bun test in ${name} exited ${code} without a failing test: counted as one failure`);
  }
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || brokenRuns > 0 || passed === 0 ? 1 : 0);
