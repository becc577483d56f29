/**
 * The field the headless arenas play on: the squad's tower-defense world and the ships' Neon
 * Arena world, the player's self-flying ship, wrecks and rounds, as the Phaser scene runs them.
 * The timed arena (`headless-arena.ts`, frames on a wall clock) and the lockstep arena
 * (`lockstep-arena.ts`, one ship period per step, every reply awaited) both step this.
 */
import type { AgentClient } from "@rtool/phaser-plugin/headless";
import { createNeonArena, createTowerDefense, type NeonArenaWorld, type TowerDefenseWorld } from "@rtool/sim";
import { arenaShips, SQUAD_SCOPE } from "../arena-agents";
import { pilotPlayer } from "../client/player-pilot";

/** Orders the squad gets in turn (the README's examples: what players type). */
export const SQUAD_ORDERS = [
  "Amiya use your skill",
  "Blaze fall back",
  "Texas go north",
  "SilverAsh defensive",
  "everyone retreat",
] as const;

const PILOT_PERIOD_S = 0.2;
const ROUND_PAUSE_S = 2.5;

/** What a field step tells its driver. */
export interface FieldEvents {
  /** A ship was destroyed: its agent rests until the next round. */
  destroyed(shipId: string): void;
  /** The field was reset for a new round: every ship flies again. */
  newRound(): void;
}

/**
 * The squad's and the ships' worlds, replaced as waves and rounds end. Handlers registered with
 * {@link ArenaField.register} read the current world at call time, so a new round takes over at once.
 *
 * @example
 * const field = new ArenaField(3);
 * field.register(client, SHIP_SCOPE);
 * field.step(1 / 60, { destroyed: (id) => stop(id), newRound: () => restartAll() });
 */
export class ArenaField {
  squad: TowerDefenseWorld = createTowerDefense({ seed: 7 });
  ships: NeonArenaWorld;
  round = 1;
  private roundOverAt: number | null = null;
  private pilotClock = 0;

  constructor(readonly enemies: number) {
    this.ships = createNeonArena({ ships: arenaShips(enemies) });
  }

  /** Registers the tools of `scope`'s world on `client`, each applying its call to the current world. */
  register(client: AgentClient, scope: string): void {
    const tools = scope === SQUAD_SCOPE ? this.squad.tools : this.ships.tools;
    for (const tool of tools) {
      const fn = tool.function.name;
      client.tool(
        tool,
        (args, context) => {
          const result =
            scope === SQUAD_SCOPE
              ? this.squad.apply({ function: fn, args })
              : this.ships.apply({ function: fn, args }, context.agent);
          return result.ok ? true : { ok: false, code: result.code, reason: result.reason };
        },
        { scope },
      );
    }
  }

  /** Advances both worlds by `dt` seconds: bullets and wrecks, the player's pilot, the round rule. */
  step(dt: number, events: FieldEvents): void {
    this.squad.step(dt);
    if (this.squad.state().over) this.squad = createTowerDefense({ seed: 7 + this.round });
    for (const event of this.ships.step(dt)) {
      // A wreck has nothing to decide: its agent rests until the next round (as in the scene).
      if (event.type === "destroyed") events.destroyed(String(event.detail?.ship));
    }
    this.pilotClock += dt;
    if (this.pilotClock >= PILOT_PERIOD_S) {
      this.pilotClock = 0;
      const call = pilotPlayer(this.ships.state(), "player");
      if (call) this.ships.apply(call, "player");
    }
    this.nextRound(events);
  }

  /**
   * The scene's round rule: when a side is wiped out the round ends, and after a pause the field
   * resets.
   */
  private nextRound(events: FieldEvents): void {
    const state = this.ships.state();
    const playerAlive = state.ships.some((s) => s.team === "player" && s.alive);
    const enemiesAlive = state.ships.some((s) => s.team === "enemy" && s.alive);
    if (this.roundOverAt === null && (!playerAlive || !enemiesAlive)) {
      this.roundOverAt = state.t;
    } else if (this.roundOverAt !== null && state.t - this.roundOverAt >= ROUND_PAUSE_S) {
      this.roundOverAt = null;
      this.round += 1;
      this.ships = createNeonArena({ ships: arenaShips(this.enemies) });
      events.newRound();
    }
  }
}
