/**
 * A real-time tower defense round: named operators deployed at five positions (north, south,
 * east, west lanes and the center), with HP, a skill gauge, a stance, and a bench; enemies come in
 * waves down the four lanes toward the base. The tools are tower_defense.json's.
 *
 * Rules (each refusal is a typed rejection):
 * - operator names match exactly or case-insensitively (`unknown_operator` otherwise); positions
 *   and stances likewise (`unknown_position`, `unknown_stance`), as the schema has no enum.
 * - `use_skill` needs a deployed operator (`not_deployed`), a full gauge and no skill running
 *   (`skill_on_cooldown`), and a skill slot the operator has (`unknown_skill`); the skill runs for
 *   `skillDurationS` (triple damage), then the gauge recharges from 0 at 10 points per second.
 * - `move` to where the operator already is is `already_there`; `set_stance` to the current stance
 *   is `already_in_stance`; `retreat` needs a deployed operator; `retreat_all` needs at least one.
 * - `pass` always succeeds and changes nothing. After the base falls every tool is `game_over`.
 *
 * Fighting runs in 0.1 s ticks (see lane-combat.ts); an enemy reaching the base costs a life (a
 * boss three). A wave is cleared when all its enemies are down; the next starts 5 s later.
 */
import { dispatchCall, type ValidArgs } from "./call-dispatch";
import {
  ENEMY_KINDS,
  type EnemyState,
  LANES,
  type Lane,
  OPERATOR_MAX_HP,
  type OperatorState,
  POSITIONS,
  type Position,
  resolveCombat,
  STANCES,
  type Stance,
} from "./lane-combat";
import { createPrng } from "./prng";
import { scenarioWorld } from "./scenario-world";
import { scenarioTools } from "./scenarios";
import {
  type ApplyResult,
  accept,
  type Rejection,
  reject,
  type ToolCall,
  type World,
  type WorldEvent,
} from "./world";

const TICK_S = 0.1;
const GAUGE_PER_S = 10;

export interface OperatorSpec {
  name: string;
  /** Where the operator stands; null or absent puts it on the bench. */
  position?: Position | null;
  /** HP as a percentage of 1000; default 100. */
  hpPercent?: number;
  /** Skill gauge 0..100; 100 (the default) means ready. */
  skillGauge?: number;
  /** Skill slots; default ["s1", "s2"]. */
  skills?: string[];
  stance?: Stance;
}

export interface TowerDefenseOptions {
  /** Default: Amiya at the center, Blaze north, Texas south (gauge 40%), SilverAsh benched. */
  operators?: OperatorSpec[];
  /** The wave in progress; default 1. */
  wave?: number;
  /** Enemies in the current wave; default 2 + 2 x wave. */
  enemies?: number;
  /** Whether the current wave has a boss; default on every fifth wave. */
  boss?: boolean;
  /** The lane most enemies take; default drawn from the seed. */
  massing?: Lane;
  lives?: number;
  seed?: number;
  skillDurationS?: number;
}

export interface TowerDefenseState {
  t: number;
  wave: number;
  enemiesLeft: number;
  lives: number;
  massing: Lane;
  breakRemainingS: number;
  over: boolean;
  operators: OperatorState[];
  enemies: EnemyState[];
}

export interface TowerDefenseWorld extends World<TowerDefenseState> {
  /** Puts a benched operator on the field (a game action, not a tool; not in the history). */
  deploy(name: string, position: string): ApplyResult;
}

const DEFAULT_OPERATORS: OperatorSpec[] = [
  { name: "Amiya", position: "center", hpPercent: 90 },
  { name: "Blaze", position: "north", hpPercent: 50 },
  { name: "Texas", position: "south", skillGauge: 40 },
  { name: "SilverAsh" },
];

