/**
 * @rtool/sim: deterministic simulated worlds (robot arm, avatar, tower defense, Neon Arena, Pong,
 * Flappy Bird) that apply the reference scenarios' tool calls, for tests and demos without hardware.
 */
export * from "./arm";
export * from "./avatar";
export {
  dispatchCall,
  formatHistoryEntry,
  type ValidArgs,
  validateWorldCall,
  type WorldToolHandler,
} from "./call-dispatch";
export * from "./flappy";
export * from "./lane-combat";
export * from "./neon-arena";
export * from "./pong";
export { createPrng, type Prng } from "./prng";
export {
  type Scenario,
  type ScenarioExample,
  type ScenarioName,
  scenarios,
  scenarioTools,
} from "./scenarios";
export * from "./tower-defense";
export * from "./world";
