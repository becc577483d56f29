/**
 * Neon Arena: ships on a 900x600 field (x right, y down), the player's squad against enemy ships.
 * Each ship is driven by neon_arena_ship.json's tools: `move` one step or `fire` a bullet along
 * an axis. Bullets fly at a fixed speed, hit the first opposing ship they touch, and leave at
 * the walls.
 *
 * Rules (each refusal is a typed rejection, never a clamp):
 * - a move that would put the ship's hull past a wall is `blocked_by_wall`;
 * - `fire` needs the ship's cooldown to be over (`fire_on_cooldown`);
 * - a destroyed ship cannot act (`destroyed`); an unknown ship id is `unknown_ship`.
 *
 * `apply`, `environment` and `history` act for the controlled ship (option `control`, default
 * the first enemy ship) unless given another ship's id.
 */
import { dispatchCall, type ValidArgs } from "./call-dispatch";
import { scenarioWorld } from "./scenario-world";
import { scenarioTools } from "./scenarios";
import { type ApplyResult, accept, reject, type ToolCall, type World, type WorldEvent } from "./world";

export const ARENA_WIDTH = 900;
export const ARENA_HEIGHT = 600;

export type Team = "player" | "enemy";
export type Direction = "up" | "down" | "left" | "right";

const UNIT: Record<Direction, { x: number; y: number }> = {
  up: { x: 0, y: -1 },
  down: { x: 0, y: 1 },
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
};
const SUBSTEP_S = 1 / 120;
const BULLET_RADIUS = 3;

export interface ShipSpec {
  id: string;
  team: Team;
  x: number;
  y: number;
  hp?: number;
}

export interface NeonArenaOptions {
  /** Default: the player's "player" at (100, 310) and enemies "enemy-1" (700, 300), "enemy-2" (450, 100). */
  ships?: ShipSpec[];
  /** The ship `apply`, `environment` and `history` act for by default; default the first enemy. */
  control?: string;
  moveStepPx?: number;
  bulletSpeedPxPerS?: number;
  fireCooldownS?: number;
  bulletDamage?: number;
  shipRadiusPx?: number;
  /** How close two ships' rows (or columns) must be to count as aligned; default 20 px. */
  alignTolerancePx?: number;
}

export interface ShipState {
  id: string;
  team: Team;
  x: number;
  y: number;
  hp: number;
  cooldownS: number;
  alive: boolean;
}

export interface BulletState {
  id: number;
  owner: string;
  team: Team;
  x: number;
  y: number;
  vx: number;
  vy: number;
}

export interface NeonArenaState {
  t: number;
  width: number;
  height: number;
  ships: ShipState[];
  bullets: BulletState[];
}

export interface NeonArenaWorld extends World<NeonArenaState> {
  /** Applies a call for `shipId` (default: the controlled ship). */
  apply(call: ToolCall, shipId?: string): ApplyResult;
  /** The environment lines as `shipId` sees them (default: the controlled ship). */
  environment(shipId?: string): string[];
  /** `shipId`'s accepted calls (default: the controlled ship). */
  history(shipId?: string): string[];
  /** The ship whose view and calls the world uses by default. */
  readonly control: string;
}

/**
 * Creates a Neon Arena world.
 *
 * @example
 * const arena = createNeonArena({
 *   ships: [{ id: "enemy-1", team: "enemy", x: 700, y: 300 }, { id: "player", team: "player", x: 100, y: 310 }],
 * });
 * arena.environment(); // ["pos=700,300", "player=100,310", "dist=600", "align_h=true", ...]
 * arena.apply({ function: "fire", args: { direction: "left" } });
 * arena.step(2); // a "hit" event on "player"
 */
