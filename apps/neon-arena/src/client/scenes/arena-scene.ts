/**
 * Neon Arena: the player's squad of operators (tower defense world, left panel and lane map)
 * takes typed or spoken orders, while two enemy ships (Neon Arena world, right) are flown by the
 * model at 16 Hz from their own environment lines. The player's ship flies itself. A round ends
 * when a side is wiped out; the field resets and the ship agents' replies in flight are dropped.
 */
import type { Agent, RtoolPlugin } from "@rtool/phaser-plugin";
import {
  createNeonArena,
  createTowerDefense,
  type NeonArenaWorld,
  type Position,
  type TowerDefenseWorld,
  type WorldEvent,
} from "@rtool/sim";
import Phaser from "phaser";
import {
  ENEMY_IDS,
  SHIP_RATE_HZ,
  SHIP_SCOPE,
  SQUAD_SCOPE,
  shipAgentSpec,
  squadAgentSpec,
} from "../../arena-agents";
import { css, gauge, glowCircle, glowLine, glowPath, glowRect, grid, NEON } from "../neon";
import { pilotPlayer } from "../player-pilot";
import { HEIGHT, hubOf, registerWorldTools } from "./scene-kit";

const PANEL_W = 300;
const PILOT_PERIOD_S = 0.2;
const ROUND_PAUSE_S = 2.5;

/** Where each position sits on the lane map, and where each lane starts. */
const MAP_CENTER = { x: 150, y: 470 };
const MAP_NODE: Record<Position, { x: number; y: number }> = {
  center: MAP_CENTER,
  north: { x: 150, y: 415 },
  south: { x: 150, y: 525 },
  west: { x: 80, y: 470 },
  east: { x: 220, y: 470 },
};
const LANE_START: Record<string, { x: number; y: number }> = {
  north: { x: 150, y: 372 },
  south: { x: 150, y: 568 },
  west: { x: 20, y: 470 },
  east: { x: 280, y: 470 },
};

interface Flash {
  x: number;
  y: number;
  age: number;
  color: number;
  radius: number;
}

export class ArenaScene extends Phaser.Scene {
  declare rtool: RtoolPlugin;
  private squad!: TowerDefenseWorld;
  private ships!: NeonArenaWorld;
  private g!: Phaser.GameObjects.Graphics;
  private labels = new Map<string, Phaser.GameObjects.Text>();
  private flashes: Flash[] = [];
  private shipAgents: Agent[] = [];
  private pilotClock = 0;
  private roundOverAt: number | null = null;
  private round = 1;
  private score = { player: 0, enemy: 0 };
  private modelMoves: Record<string, number> = {};
  private modelShots: Record<string, number> = {};
  private skillsFired: Array<{ unit: string; skill: string; t: number }> = [];
  private hits = 0;

  constructor() {
    super("arena");
  }

  create(): void {
    this.squad = createTowerDefense({ seed: 7 });
    this.ships = createNeonArena();
    this.g = this.add.graphics();
    this.labels.clear();
    this.flashes = [];
    this.round = 1;
    this.score = { player: 0, enemy: 0 };
    this.modelMoves = {};
    this.modelShots = {};
    this.skillsFired = [];
    this.hits = 0;

    registerWorldTools(this.rtool, this.squad.tools, SQUAD_SCOPE, (call) => {
      const result = this.squad.apply(call);
      if (result.ok) this.onSquadEvents(result.events);
      return result;
    });
    registerWorldTools(this.rtool, this.ships.tools, SHIP_SCOPE, (call, agent) => {
      const result = this.ships.apply(call, agent);
      if (result.ok) {
        const counts = call.function === "fire" ? this.modelShots : this.modelMoves;
        counts[agent] = (counts[agent] ?? 0) + 1;
        if (call.function === "fire") {
          const ship = this.ships.state().ships.find((s) => s.id === agent);
          if (ship) this.flash(ship.x + PANEL_W, ship.y, NEON.magenta, 10);
        }
      }
      return result;
    });
    this.rtool.agent(squadAgentSpec(() => this.squad));
    this.shipAgents = ENEMY_IDS.map((id) => this.rtool.agent(shipAgentSpec(id, () => this.ships)));

    const hub = hubOf(this);
    const binding = {
      key: "arena" as const,
      rtool: this.rtool,
      hint: "Try: “Amiya use your skill”, “Blaze fall back”, “Texas go north”, “everyone retreat”, “SilverAsh defensive”.",
      targetHz: { squad: 0, ...Object.fromEntries(ENEMY_IDS.map((id) => [id, SHIP_RATE_HZ])) },
      snapshot: () => this.snapshot(),
    };
    hub.attach(binding);
    this.events.once(Phaser.Scenes.Events.SHUTDOWN, () => hub.detach(binding));
  }

