/**
 * Public names across the published packages: every name each package's public entries export,
 * followed through re-exports to the declaration it comes from. One name for two different
 * things (a `FunctionTool` in the client and another in the plugin) makes a reader, and an
 * import completion, pick the wrong one; re-exporting one declaration from several packages is
 * fine, because it is one thing.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** The repository root. */
export const REPO_ROOT = join(import.meta.dir, "..", "..", "..");

/** Each workspace package's public entry files (the `bun` condition of its `exports`, sources). */
export function publicEntries(root = REPO_ROOT): Map<string, string[]> {
  const entries = new Map<string, string[]>();
  for (const dir of readdirSync(join(root, "packages"))) {
    const folder = join(root, "packages", dir);
    let manifest: { name?: string; private?: boolean; exports?: Record<string, unknown> };
    try {
      manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
    } catch {
      continue;
    }
    if (!manifest.name || manifest.private) continue;
    const files: string[] = [];
    for (const [key, target] of Object.entries(manifest.exports ?? {})) {
      if (key === "./package.json") continue;
      const source = typeof target === "string" ? target : (target as { bun?: string }).bun;
      if (source?.endsWith(".ts")) files.push(join(folder, source));
    }
    if (files.length > 0) entries.set(manifest.name, files);
  }
  return entries;
}

/** A name exported by more than one package for different declarations. */
export interface NameClash {
  name: string;
  /** `package: file` of each distinct declaration. */
  origins: string[];
}

/**
 * Finds the names several packages export for different declarations (after following
 * re-exports and aliases). Type-only and value exports are both counted.
 */
export function findNameClashes(entries = publicEntries()): NameClash[] {
  const files = [...entries.values()].flat();
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ["bun"],
    allowImportingTsExtensions: true,
    resolveJsonModule: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  // name -> declaration id -> packages exporting it
  const seen = new Map<string, Map<string, Set<string>>>();
  for (const [pkg, pkgFiles] of entries) {
    for (const file of pkgFiles) {
      const source = program.getSourceFile(file);
      const moduleSymbol = source && checker.getSymbolAtLocation(source);
      if (!moduleSymbol) throw new Error(`cannot read the exports of ${file}`);
      for (const exported of checker.getExportsOfModule(moduleSymbol)) {
        const original =
          exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const declaration = original.declarations?.[0];
        const id = declaration
          ? `${relative(REPO_ROOT, declaration.getSourceFile().fileName)}:${declaration.pos}`
          : `${pkg}:${exported.name}`;
        const byId = seen.get(exported.name) ?? new Map<string, Set<string>>();
        seen.set(exported.name, byId);
        const packages = byId.get(id) ?? new Set<string>();
        packages.add(pkg);
        byId.set(id, packages);
      }
    }
  }
  const clashes: NameClash[] = [];
  for (const [name, byId] of seen) {
    if (byId.size < 2) continue;
    const origins = [...byId].map(([id, packages]) => `${[...packages].join(", ")}: ${id.split(":")[0]}`);
    clashes.push({ name, origins });
  }
  return clashes.sort((a, b) => a.name.localeCompare(b.name));
}

if (import.meta.main) {
  for (const clash of findNameClashes()) console.log(`${clash.name}\n  ${clash.origins.join("\n  ")}`);
}