export function createNeonArena(options: NeonArenaOptions = {}): NeonArenaWorld {
  const tools = scenarioTools("neon_arena_ship");
  const stepPx = options.moveStepPx ?? 20;
  const bulletSpeed = options.bulletSpeedPxPerS ?? 400;
  const cooldownS = options.fireCooldownS ?? 0.5;
  const damage = options.bulletDamage ?? 25;
  const radius = options.shipRadiusPx ?? 15;
  const alignPx = options.alignTolerancePx ?? 20;
  const specs = options.ships ?? [
    { id: "enemy-1", team: "enemy", x: 700, y: 300 },
    { id: "enemy-2", team: "enemy", x: 450, y: 100 },
    { id: "player", team: "player", x: 100, y: 310 },
  ];
  const ships: ShipState[] = specs.map((spec) => ({
    id: spec.id,
    team: spec.team,
    x: spec.x,
    y: spec.y,
    hp: spec.hp ?? 100,
    cooldownS: 0,
    alive: true,
  }));
  const control = options.control ?? ships.find((ship) => ship.team === "enemy")?.id ?? ships[0]?.id ?? "";
  const histories = new Map<string, string[]>(ships.map((ship) => [ship.id, []]));
  let bullets: BulletState[] = [];
  let nextBulletId = 1;
  let t = 0;

  const event = (type: string, detail: Record<string, unknown>): WorldEvent => ({ t, type, detail });
  const insideX = (x: number) => x >= radius && x <= ARENA_WIDTH - radius;
  const insideY = (y: number) => y >= radius && y <= ARENA_HEIGHT - radius;

  function handlersFor(ship: ShipState) {
    return {
      move(args: ValidArgs): ApplyResult {
        const direction = args.direction as Direction;
        const x = ship.x + UNIT[direction].x * stepPx;
        const y = ship.y + UNIT[direction].y * stepPx;
        if (!insideX(x) || !insideY(y)) {
          return reject(
            "blocked_by_wall",
            `${ship.id} at (${ship.x},${ship.y}) cannot move ${direction}`,
            "direction",
          );
        }
        const from = { x: ship.x, y: ship.y };
        ship.x = x;
        ship.y = y;
        return accept([event("moved", { ship: ship.id, from, to: { x, y } })]);
      },
      fire(args: ValidArgs): ApplyResult {
        const direction = args.direction as Direction;
        if (ship.cooldownS > 0) {
          return reject("fire_on_cooldown", `${ship.id} can fire again in ${ship.cooldownS.toFixed(2)} s`);
        }
        const unit = UNIT[direction];
        const bullet: BulletState = {
          id: nextBulletId++,
          owner: ship.id,
          team: ship.team,
          x: ship.x + unit.x * (radius + BULLET_RADIUS + 1),
          y: ship.y + unit.y * (radius + BULLET_RADIUS + 1),
          vx: unit.x * bulletSpeed,
          vy: unit.y * bulletSpeed,
        };
        bullets.push(bullet);
        ship.cooldownS = cooldownS;
        return accept([event("fired", { ship: ship.id, direction, bullet: bullet.id })]);
      },
    };
  }

  function shipFor(shipId: string): ShipState | ApplyResult {
    const ship = ships.find((candidate) => candidate.id === shipId);
    if (!ship) return reject("unknown_ship", `no ship ${JSON.stringify(shipId)}`);
    if (!ship.alive) return reject("destroyed", `${ship.id} is destroyed`);
    return ship;
  }

  function substep(dt: number, out: WorldEvent[]): void {
    t += dt;
    for (const ship of ships) ship.cooldownS = Math.max(0, ship.cooldownS - dt);
    const flying: BulletState[] = [];
    for (const bullet of bullets) {
      bullet.x += bullet.vx * dt;
      bullet.y += bullet.vy * dt;
      const struck = ships.find(
        (ship) =>
          ship.alive &&
          ship.team !== bullet.team &&
          Math.hypot(ship.x - bullet.x, ship.y - bullet.y) <= radius + BULLET_RADIUS,
      );
      if (struck) {
        struck.hp = Math.max(0, struck.hp - damage);
        out.push(event("hit", { ship: struck.id, by: bullet.owner, bullet: bullet.id, hp: struck.hp }));
        if (struck.hp === 0) {
          struck.alive = false;
          out.push(event("destroyed", { ship: struck.id, by: bullet.owner }));
        }
      } else if (bullet.x >= 0 && bullet.x <= ARENA_WIDTH && bullet.y >= 0 && bullet.y <= ARENA_HEIGHT) {
        flying.push(bullet);
      }
    }
    bullets = flying;
  }

  function environment(shipId: string = control): string[] {
    const ship = ships.find((candidate) => candidate.id === shipId);
    if (!ship) return [];
    const opponentKey = ship.team === "enemy" ? "player" : "enemy";
    const opponents = ships.filter((other) => other.alive && other.team !== ship.team);
    const nearest = opponents.sort(
      (a, b) => Math.hypot(a.x - ship.x, a.y - ship.y) - Math.hypot(b.x - ship.x, b.y - ship.y),
    )[0];
    const walls = (Object.keys(UNIT) as Direction[]).filter(
      (d) => !insideX(ship.x + UNIT[d].x * stepPx) || !insideY(ship.y + UNIT[d].y * stepPx),
    );
    const lines = [`pos=${Math.round(ship.x)},${Math.round(ship.y)}`];
    if (nearest) {
      lines.push(
        `${opponentKey}=${Math.round(nearest.x)},${Math.round(nearest.y)}`,
        `dist=${Math.round(Math.hypot(nearest.x - ship.x, nearest.y - ship.y))}`,
        `align_h=${Math.abs(nearest.y - ship.y) <= alignPx}`,
        `align_v=${Math.abs(nearest.x - ship.x) <= alignPx}`,
      );
    } else {
      lines.push(`${opponentKey}=none`);
    }
    // Cooldown in tenths of a second, rounded up: small integers, 0 exactly when the gun is cool.
    lines.push(
      `cd=${Math.ceil(ship.cooldownS * 10 - 1e-9)}`,
      `wall=${walls.length > 0 ? walls.join(",") : "no"}`,
    );
    return lines;
  }

  /** Runs `dtSeconds` in substeps of at most `SUBSTEP_S`. */
  function advance(dtSeconds: number): WorldEvent[] {
    const out: WorldEvent[] = [];
    let remaining = dtSeconds;
    while (remaining > 1e-12) {
      const dt = Math.min(SUBSTEP_S, remaining);
      substep(dt, out);
      remaining -= dt;
    }
    return out;
  }

  return {
    ...scenarioWorld("neon_arena_ship", tools, environment, advance),
    control,
    apply(call: ToolCall, shipId: string = control): ApplyResult {
      const ship = shipFor(shipId);
      if ("ok" in ship) return ship;
      return dispatchCall(tools, handlersFor(ship), call, histories.get(ship.id) as string[]);
    },
    history: (shipId: string = control) => [...(histories.get(shipId) ?? [])],
    state: (): NeonArenaState => ({
      t,
      width: ARENA_WIDTH,
      height: ARENA_HEIGHT,
      ships: ships.map((ship) => ({ ...ship })),
      bullets: bullets.map((bullet) => ({ ...bullet })),
    }),
  };
}
