/**
 * The player's own ship in Neon Arena flies itself (the player commands the squad, not the
 * ship): it lines up with the nearest enemy's row, fires when aligned and the gun is cool, and
 * sidesteps an enemy bullet about to cross its row. Deterministic, one decision per call.
 */
import type { NeonArenaState, ToolCall } from "@rtool/sim";

const ALIGN_PX = 18;
const DANGER_PX = 28;
const DANGER_AHEAD_PX = 160;

/**
 * The player ship's next call, or null when it has nothing to do (destroyed, no enemy left).
 *
 * @example
 * pilotPlayer(arena.state(), "player"); // { function: "fire", args: { direction: "right" } }
 */
export function pilotPlayer(state: NeonArenaState, shipId: string): ToolCall | null {
  const ship = state.ships.find((s) => s.id === shipId);
  if (!ship?.alive) return null;
  const threat = state.bullets.find(
    (b) =>
      b.team !== ship.team &&
      Math.abs(b.y - ship.y) < DANGER_PX &&
      Math.sign(ship.x - b.x) === Math.sign(b.vx) &&
      Math.abs(ship.x - b.x) < DANGER_AHEAD_PX,
  );
  if (threat) {
    const up = threat.y >= ship.y;
    const direction = up ? (ship.y > 40 ? "up" : "down") : ship.y < state.height - 40 ? "down" : "up";
    return { function: "move", args: { direction } };
  }
  const enemies = state.ships.filter((s) => s.alive && s.team !== ship.team);
  if (enemies.length === 0) return null;
  const target = enemies.reduce((best, s) =>
    Math.hypot(s.x - ship.x, s.y - ship.y) < Math.hypot(best.x - ship.x, best.y - ship.y) ? s : best,
  );
  const dy = target.y - ship.y;
  if (Math.abs(dy) <= ALIGN_PX) {
    if (ship.cooldownS > 0) return null;
    return { function: "fire", args: { direction: target.x >= ship.x ? "right" : "left" } };
  }
  return { function: "move", args: { direction: dy > 0 ? "down" : "up" } };
}