  override update(_time: number, deltaMs: number): void {
    const dt = Math.min(deltaMs / 1000, 0.1);
    this.onSquadEvents(this.squad.step(dt));
    // The squad's tool handlers read this.squad when called, so a fresh world takes over at once.
    if (this.squad.state().over) this.squad = createTowerDefense({ seed: 7 + this.round });
    for (const event of this.ships.step(dt)) this.onShipEvent(event);
    this.pilotClock += dt;
    if (this.pilotClock >= PILOT_PERIOD_S) {
      this.pilotClock = 0;
      const call = pilotPlayer(this.ships.state(), "player");
      if (call) this.ships.apply(call, "player");
    }
    this.checkRound();
    for (const flash of this.flashes) flash.age += dt;
    this.flashes = this.flashes.filter((flash) => flash.age < 0.6);
    this.draw();
  }

  private checkRound(): void {
    const ships = this.ships.state().ships;
    const playerAlive = ships.some((s) => s.team === "player" && s.alive);
    const enemiesAlive = ships.some((s) => s.team === "enemy" && s.alive);
    const t = this.ships.state().t;
    if (this.roundOverAt === null && (!playerAlive || !enemiesAlive)) {
      this.roundOverAt = t;
      if (playerAlive) this.score.player += 1;
      else this.score.enemy += 1;
    }
    if (this.roundOverAt !== null && t - this.roundOverAt >= ROUND_PAUSE_S) {
      this.roundOverAt = null;
      this.round += 1;
      this.ships = createNeonArena();
      // Replies computed for the old field are worthless on the new one.
      for (const agent of this.shipAgents) {
        agent.invalidate();
        agent.start();
      }
    }
  }

  private onSquadEvents(events: WorldEvent[]): void {
    for (const event of events) {
      if (event.type === "skill_used") {
        const unit = String(event.detail?.unit);
        this.skillsFired.push({ unit, skill: String(event.detail?.skill), t: event.t });
        const op = this.squad.state().operators.find((o) => o.name === unit);
        const node = op?.position ? MAP_NODE[op.position] : MAP_CENTER;
        this.flash(node.x, node.y, NEON.yellow, 40);
      }
    }
  }

  private onShipEvent(event: WorldEvent): void {
    if (event.type === "hit") {
      this.hits += 1;
      const ship = this.ships.state().ships.find((s) => s.id === event.detail?.ship);
      if (ship) this.flash(ship.x + PANEL_W, ship.y, NEON.red, 26);
    } else if (event.type === "destroyed") {
      const ship = this.ships.state().ships.find((s) => s.id === event.detail?.ship);
      if (ship) this.flash(ship.x + PANEL_W, ship.y, NEON.yellow, 60);
      // A wreck has nothing to decide: its agent rests until the next round.
      this.shipAgents.find((agent) => agent.name === event.detail?.ship)?.stop();
    }
  }

  private flash(x: number, y: number, color: number, radius: number): void {
    this.flashes.push({ x, y, age: 0, color, radius });
  }

  private snapshot(): Record<string, unknown> {
    return {
      round: this.round,
      score: { ...this.score },
      squad: this.squad.state(),
      squadHistory: this.squad.history(),
      ships: this.ships.state(),
      modelMoves: { ...this.modelMoves },
      modelShots: { ...this.modelShots },
      skillsFired: this.skillsFired.map((s) => ({ ...s })),
      hits: this.hits,
    };
  }

  private label(key: string, x: number, y: number, text: string, color: number, size = 13): void {
    let label = this.labels.get(key);
    if (!label) {
      label = this.add.text(x, y, text, {
        fontFamily: "monospace",
        fontSize: `${size}px`,
        color: css(color),
      });
      this.labels.set(key, label);
    }
    label.setPosition(x, y).setText(text).setColor(css(color)).setVisible(true);
  }

  private draw(): void {
    const g = this.g;
    g.clear();
    for (const label of this.labels.values()) label.setVisible(false);
    this.drawSquad(g);
    this.drawShips(g);
    for (const flash of this.flashes) {
      const k = flash.age / 0.6;
      g.lineStyle(3, flash.color, 1 - k);
      g.strokeCircle(flash.x, flash.y, flash.radius * (0.4 + k));
    }
  }

