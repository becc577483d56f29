/**
 * Test helpers for the engine tests: the reference scenarios, and a fixture model whose context
 * fits their prompts (the fixtures' tokenizers are byte-level, so a scenario prompt is a few
 * thousand tokens; the fixtures declare 512).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One reference example as a function-call body's parts. */
export interface ScenarioExample {
  scenario: string;
  system: string;
  tools: unknown[];
  query: string;
  environment?: string[];
  history?: string[];
}

const SCENARIO_DIRS = [
  join(import.meta.dir, "../../sim/src/scenarios"),
  // The sim keeps the game and robot scenarios; the assistant scenario lives here.
  join(import.meta.dir, "fixtures"),
];

/** Every example of every reference scenario. */
export function scenarioExamples(): ScenarioExample[] {
  const out: ScenarioExample[] = [];
  for (const dir of SCENARIO_DIRS) {
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort()) {
      const scenario = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
        system: string;
        tools: unknown[];
        examples: { query: string; environment?: string[]; history?: string[] }[];
      };
      for (const example of scenario.examples) {
        out.push({ scenario: file, system: scenario.system, tools: scenario.tools, ...example });
      }
    }
  }
  return out;
}

/**
 * A copy of a core fixture model with `max_position_embeddings` raised; `dispose()` removes it.
 * RoPE and the explicit attention mask work at any position, so only the declared limit changes.
 */
export function longContextFixture(name: string, positions = 8192): { dir: string; dispose(): void } {
  const source = join(import.meta.dir, "../../core/test/fixtures", name);
  const dir = mkdtempSync(join(tmpdir(), `rtool-${name}-`));
  cpSync(source, dir, { recursive: true });
  const configFile = join(dir, "config.json");
  const config = JSON.parse(readFileSync(configFile, "utf8")) as Record<string, unknown>;
  writeFileSync(configFile, JSON.stringify({ ...config, max_position_embeddings: positions }, null, 2));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
