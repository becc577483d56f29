import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ScenarioFile } from "./types";

/** A scenario file that is not valid JSON or lacks the fields the generator needs. */
export class ScenarioFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = "ScenarioFileError";
  }
}

/** The scenarios folder at the repository root (`scenarios/`). */
export function defaultScenarioDir(): string {
  return join(import.meta.dir, "..", "..", "..", "scenarios");
}

/**
 * Reads every `*.json` scenario in `dir`, sorted by name, so a new scenario file is picked
 * up without touching the generator.
 *
 * @example
 * const scenarios = loadScenarios(defaultScenarioDir());
 */
export function loadScenarios(dir: string): ScenarioFile[] {
  const names = readdirSync(dir)
    .filter((n) => n.endsWith(".json"))
    .sort();
  return names.map((name) => {
    const file = join(dir, name);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      throw new ScenarioFileError(name, `not JSON (${(err as Error).message})`);
    }
    const s = raw as Partial<ScenarioFile>;
    if (!Array.isArray(s.tools) || s.tools.length === 0) throw new ScenarioFileError(name, "no tools");
    for (const t of s.tools) {
      if (!t?.function?.name || !t.function.parameters?.properties) {
        throw new ScenarioFileError(name, "a tool lacks function.name or parameters.properties");
      }
    }
    return {
      id: name.replace(/\.json$/, ""),
      title: s.title ?? name,
      system: s.system ?? "",
      tools: s.tools,
      examples: s.examples ?? [],
    };
  });
}
