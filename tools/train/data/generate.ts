import { checkTargetCall } from "./call-check";
import { drawGeneric } from "./generic";
import { Phrasing } from "./phrasing";
import { Prng } from "./prng";
import { drawFlappy, drawNeonShip, drawPong } from "./scenarios/arcade";
import { drawAssistant } from "./scenarios/assistant";
import { drawDigitalHuman } from "./scenarios/digital-human";
import type { Draw, ScenarioDrawer } from "./scenarios/draw";
import { drawRoboticArm } from "./scenarios/robotic-arm";
import { drawTowerDefense } from "./scenarios/tower-defense";
import { drawSynthetic, makeToolSet, syntheticSpecs, syntheticSystem } from "./synthetic";
import type { Example, Lang, PromptFormat, ScenarioFile, Split, ToolSpec } from "./types";

/**
 * Dedicated phrasings by scenario file stem. A scenario file without an entry here (or whose
 * tools no longer fit the drawer's calls) is still generated, through {@link drawGeneric}.
 */
export const SCENARIO_DRAWERS: Record<string, ScenarioDrawer> = {
  assistant: drawAssistant,
  digital_human: drawDigitalHuman,
  flappy_bird: drawFlappy,
  neon_arena_ship: drawNeonShip,
  pong: drawPong,
  robotic_arm: drawRoboticArm,
  tower_defense: drawTowerDefense,
};

/** Examples that share one system prefix: same tool set (in the same order), format and system. */
export interface ExampleGroup {
  scenario: string;
  format: PromptFormat;
  system: string;
  tools: ToolSpec[];
  items: Example[];
}

export interface GenerateOptions {
  split: Split;
  seed: number | string;
  /** Items per reference scenario (both languages and formats together). */
  itemsPerScenario: number;
  /** Items on random synthetic tool sets. */
  syntheticItems: number;
  minGroup?: number;
  maxGroup?: number;
}

/**
 * Generates one split as prefix-sharing groups. Queries equal to a reference example's are
 * dropped, so the evaluation examples are never trained on.
 *
 * @example
 * const groups = generateGroups(loadScenarios(dir), { split: "train", seed: 1, itemsPerScenario: 9000, syntheticItems: 40000 });
 */
export function generateGroups(scenarios: ScenarioFile[], opts: GenerateOptions): ExampleGroup[] {
  const root = new Prng(`${opts.split}:${opts.seed}`);
  const minGroup = opts.minGroup ?? 8;
  const maxGroup = opts.maxGroup ?? 32;
  const forbidden = new Set(scenarios.flatMap((s) => s.examples.map((e) => normalizeQuery(e.query))));
  const groups: ExampleGroup[] = [];

  for (const scenario of scenarios) {
    const r = root.fork(scenario.id);
    const drawer = SCENARIO_DRAWERS[scenario.id];
    let made = 0;
    // Formats alternate by group so every scenario/format cell gets its share, even in small splits.
    let groupIndex = 0;
    while (made < opts.itemsPerScenario) {
      const format: PromptFormat = groupIndex++ % 2 === 0 ? "v1" : "v2";
      const system = format === "v2" && r.chance(0.2) ? "" : scenario.system;
      const tools = r.chance(0.35) ? r.shuffle(scenario.tools) : scenario.tools;
      const group: ExampleGroup = { scenario: scenario.id, format, system, tools, items: [] };
      const size = Math.min(r.int(minGroup, maxGroup), opts.itemsPerScenario - made);
      while (group.items.length < size) {
        const lang: Lang = r.chance(0.5) ? "en" : "zh";
        const ph = new Phrasing(r, lang, opts.split);
        const draw = drawFor(scenario, drawer, ph);
        if (forbidden.has(normalizeQuery(draw.query))) continue;
        group.items.push(toExample(scenario.id, lang, tools, system, draw));
      }
      made += group.items.length;
      groups.push(group);
    }
  }

  const r = root.fork("synthetic");
  let made = 0;
  let groupIndex = 0;
  while (made < opts.syntheticItems) {
    const format: PromptFormat = groupIndex++ % 2 === 0 ? "v1" : "v2";
    const set = makeToolSet(r);
    const tools = syntheticSpecs(set);
    const system = format === "v2" ? syntheticSystem(r) : "";
    const group: ExampleGroup = { scenario: "synthetic", format, system, tools, items: [] };
    const size = Math.min(r.int(minGroup, maxGroup), opts.syntheticItems - made);
    while (group.items.length < size) {
      const lang: Lang = r.chance(0.5) ? "en" : "zh";
      const draw = drawSynthetic(new Phrasing(r, lang, opts.split), set);
      group.items.push(toExample("synthetic", lang, tools, system, draw));
    }
    made += group.items.length;
    groups.push(group);
  }
  return groups;
}

function drawFor(scenario: ScenarioFile, drawer: ScenarioDrawer | undefined, ph: Phrasing): Draw {
  if (drawer) {
    const draw = drawer(ph);
    try {
      checkTargetCall(scenario.id, scenario.tools, draw.call);
      return draw;
    } catch {
      // The scenario file changed under its drawer; the generic phrasing still fits it.
    }
  }
  return drawGeneric(ph, scenario.tools);
}

function toExample(scenario: string, lang: Lang, tools: ToolSpec[], system: string, draw: Draw): Example {
  checkTargetCall(scenario, tools, draw.call);
  const example: Example = {
    scenario,
    lang,
    tools,
    system,
    query: tidyQuery(draw.query),
    history: draw.history,
    call: draw.call,
  };
  if (draw.environment && draw.environment.length > 0) example.environment = draw.environment;
  return example;
}

/** Collapses the spacing that empty template slots leave behind. */
export function tidyQuery(text: string): string {
  return text
    .split("\n")
    .map((line) =>
      line
        .replace(/ {2,}/g, " ")
        .replace(/ +([,.!?，。！？])/g, "$1")
        .replace(/([,，]) *([,，])/g, "$1")
        .replace(/^[ ,，]+|[ ,，]+$/g, ""),
    )
    .join("\n");
}

function normalizeQuery(q: string): string {
  return q.toLowerCase().replace(/\s+/g, " ").trim();
}

/** The reference scenario examples as evaluation groups (one per scenario and format). */
export function exampleGroups(scenarios: ScenarioFile[]): ExampleGroup[] {
  const groups: ExampleGroup[] = [];
  for (const s of scenarios) {
    for (const format of ["v1", "v2"] as const) {
      groups.push({
        scenario: s.id,
        format,
        system: s.system,
        tools: s.tools,
        items: s.examples.map((e) => ({
          scenario: s.id,
          lang: /[\u3400-\u9fff]/.test(e.query) ? "zh" : "en",
          tools: s.tools,
          system: s.system,
          query: e.query,
          ...(e.environment ? { environment: e.environment } : {}),
          history: e.history ?? [],
          call: e.expected,
        })),
      });
    }
  }
  return groups;
}
