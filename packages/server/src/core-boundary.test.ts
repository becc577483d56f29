/**
 * The server's side of the line in docs/ARCHITECTURE.md: packages/server imports `@rtool/core`'s
 * public API and never a tensor. No file under src imports onnxruntime, reaches into core's
 * sources, or names a batch internal (the merging runtime, the prefix cache's class, KV, masks,
 * step tensors): the server builds its one `SequenceBatch` from options and works in sequences.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = import.meta.dir;
const THIS_FILE = "core-boundary.test.ts";

/** Module specifiers the server must not import: the native or web runtime, core's files. */
const FORBIDDEN_MODULE =
  /^(onnxruntime(-[a-z]+)?(\/.*)?|@rtool\/core\/.+|(\.\.\/)+(core|packages\/core)\/.*)$/;

/** Names of `@rtool/core` that belong below its `SequenceBatch`: passes, KV, masks, tensors. */
const CORE_INTERNALS = new Set([
  "BatchedRuntime",
  "BatchedRuntimeOptions",
  "PrefixCache",
  "KvOps",
  "PrefixMatch",
  "KvLineage",
  "KvAnchor",
  "layoutSharedPast",
  "SharedPastLayout",
  "mergeSteps",
  "KvLayout",
  "PassCostModel",
  "PassCostOptions",
  "SplitKv",
  "copyPositions",
  "KvRun",
  "KvSource",
  "MaskRow",
  "buildStepMask",
  "causalRows",
  "MASKED",
  "causalMask",
  "KvShape",
  "KvState",
  "emptyKvState",
  "kvStateBytes",
  "sliceKvState",
  "StepInput",
  "StepOutput",
  "OrtDecoderRuntime",
  "OrtSessionRuntime",
]);

interface ImportOf {
  file: string;
  module: string;
  names: string[];
}

/** Every .ts file under `dir`, relative to SRC. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [relative(SRC, path)] : [];
  });
}

/** The imports and re-exports of one source text (static, dynamic and `require`), with the names they bind. */
function importsOf(file: string, text: string): ImportOf[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/[^\n]*/g, "$1");
  const found: ImportOf[] = [];
  for (const m of code.matchAll(/\b(?:import|export)\s+(?:type\s+)?([^;'"]*?)\s*from\s*["']([^"']+)["']/g)) {
    const braces = /\{([^}]*)\}/.exec(m[1]!)?.[1] ?? "";
    const names = braces
      .split(",")
      .map((part) =>
        part
          .trim()
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)[0]!
          .trim(),
      )
      .filter((name) => name.length > 0);
    found.push({ file, module: m[2]!, names });
  }
  for (const m of code.matchAll(/\b(?:import|require)\s*\(\s*["']([^"']+)["']/g)) {
    found.push({ file, module: m[1]!, names: [] });
  }
  for (const m of code.matchAll(/\bimport\s+["']([^"']+)["']/g))
    found.push({ file, module: m[1]!, names: [] });
  return found;
}

/** What the server may not import, one line per offence. */
function offences(imports: readonly ImportOf[]): string[] {
  return imports.flatMap(({ file, module, names }) => {
    if (FORBIDDEN_MODULE.test(module)) return [`${file}: imports ${module}`];
    if (module !== "@rtool/core") return [];
    return names
      .filter((name) => CORE_INTERNALS.has(name))
      .map((name) => `${file}: imports ${name} from @rtool/core`);
  });
}

test("the scan finds what it looks for", () => {
  const sample = [
    'import * as ort from "onnxruntime-node";',
    "import { type KvState, SequenceBatch } from '@rtool/core';",
    'export { BatchedRuntime as Merging } from "@rtool/core";',
    'import { buildStepMask } from "@rtool/core/src/batch/tree-mask";',
    'const web = await import("onnxruntime-web");',
    '// import { PrefixCache } from "@rtool/core"; (a comment)',
    'import { SequenceBatch as Batch, type SequenceBatchStats } from "@rtool/core";',
  ].join("\n");
  expect(offences(importsOf("sample.ts", sample))).toEqual([
    "sample.ts: imports onnxruntime-node",
    "sample.ts: imports KvState from @rtool/core",
    "sample.ts: imports BatchedRuntime from @rtool/core",
    "sample.ts: imports @rtool/core/src/batch/tree-mask",
    "sample.ts: imports onnxruntime-web",
  ]);
});

test("packages/server/src imports no onnxruntime and no core batch internal", () => {
  const files = sources(SRC).filter((file) => file !== THIS_FILE);
  const imports = files.flatMap((file) => importsOf(file, readFileSync(join(SRC, file), "utf8")));
  // The scan sees the server's real imports of core (not a vacuous pass).
  expect(imports.some((i) => i.module === "@rtool/core" && i.names.includes("SequenceBatch"))).toBe(true);
  expect(offences(imports)).toEqual([]);
});
