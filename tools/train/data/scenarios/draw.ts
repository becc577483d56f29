import { formatCallForHistory } from "../../../../packages/core/src/index";
import type { Phrasing } from "../phrasing";
import type { TargetCall } from "../types";

/** One generated request for a known scenario: everything but the tool set and system. */
export interface Draw {
  query: string;
  environment?: string[];
  history: string[];
  call: TargetCall;
}

/** Draws one example for a scenario, in `ph.lang`, for `ph.split`. */
export type ScenarioDrawer = (ph: Phrasing) => Draw;

/**
 * Puts environment lines either into the `environment` field or in front of the query
 * (the reference examples use both), so the model reads state from either place.
 */
export function placeEnvironment(
  ph: Phrasing,
  env: string[],
  query: string,
  history: string[],
  call: TargetCall,
): Draw {
  if (env.length === 0) return { query, history, call };
  if (ph.rng.chance(0.5)) return { query, environment: env, history, call };
  return { query: `${env.join("\n")}\n\n${query}`, history, call };
}

/**
 * The history a client sends beside a command: with probability `chance`, 1..`max` earlier calls
 * of the same world (drawn by `earlier`) in core's `formatCallForHistory` form, which
 * `@rtool/sim`'s worlds use, else none, as a game's first frame has. The sims and the
 * Phaser plugin send an agent's own calls on every request, so a model trained only on empty
 * histories repeats the last call it sees there instead of reading the new command.
 */
export function priorCalls(ph: Phrasing, earlier: () => TargetCall, max: number, chance = 0.6): string[] {
  if (!ph.rng.chance(chance)) return [];
  return Array.from({ length: ph.rng.int(1, max) }, () => formatCallForHistory(earlier()));
}

/** Formats a number the way people type it (integers plain, else up to two decimals). */
export function num(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}
