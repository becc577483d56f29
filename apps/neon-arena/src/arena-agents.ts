/**
 * The Neon Arena's agents, declared once for the Phaser scene and for the headless arena
 * (`src/headless/`, what `bun run bench:arena` drives): what each sends (system prompt, tools
 * scope, query, environment, history) and at what rate. Keeping one declaration means the
 * benchmark measures the prompts players' games send, not a look-alike.
 */
import type { AgentSpec } from "@rtool/phaser-plugin/headless";
import type { NeonArenaWorld, ShipSpec, TowerDefenseWorld } from "@rtool/sim";

/** The model-driven enemy ships of the shipped arena. */
export const ENEMY_IDS = ["enemy-1", "enemy-2"] as const;
/** Requests per second of each ship's loop in the shipped arena. */
export const SHIP_RATE_HZ = 16;
/**
 * Earlier calls a ship sends with each request: the most rt-tiny's generator puts in a ship's
 * history (0 to 4), so the prompt stays in distribution, and each frame prefills fewer tokens
 * (two calls are about 8 of the 57 tokens a ship's call computed with six).
 */
export const SHIP_HISTORY = 4;
/** The user message of every ship request (the state is in the environment lines). */
export const SHIP_QUERY = "Fire at the player if aligned.";
/** Tool scopes: the squad's orders and the ships' moves never mix in one prompt. */
export const SQUAD_SCOPE = "squad";
export const SHIP_SCOPE = "ship";

/**
 * The squad: no loop of its own (rate 0), it answers the player's typed or spoken orders.
 * `squad` is read at send time, so a fresh world (a new wave set) takes over at once.
 */
export function squadAgentSpec(squad: () => TowerDefenseWorld): AgentSpec {
  return {
    name: "squad",
    rateHz: 0,
    scope: SQUAD_SCOPE,
    system: squad().system,
    environment: () => squad().environment(),
    history: () => squad().history().slice(-6),
  };
}

/** An enemy ship flown by the model from its own view of the field (`ships` read at send time). */
export function shipAgentSpec(id: string, ships: () => NeonArenaWorld, rateHz = SHIP_RATE_HZ): AgentSpec {
  return {
    name: id,
    rateHz,
    scope: SHIP_SCOPE,
    system: ships().system,
    query: SHIP_QUERY,
    environment: () => ships().environment(id),
    history: () => ships().history(id).slice(-SHIP_HISTORY),
  };
}

/**
 * The ships of a field with `enemies` model-driven ships: the shipped arena's two (same ids and
 * places as `createNeonArena`'s default), then more spread over the right half, and the
 * player's ship. More than two is the benchmark's "three model-driven agents" load.
 */
export function arenaShips(enemies: number = ENEMY_IDS.length): ShipSpec[] {
  const places = [
    { x: 700, y: 300 },
    { x: 450, y: 100 },
    { x: 600, y: 500 },
    { x: 800, y: 150 },
    { x: 500, y: 420 },
    { x: 850, y: 450 },
  ];
  if (!(Number.isInteger(enemies) && enemies >= 1 && enemies <= places.length))
    throw new RangeError(`enemies must be 1..${places.length}, got ${enemies}`);
  return [
    ...places.slice(0, enemies).map((at, i) => ({ id: `enemy-${i + 1}`, team: "enemy" as const, ...at })),
    { id: "player", team: "player", x: 100, y: 310 },
  ];
}
