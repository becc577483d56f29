/**
 * Import cycles among the repository's own modules: each workspace's `src` files and the
 * relative imports between them (type-only ones included, since a cycle of types still ties two
 * modules' meanings together). A cycle is a strongly connected group of two or more files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPO_ROOT } from "./public-names";

function sourceFiles(dir: string, into: string[]): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") continue;
    if (statSync(path).isDirectory()) sourceFiles(path, into);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) into.push(resolve(path));
  }
  return into;
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?[^;]*?from\s+["'](\.[^"']+)["']/g;

/** The import graph of every `packages/*\/src` and `apps/*\/src` file. */
export function importGraph(root = REPO_ROOT): Map<string, string[]> {
  const files: string[] = [];
  for (const group of ["packages", "apps"]) {
    for (const workspace of readdirSync(join(root, group))) {
      const src = join(root, group, workspace, "src");
      if (existsSync(src)) sourceFiles(src, files);
    }
  }
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const base = resolve(dirname(file), specifier!);
      const target = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((c) => known.has(c));
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The cycles of a graph (Tarjan's strongly connected components of two or more files), as repository paths. */
export function importCycles(graph = importGraph()): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(relative(REPO_ROOT, member));
    } while (member !== file);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
