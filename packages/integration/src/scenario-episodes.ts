/**
 * The reference scenarios' multi-step tasks (issue 6), each judged on the world's state after
 * every command: robot arm pick-and-place, the avatar's greeting routine, a tower defense order
 * sequence, and a Neon Arena ship firing when aligned. The commands are written as a user would
 * say them, from the scenario files' own phrasing, and are not tuned to any model's answers.
 */
import {
  type ArmState,
  type AvatarState,
  type AvatarWorld,
  createArm,
  createAvatar,
  createNeonArena,
  createTowerDefense,
  type NeonArenaState,
  type TowerDefenseState,
  type Vec3,
  type World,
  type WorldEvent,
} from "@rtool/sim";
import type { Episode } from "./episode";

const GEAR = "red gear";
const distance = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
const gear = (s: ArmState) => s.objects.find((o) => o.name === GEAR)!;
const horizontalToTray = (s: ArmState) => Math.hypot(s.tip.x - s.tray.x, s.tip.y - s.tray.y);

/**
 * Robot arm: go to the gear, grip it (medium), lift, go to the tray, release, home; the gear
 * ends in the tray. Default world: gear (medium, 30-80 N) at (300,150,50), tray at (600,0,80).
 */
export const armPickAndPlace: Episode<ArmState> = {
  name: "arm pick-and-place",
  scenario: "robotic_arm",
  createWorld: () => createArm(),
  steps: [
    {
      name: "go to the gear",
      command: "Go to the red gear slowly",
      settleS: 10,
      expect: {
        description: "the tip at rest within 20 mm of the red gear",
        check: (s) => s.motion === null && distance(s.tip, gear(s)) <= 20,
      },
    },
    {
      name: "grip (medium)",
      command: "Grab it, it's a medium part",
      expect: {
        description: "the red gear held, not crushed",
        check: (s) => s.holding === GEAR && !gear(s).crushed,
      },
    },
    {
      name: "lift",
      command: "Lift it straight up to x 300 y 150 z 250",
      settleS: 10,
      expect: {
        description: "the red gear held with the tip at rest at least 150 mm above the table",
        check: (s) => s.holding === GEAR && s.motion === null && s.tip.z >= 150,
      },
    },
    {
      name: "go to the tray",
      command: "Now carry it to the tray",
      settleS: 10,
      expect: {
        description: "the red gear held with the tip at rest over the tray",
        check: (s) => s.holding === GEAR && s.motion === null && horizontalToTray(s) <= s.tray.radius,
      },
    },
    {
      name: "release",
      command: "Release it",
      expect: {
        description: "the red gear in the tray",
        check: (s) => gear(s).location === "tray" && s.holding === null,
      },
    },
    {
      name: "home",
      command: "Go back home",
      settleS: 10,
      expect: {
        description: "the tip at home (0,0,500), the gear still in the tray",
        check: (s) => distance(s.tip, { x: 0, y: 0, z: 500 }) < 1 && gear(s).location === "tray",
      },
    },
  ],
  outcome: {
    description: "the red gear in the tray, uncrushed, and the arm at home",
    check: (s) =>
      gear(s).location === "tray" && !gear(s).crushed && distance(s.tip, { x: 0, y: 0, z: 500 }) < 1,
  },
};

/** An avatar world whose state carries its timeline, so expectations can read the performance. */
export type AvatarWithTimeline = AvatarState & { timeline: WorldEvent[] };

function avatarWithTimeline(): World<AvatarWithTimeline> {
  const host: AvatarWorld = createAvatar({
    scene: "Stream just started, chat is filling up",
    chat: ["hi!", "good evening"],
  });
  return {
    name: host.name,
    tools: host.tools,
    system: host.system,
    environment: () => host.environment(),
    describe: () => host.describe(),
    apply: (call) => host.apply(call),
    history: () => host.history(),
    step: (dt) => host.step(dt),
    state: () => ({ ...host.state(), timeline: host.timeline() }),
  };
}

const has = (s: AvatarWithTimeline, type: string, detail?: (d: Record<string, unknown>) => boolean) =>
  s.timeline.some((e) => e.type === type && (!detail || detail(e.detail ?? {})));