  private drawSquad(g: Phaser.GameObjects.Graphics): void {
    const state = this.squad.state();
    glowRect(g, 6, 6, PANEL_W - 12, HEIGHT - 12, NEON.violet);
    this.label("squad-title", 18, 14, "SQUAD", NEON.violet, 16);
    const status =
      state.breakRemainingS > 0
        ? `wave ${state.wave} cleared`
        : `wave ${state.wave} · ${state.enemiesLeft} left`;
    this.label("squad-wave", 90, 17, `${status} · lives ${state.lives}`, NEON.white, 11);
    state.operators.forEach((op, i) => {
      const y = 44 + i * 78;
      const active = op.skillActive !== null;
      const color = active ? NEON.yellow : op.position ? NEON.cyan : NEON.grid;
      if (active) glowRect(g, 14, y - 4, PANEL_W - 28, 70, NEON.yellow);
      this.label(`op-${op.name}`, 20, y, op.name, color, 15);
      const where = op.position ? `${op.position} · ${op.stance}` : "bench";
      this.label(`op-${op.name}-pos`, 130, y + 2, where, NEON.white, 11);
      gauge(g, 20, y + 24, 200, 7, op.hp / op.maxHp, op.hp / op.maxHp > 0.35 ? NEON.green : NEON.red);
      this.label(
        `op-${op.name}-hp`,
        228,
        y + 20,
        `HP ${Math.round((op.hp / op.maxHp) * 100)}%`,
        NEON.white,
        10,
      );
      gauge(g, 20, y + 40, 200, 7, op.skillGauge / 100, NEON.yellow);
      const skill = active ? "SKILL!" : op.skillGauge >= 100 ? "ready" : `${Math.floor(op.skillGauge)}%`;
      this.label(`op-${op.name}-sk`, 228, y + 36, skill, NEON.yellow, 10);
    });
    // Lane map: four lanes into the base at the center.
    for (const lane of Object.keys(LANE_START)) {
      const start = LANE_START[lane]!;
      glowLine(g, start.x, start.y, MAP_CENTER.x, MAP_CENTER.y, NEON.grid, 0.6);
    }
    glowCircle(g, MAP_CENTER.x, MAP_CENTER.y, 10, NEON.violet);
    for (const enemy of state.enemies) {
      const start = LANE_START[enemy.lane]!;
      const x = start.x + (MAP_CENTER.x - start.x) * enemy.progress;
      const y = start.y + (MAP_CENTER.y - start.y) * enemy.progress;
      g.fillStyle(NEON.red, 0.9);
      g.fillCircle(x, y, enemy.boss ? 7 : 4);
    }
    for (const op of state.operators) {
      if (!op.position) continue;
      const node = MAP_NODE[op.position];
      glowCircle(g, node.x, node.y, op.skillActive ? 14 : 8, op.skillActive ? NEON.yellow : NEON.cyan);
    }
  }

  private drawShips(g: Phaser.GameObjects.Graphics): void {
    const state = this.ships.state();
    grid(g, PANEL_W, 0, state.width, state.height, 50);
    glowRect(g, PANEL_W + 2, 2, state.width - 4, state.height - 4, NEON.cyan);
    for (const bullet of state.bullets) {
      const color = bullet.team === "enemy" ? NEON.magenta : NEON.cyan;
      const len = 10;
      const nx = Math.sign(bullet.vx);
      const ny = Math.sign(bullet.vy);
      glowLine(
        g,
        PANEL_W + bullet.x - nx * len,
        bullet.y - ny * len,
        PANEL_W + bullet.x,
        bullet.y,
        color,
        0.7,
      );
    }
    for (const ship of state.ships) {
      const x = PANEL_W + ship.x;
      const y = ship.y;
      const color = ship.team === "enemy" ? NEON.magenta : NEON.cyan;
      if (!ship.alive) {
        g.lineStyle(1, color, 0.3);
        g.strokeCircle(x, y, 15);
        continue;
      }
      const facing = ship.team === "enemy" ? -1 : 1;
      glowPath(
        g,
        [
          { x: x + 16 * facing, y },
          { x: x - 12 * facing, y: y - 12 },
          { x: x - 6 * facing, y },
          { x: x - 12 * facing, y: y + 12 },
        ],
        color,
        true,
      );
      gauge(g, x - 16, y - 24, 32, 3, ship.hp / 100, ship.hp > 35 ? NEON.green : NEON.red);
      this.label(`ship-${ship.id}`, x - 22, y + 18, ship.id, color, 10);
    }
    const banner =
      this.roundOverAt !== null
        ? state.ships.some((s) => s.team === "player" && s.alive)
          ? "ENEMY FLEET DOWN"
          : "PLAYER SHIP DOWN"
        : `round ${this.round}`;
    this.label(
      "round",
      PANEL_W + 14,
      10,
      `${banner} · you ${this.score.player} : ${this.score.enemy} model`,
      NEON.white,
      12,
    );
  }
}
