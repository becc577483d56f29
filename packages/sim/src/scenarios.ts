/**
 * The reference scenarios the worlds serve, loaded from copies inside this package so that
 * `@rtool/sim` works outside this repository. `scenarios.test.ts` keeps the copies
 * equal to the repository's `scenarios/` folder.
 */
import digitalHuman from "./scenarios/digital_human.json";
import flappyBird from "./scenarios/flappy_bird.json";
import neonArenaShip from "./scenarios/neon_arena_ship.json";
import pong from "./scenarios/pong.json";
import roboticArm from "./scenarios/robotic_arm.json";
import towerDefense from "./scenarios/tower_defense.json";
import type { ScenarioTool, ToolCall } from "./world";

/** One worked example of a scenario file. */
export interface ScenarioExample {
  query: string;
  environment?: string[];
  history?: string[];
  expected: ToolCall;
}

/** A scenario file: title, v2 system prompt, tools and examples. */
export interface Scenario {
  title: string;
  system: string;
  tools: ScenarioTool[];
  examples: ScenarioExample[];
}

/**
 * The scenario files this package copies, by file name without `.json`. JSON imports widen
 * literal types (`"function"` becomes `string`), hence the casts; the copy test pins the content.
 */
export const scenarios = {
  robotic_arm: roboticArm as unknown as Scenario,
  digital_human: digitalHuman as unknown as Scenario,
  tower_defense: towerDefense as unknown as Scenario,
  neon_arena_ship: neonArenaShip as unknown as Scenario,
  pong: pong as unknown as Scenario,
  flappy_bird: flappyBird as unknown as Scenario,
} as const;

export type ScenarioName = keyof typeof scenarios;

/** A deep copy of a scenario's tools, so a caller mutating them cannot change another world's. */
export function scenarioTools(name: ScenarioName): ScenarioTool[] {
  return structuredClone(scenarios[name].tools);
}