/**
 * Creates a tower defense world.
 *
 * @example
 * const game = createTowerDefense({ wave: 5, enemies: 8, massing: "north" });
 * game.apply({ function: "use_skill", args: { unit_id: "Amiya" } }); // ok
 * game.apply({ function: "retreat", args: { unit_id: "Blaze" } }); // ok
 * game.environment()[1]; // "Operators: Amiya(center,HP90%,skill active) Texas(south,HP100%,skill charging)"
 */
export function createTowerDefense(options: TowerDefenseOptions = {}): TowerDefenseWorld {
  const tools = scenarioTools("tower_defense");
  const rng = createPrng(options.seed ?? 1);
  const skillDurationS = options.skillDurationS ?? 5;
  const operators: OperatorState[] = (options.operators ?? DEFAULT_OPERATORS).map((spec) => ({
    name: spec.name,
    position: spec.position ?? null,
    hp: (OPERATOR_MAX_HP * (spec.hpPercent ?? 100)) / 100,
    maxHp: OPERATOR_MAX_HP,
    skillGauge: spec.skillGauge ?? 100,
    skillActive: null,
    skills: [...(spec.skills ?? ["s1", "s2"])],
    stance: spec.stance ?? "hold",
  }));
  let t = 0;
  let wave = options.wave ?? 1;
  let lives = options.lives ?? 10;
  let massing: Lane = options.massing ?? rng.pick(LANES);
  let enemiesLeft = 0;
  let pending: boolean[] = [];
  let spawnTimerS = 0;
  let breakRemainingS = 0;
  let nextEnemyId = 1;
  let enemies: EnemyState[] = [];
  const calls: string[] = [];

  const event = (type: string, detail?: Record<string, unknown>): WorldEvent =>
    detail ? { t, type, detail } : { t, type };

  function spawn(boss: boolean, lane: Lane): void {
    enemies.push({
      id: nextEnemyId++,
      lane,
      hp: boss ? ENEMY_KINDS.boss.hp : ENEMY_KINDS.grunt.hp,
      boss,
      progress: 0,
    });
  }

  function startWave(count: number, boss: boolean): void {
    enemiesLeft = count;
    pending = Array.from({ length: count }, (_, i) => boss && i === 0);
    // A wave opens with a group of up to three in the massing lane, the boss first.
    for (const isBoss of pending.splice(0, Math.min(3, count))) spawn(isBoss, massing);
    spawnTimerS = 1.5;
  }
  startWave(options.enemies ?? 2 + 2 * wave, options.boss ?? wave % 5 === 0);

  const findOperator = (name: string): OperatorState | Rejection => {
    const found =
      operators.find((op) => op.name === name) ??
      operators.find((op) => op.name.toLowerCase() === name.toLowerCase());
    if (found) return found;
    const known = operators.map((op) => op.name).join(", ");
    return reject(
      "unknown_operator",
      `no operator named ${JSON.stringify(name)}; operators: ${known}`,
      "unit_id",
    );
  };

  /** Resolves a deployed operator for a tool, or the rejection that applies. */
  const deployed = (args: ValidArgs): OperatorState | Rejection => {
    if (lives <= 0) return reject("game_over", "the base has fallen");
    const op = findOperator(args.unit_id as string);
    if ("ok" in op) return op;
    if (op.position === null) return reject("not_deployed", `${op.name} is on the bench`, "unit_id");
    return op;
  };

  const parsePosition = (value: string, field: string): Position | Rejection => {
    const position = POSITIONS.find((p) => p === value.toLowerCase());
    return (
      position ??
      reject("unknown_position", `${JSON.stringify(value)} is not one of ${POSITIONS.join(", ")}`, field)
    );
  };

  const retreatOne = (op: OperatorState): WorldEvent => {
    const from = op.position;
    op.position = null;
    op.skillActive = null;
    return event("retreated", { unit: op.name, from });
  };

  const handlers = {
    move(args: ValidArgs): ApplyResult {
      const op = deployed(args);
      if ("ok" in op) return op;
      const target = parsePosition(args.target as string, "target");
      if (typeof target !== "string") return target;
      if (op.position === target) return reject("already_there", `${op.name} is already ${target}`, "target");
      const from = op.position;
      op.position = target;
      return accept([event("moved", { unit: op.name, from, to: target })]);
    },
    use_skill(args: ValidArgs): ApplyResult {
      const op = deployed(args);
      if ("ok" in op) return op;
      const skill = (args.skill_id as string | undefined) ?? op.skills[0];
      if (!op.skills.includes(skill)) {
        return reject(
          "unknown_skill",
          `${op.name} has skills ${op.skills.join(", ")}, not ${skill}`,
          "skill_id",
        );
      }
      if (op.skillActive)
        return reject("skill_on_cooldown", `${op.name}'s skill is already active`, "unit_id");
      if (op.skillGauge < 100) {
        return reject(
          "skill_on_cooldown",
          `${op.name}'s skill gauge is at ${Math.floor(op.skillGauge)}%`,
          "unit_id",
        );
      }
      op.skillGauge = 0;
      op.skillActive = { skill, remainingS: skillDurationS };
      return accept([event("skill_used", { unit: op.name, skill })]);
    },
    retreat(args: ValidArgs): ApplyResult {
      const op = deployed(args);
      if ("ok" in op) return op;
      return accept([retreatOne(op)]);
    },
    set_stance(args: ValidArgs): ApplyResult {
      const op = deployed(args);
      if ("ok" in op) return op;
      const stance = STANCES.find((s) => s === (args.stance as string).toLowerCase());
      if (!stance) {
        return reject(
          "unknown_stance",
          `${JSON.stringify(args.stance)} is not one of ${STANCES.join(", ")}`,
          "stance",
        );
      }
      if (op.stance === stance)
        return reject("already_in_stance", `${op.name} is already ${stance}`, "stance");
      op.stance = stance;
      return accept([event("stance", { unit: op.name, stance })]);
    },
    retreat_all(): ApplyResult {
      if (lives <= 0) return reject("game_over", "the base has fallen");
      const onField = operators.filter((op) => op.position !== null);
      if (onField.length === 0) return reject("nothing_deployed", "no operator is deployed");
      return accept(onField.map(retreatOne));
    },
    pass(): ApplyResult {
      if (lives <= 0) return reject("game_over", "the base has fallen");
      return accept([event("passed")]);
    },
  };

  function tick(dt: number, out: WorldEvent[]): void {
    if (breakRemainingS > 0) {
      breakRemainingS = Math.max(0, breakRemainingS - dt);
      if (breakRemainingS === 0) {
        wave += 1;
        massing = rng.pick(LANES);
        startWave(2 + 2 * wave, wave % 5 === 0);
        out.push(event("wave_started", { wave, enemies: enemiesLeft }));
      }
      return;
    }
    spawnTimerS -= dt;
    if (pending.length > 0 && spawnTimerS <= 0) {
      spawn(pending.shift() as boolean, rng.next() < 0.6 ? massing : rng.pick(LANES));
      spawnTimerS = 1.5;
    }
    const outcome = resolveCombat(operators, enemies, dt);
    enemies = outcome.enemies;
    for (const enemy of outcome.leaked) {
      lives -= enemy.boss ? 3 : 1;
      enemiesLeft -= 1;
      out.push(event("leaked", { enemy: enemy.id, lane: enemy.lane, lives }));
    }
    for (const enemy of outcome.defeated) {
      enemiesLeft -= 1;
      out.push(event("enemy_defeated", { enemy: enemy.id, lane: enemy.lane, boss: enemy.boss }));
    }
    for (const op of operators) {
      if (op.position === null) continue;
      if (op.hp <= 0) {
        op.hp = 0;
        out.push(event("operator_down", { unit: op.name, at: op.position }));
        op.position = null;
        op.skillActive = null;
      } else if (op.skillActive) {
        op.skillActive.remainingS -= dt;
        if (op.skillActive.remainingS <= 1e-9) {
          op.skillActive = null;
          out.push(event("skill_ended", { unit: op.name }));
        }
      } else if (op.skillGauge < 100) {
        op.skillGauge = Math.min(100, op.skillGauge + GAUGE_PER_S * dt);
        if (op.skillGauge >= 100 - 1e-9) {
          op.skillGauge = 100;
          out.push(event("skill_ready", { unit: op.name }));
        }
      }
    }
    if (lives <= 0) {
      out.push(event("base_fallen"));
    } else if (enemiesLeft <= 0 && pending.length === 0) {
      out.push(event("wave_cleared", { wave }));
      breakRemainingS = 5;
    }
  }

  function advance(dtSeconds: number): WorldEvent[] {
    const out: WorldEvent[] = [];
    let remaining = dtSeconds;
    while (remaining > 1e-9 && lives > 0) {
      const dt = Math.min(TICK_S, remaining);
      t += dt;
      tick(dt, out);
      remaining -= dt;
    }
    t += Math.max(0, remaining);
    return out;
  }

  function environment(): string[] {
    const lines: string[] = [];
    if (lives <= 0) lines.push(`Wave ${wave}, the base has fallen`);
    else if (breakRemainingS > 0)
      lines.push(`Wave ${wave} cleared, next wave in ${Math.ceil(breakRemainingS)}s`);
    else {
      const boss = enemies.some((e) => e.boss) ? ", a boss is on the field" : "";
      lines.push(`Wave ${wave}${boss}, ${enemiesLeft} ${enemiesLeft === 1 ? "enemy" : "enemies"} left`);
    }
    const onField = operators.filter((op) => op.position !== null).map(describeOperator);
    lines.push(`Operators: ${onField.length > 0 ? onField.join(" ") : "none deployed"}`);
    const bench = operators.filter((op) => op.position === null);
    if (bench.length > 0) {
      lines.push(
        `Bench: ${bench.map((op) => `${op.name}(HP${Math.round((op.hp / op.maxHp) * 100)}%)`).join(" ")}`,
      );
    }
    const busiest = LANES.map((lane) => ({ lane, n: enemies.filter((e) => e.lane === lane).length })).sort(
      (a, b) => b.n - a.n,
    )[0];
    if (busiest.n > 0) lines.push(`Enemies massing ${busiest.lane}`);
    return lines;
  }

  return {
    ...scenarioWorld("tower_defense", tools, environment, advance),
    apply: (call: ToolCall) => dispatchCall(tools, handlers, call, calls),
    history: () => [...calls],
    state: (): TowerDefenseState => ({
      t,
      wave,
      enemiesLeft,
      lives,
      massing,
      breakRemainingS,
      over: lives <= 0,
      operators: operators.map((op) => ({
        ...op,
        skills: [...op.skills],
        skillActive: op.skillActive ? { ...op.skillActive } : null,
      })),
      enemies: enemies.map((e) => ({ ...e })),
    }),
    deploy(name: string, position: string): ApplyResult {
      if (lives <= 0) return reject("game_over", "the base has fallen");
      const op = findOperator(name);
      if ("ok" in op) return op;
      const at = parsePosition(position, "position");
      if (typeof at !== "string") return at;
      if (op.position !== null)
        return reject("already_there", `${op.name} is already deployed ${op.position}`);
      if (op.hp <= 0) return reject("not_deployed", `${op.name} is down and cannot be deployed`, "unit_id");
      op.position = at;
      return accept([event("deployed", { unit: op.name, at })]);
    },
  };
}

function describeOperator(op: OperatorState): string {
  const skill = op.skillActive ? "skill active" : op.skillGauge >= 100 ? "skill ready" : "skill charging";
  const stance = op.stance === "hold" ? "" : `,${op.stance}`;
  return `${op.name}(${op.position},HP${Math.round((op.hp / op.maxHp) * 100)}%,${skill}${stance})`;
}
