/**
 * The fighting part of the tower defense world, kept apart from its tools: enemies walk down
 * their lane until an operator blocks them, blocked enemies hit their blocker, operators strike
 * the most advanced enemy in reach, and whoever walks the whole lane reaches the base.
 *
 * An operator in a lane blocks that lane at 30% of the way and reaches from 25%; an operator at
 * the center blocks any lane at 60% and reaches from 50%. Stance scales damage dealt / taken:
 * aggressive 1.5 / 1.5, hold 1 / 1, defensive 0.6 / 0.5; an active skill triples damage dealt.
 */

export const POSITIONS = ["north", "south", "east", "west", "center"] as const;
export const LANES = ["north", "south", "east", "west"] as const;
export const STANCES = ["aggressive", "defensive", "hold"] as const;
export type Position = (typeof POSITIONS)[number];
export type Lane = (typeof LANES)[number];
export type Stance = (typeof STANCES)[number];

export const STANCE_FACTORS: Readonly<Record<Stance, { deal: number; take: number }>> = {
  aggressive: { deal: 1.5, take: 1.5 },
  hold: { deal: 1, take: 1 },
  defensive: { deal: 0.6, take: 0.5 },
};

/** Enemy kinds: HP, damage per second to a blocker, and lane fraction walked per second. */
export const ENEMY_KINDS = {
  grunt: { hp: 100, dps: 20, speed: 0.05 },
  boss: { hp: 1000, dps: 60, speed: 0.03 },
} as const;

export const OPERATOR_MAX_HP = 1000;
const ATTACK_DPS = 40;
const LANE_BLOCK = 0.3;
const LANE_REACH = 0.25;
const CENTER_BLOCK = 0.6;
const CENTER_REACH = 0.5;

export interface OperatorState {
  name: string;
  position: Position | null;
  hp: number;
  maxHp: number;
  skillGauge: number;
  skillActive: { skill: string; remainingS: number } | null;
  skills: string[];
  stance: Stance;
}

export interface EnemyState {
  id: number;
  lane: Lane;
  hp: number;
  boss: boolean;
  /** 0 at the lane's entry, 1 at the base. */
  progress: number;
}

export interface CombatOutcome {
  /** Enemies still on the field. */
  enemies: EnemyState[];
  /** Enemies that reached the base this tick. */
  leaked: EnemyState[];
  /** Enemies that fell this tick. */
  defeated: EnemyState[];
}

function blockerOf(operators: OperatorState[], enemy: EnemyState): { op: OperatorState; at: number } | null {
  const laneOp = operators.find((op) => op.position === enemy.lane);
  if (laneOp && enemy.progress <= LANE_BLOCK) return { op: laneOp, at: LANE_BLOCK };
  const centerOp = operators.find((op) => op.position === "center");
  if (centerOp && enemy.progress <= CENTER_BLOCK) return { op: centerOp, at: CENTER_BLOCK };
  return null;
}

/**
 * Plays `dt` seconds of fighting. Mutates operator HP and enemy HP and progress in place (the
 * caller owns both lists) and says who leaked and who fell.
 *
 * @example
 * const outcome = resolveCombat(operators, enemies, 0.1);
 * lives -= outcome.leaked.length;
 */
export function resolveCombat(operators: OperatorState[], enemies: EnemyState[], dt: number): CombatOutcome {
  for (const enemy of enemies) {
    const kind = enemy.boss ? ENEMY_KINDS.boss : ENEMY_KINDS.grunt;
    const blocker = blockerOf(operators, enemy);
    enemy.progress = Math.min(blocker ? blocker.at : 1, enemy.progress + kind.speed * dt);
    if (blocker && enemy.progress >= blocker.at) {
      blocker.op.hp -= kind.dps * STANCE_FACTORS[blocker.op.stance].take * dt;
    }
  }
  const leaked = enemies.filter((e) => e.progress >= 1);
  const walking = enemies.filter((e) => e.progress < 1);
  for (const op of operators) {
    if (op.position === null) continue;
    const inReach = walking.filter((e) =>
      op.position === "center"
        ? e.progress >= CENTER_REACH
        : e.lane === op.position && e.progress >= LANE_REACH,
    );
    const target = inReach.sort((a, b) => b.progress - a.progress || a.id - b.id)[0];
    if (target) target.hp -= ATTACK_DPS * STANCE_FACTORS[op.stance].deal * (op.skillActive ? 3 : 1) * dt;
  }
  return {
    enemies: walking.filter((e) => e.hp > 0),
    leaked,
    defeated: walking.filter((e) => e.hp <= 0),
  };
}