/** Digital human: greet, wave, look at the camera, idle; the timeline holds those in order. */
export const avatarGreeting: Episode<AvatarWithTimeline> = {
  name: "avatar greeting",
  scenario: "digital_human",
  createWorld: avatarWithTimeline,
  steps: [
    {
      name: "greet",
      command: "Director: greet everyone warmly and say welcome",
      settleS: 0.5,
      expect: {
        description: "a spoken line started",
        check: (s) => has(s, "speech_started", (d) => typeof d.text === "string" && d.text.trim() !== ""),
      },
    },
    {
      name: "wave",
      command: "Director: wave at the audience",
      settleS: 0.5,
      expect: {
        description: "a wave gesture started",
        check: (s) => has(s, "gesture_started", (d) => d.type === "wave"),
      },
    },
    {
      name: "look at camera",
      command: "Director: look at the camera",
      expect: {
        description: "the gaze set to the camera",
        check: (s) => has(s, "gaze", (d) => d.target === "camera"),
      },
    },
    {
      name: "idle",
      command: "Director: go idle",
      expect: {
        description: "the host reset to idle",
        check: (s) => has(s, "idle") && s.gesture === null && s.speaking === null,
      },
    },
  ],
  outcome: {
    description: "the timeline holds speech, a wave, a gaze at the camera and idle, in that order",
    check: (s) => {
      const order = [
        s.timeline.findIndex((e) => e.type === "speech_started"),
        s.timeline.findIndex((e) => e.type === "gesture_started" && e.detail?.type === "wave"),
        s.timeline.findIndex((e) => e.type === "gaze" && e.detail?.target === "camera"),
        s.timeline.findIndex((e) => e.type === "idle"),
      ];
      return order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!));
    },
  },
};

const operator = (s: TowerDefenseState, name: string) => s.operators.find((o) => o.name === name)!;

/**
 * Tower defense: skill, move, stance, retreat. Default operators: Amiya (center, skill ready),
 * Blaze (north, HP 50%), Texas (south), SilverAsh on the bench; wave 5, enemies massing north.
 */
export const towerDefenseOrders: Episode<TowerDefenseState> = {
  name: "tower defense orders",
  scenario: "tower_defense",
  createWorld: () => createTowerDefense({ wave: 5, enemies: 8, boss: true, massing: "north", seed: 1 }),
  steps: [
    {
      name: "skill",
      command: "Amiya, skill now",
      expect: {
        description: "Amiya's skill active",
        check: (s) => operator(s, "Amiya").skillActive !== null,
      },
    },
    {
      name: "move",
      command: "Texas, move to the north lane",
      expect: { description: "Texas at north", check: (s) => operator(s, "Texas").position === "north" },
    },
    {
      name: "stance",
      command: "Blaze, switch to a defensive stance",
      expect: { description: "Blaze defensive", check: (s) => operator(s, "Blaze").stance === "defensive" },
    },
    {
      name: "retreat",
      command: "Blaze fall back",
      expect: { description: "Blaze on the bench", check: (s) => operator(s, "Blaze").position === null },
    },
  ],
  outcome: {
    description: "Amiya's skill used, Texas north, Blaze benched after turning defensive",
    check: (s) =>
      operator(s, "Texas").position === "north" &&
      operator(s, "Blaze").position === null &&
      operator(s, "Blaze").stance === "defensive",
  },
};

const playerHp = (s: NeonArenaState) => s.ships.find((ship) => ship.id === "player")!.hp;

/**
 * Neon Arena: the model's ship (enemy-1 at (700,300)) is aligned with the player at (100,310) and
 * fires along the row; after the cooldown it fires again. Each bullet costs the player 25 HP.
 */
export const arenaFiresWhenAligned: Episode<NeonArenaState> = {
  name: "arena fires when aligned",
  scenario: "neon_arena_ship",
  createWorld: () =>
    createNeonArena({
      ships: [
        { id: "enemy-1", team: "enemy", x: 700, y: 300 },
        { id: "player", team: "player", x: 100, y: 310 },
      ],
    }),
  steps: [
    {
      name: "fire when aligned",
      command: "Fire at the player if aligned.",
      settleS: 2,
      expect: { description: "the player hit once (75 HP)", check: (s) => playerHp(s) === 75 },
    },
    {
      name: "fire again",
      command: "Fire at the player if aligned.",
      settleS: 2,
      expect: { description: "the player hit twice (50 HP)", check: (s) => playerHp(s) === 50 },
    },
  ],
  outcome: { description: "the player down to 50 HP", check: (s) => playerHp(s) === 50 },
};

/** Every scenario episode, for the benchmark report and the tests. */
export const SCENARIO_EPISODES = [
  armPickAndPlace,
  avatarGreeting,
  towerDefenseOrders,
  arenaFiresWhenAligned,
] as const;
