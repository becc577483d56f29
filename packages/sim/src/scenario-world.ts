/**
 * What every world writes alike (internal: the worlds spread it and add their calls, state and
 * extras), and the fixed-frame clock of the frame-based games.
 */
import { type ScenarioName, scenarios } from "./scenarios";
import { checkStep, type ScenarioTool, type World, type WorldEvent } from "./world";

/** The scenario-file half of a {@link World}: everything but `apply`, `history` and `state`. */
export type ScenarioWorldBase = Pick<
  World<unknown>,
  "name" | "tools" | "system" | "environment" | "describe" | "step"
>;

/**
 * A world's name and system prompt from the scenario file, its `tools`, `describe` as the
 * `environment` lines joined, and `step` checking its time before `advance` runs.
 *
 * @example
 * return { ...scenarioWorld("pong", tools, environment, advance), apply, history, state };
 */
export function scenarioWorld(
  name: ScenarioName,
  tools: ScenarioTool[],
  environment: () => string[],
  advance: (dtSeconds: number) => WorldEvent[],
): ScenarioWorldBase {
  return {
    name,
    tools,
    system: scenarios[name].system,
    environment,
    describe: () => environment().join("\n"),
    step(dtSeconds: number): WorldEvent[] {
      checkStep(dtSeconds);
      return advance(dtSeconds);
    },
  };
}

/**
 * Whole frames of `frameS` seconds in the time stepped so far: the remainder carries over, so
 * any sequence of time steps gives the same frames.
 */
export function frameClock(frameS: number): { frames(dtSeconds: number): number; reset(): void } {
  let carryS = 0;
  return {
    frames(dtSeconds: number): number {
      carryS += dtSeconds;
      const frames = Math.floor(carryS / frameS + 1e-9);
      carryS -= frames * frameS;
      return frames;
    },
    reset(): void {
      carryS = 0;
    },
  };
}
