import type { Phrasing } from "../phrasing";
import type { TargetCall } from "../types";
import {
  FLAPPY_FLAP_EN_MORE,
  FLAPPY_FLAP_ZH_MORE,
  FLAPPY_WAIT_EN_MORE,
  FLAPPY_WAIT_ZH_MORE,
  PONG_MOVE_EN_MORE,
  PONG_MOVE_ZH_MORE,
  PONG_STAY_EN_MORE,
  PONG_STAY_ZH_MORE,
  PONG_TURN_EN_MORE,
  PONG_TURN_ZH_MORE,
  SHIP_FIRE_EN_MORE,
  SHIP_FIRE_ZH_MORE,
  SHIP_MOVE_EN_MORE,
  SHIP_MOVE_ZH_MORE,
  SHIP_TURN_EN_MORE,
  SHIP_TURN_ZH_MORE,
} from "./arcade-phrasings";
import { type Draw, placeEnvironment, priorCalls } from "./draw";

const DIR_EN: Record<string, string[]> = {
  up: ["up", "upward"],
  down: ["down", "downward"],
  left: ["left", "to the left"],
  right: ["right", "to the right"],
};
const DIR_ZH: Record<string, string[]> = {
  up: ["上", "向上"],
  down: ["下", "向下"],
  left: ["左", "向左"],
  right: ["右", "向右"],
};

/** An integer in [lo, hi]: half the time a multiple of 10, else any (worlds report both). */
export function anyOrRound(ph: Phrasing, lo: number, hi: number): number {
  const r = ph.rng;
  return r.chance(0.5) ? r.int(Math.ceil(lo / 10), Math.floor(hi / 10)) * 10 : r.int(lo, hi);
}

/**
 * Neon Arena enemy ship. Rule the targets follow, kept to one comparison so a tiny model can
 * learn it: aligned on an axis with the gun cool (`cd=0`): fire toward the player along it;
 * not level with the player: move up/down toward the player's y; level but cooling down:
 * move left/right toward the player. Explicit orders ("move left") are obeyed.
 */
export function drawNeonShip(ph: Phrasing): Draw {
  const r = ph.rng;
  const en = ph.lang === "en";
  const pos = [anyOrRound(ph, 10, 890), anyOrRound(ph, 10, 590)];
  const alignCase = r.int(0, 2);
  const player = [r.int(2, 88) * 10 + r.int(-9, 9), r.int(2, 58) * 10 + r.int(-9, 9)];
  if (alignCase === 0) player[1] = pos[1]! + r.int(-15, 15);
  if (alignCase === 1) player[0] = pos[0]! + r.int(-15, 15);
  const dx = player[0]! - pos[0]!;
  const dy = player[1]! - pos[1]!;
  const alignH = Math.abs(dy) <= 20;
  const alignV = Math.abs(dx) <= 20 && !alignH;
  const cd = r.chance(0.7) ? 0 : r.int(1, 9);
  // Edges within one 20 px step, as the arena world reports them.
  const walls = [
    ...(pos[1]! - 20 < 10 ? ["up"] : []),
    ...(pos[1]! + 20 > 590 ? ["down"] : []),
    ...(pos[0]! - 20 < 10 ? ["left"] : []),
    ...(pos[0]! + 20 > 890 ? ["right"] : []),
  ];
  const env = [
    `pos=${pos.join(",")}`,
    `player=${player.join(",")}`,
    `dist=${Math.round(Math.hypot(dx, dy))}`,
    `align_h=${alignH}`,
    `align_v=${alignV}`,
    `cd=${cd}`,
    `wall=${walls.length > 0 ? walls.join(",") : "no"}`,
  ];
  const history = r.sample(
    [
      "fire(left)",
      "move(up)",
      "fire(right)",
      "move(down)",
      "move(left)",
      "move(right)",
      "fire(up)",
      "fire(down)",
    ],
    r.int(0, 4),
  );
  let call: TargetCall;
  let query: string;
  if (r.chance(0.25)) {
    const fn = r.pick(["move", "fire"]);
    const d = r.pick(["up", "down", "left", "right"]);
    const w = r.pick((en ? DIR_EN : DIR_ZH)[d]!);
    const t =
      fn === "move"
        ? en
          ? ph.choose(["move {d}", "go {d}", "step {d}", "dodge {d}", "head {d}", ...SHIP_MOVE_EN_MORE])
          : ph.choose(["{d}移动", "往{d}走", "{d}躲", "向{d}移一步", ...SHIP_MOVE_ZH_MORE])
        : en
          ? ph.choose([
              "fire {d}",
              "shoot {d}",
              "open fire {d}",
              "blast {d}",
              "fire a shot {d}",
              ...SHIP_FIRE_EN_MORE,
            ])
          : ph.choose(["{d}开火", "朝{d}射击", "往{d}打", "向{d}开炮", ...SHIP_FIRE_ZH_MORE]);
    query = ph.say(t, { d: w });
    call = { function: fn, args: { direction: d } };
  } else {
    if ((alignH || alignV) && cd === 0) {
      const direction = alignH ? (dx < 0 ? "left" : "right") : dy < 0 ? "up" : "down";
      call = { function: "fire", args: { direction } };
    } else if (!alignH) {
      call = { function: "move", args: { direction: dy < 0 ? "up" : "down" } };
    } else {
      call = { function: "move", args: { direction: dx < 0 ? "left" : "right" } };
    }
    const t = en
      ? ph.choose([
          "Fire at the player if aligned.",
          "Your turn.",
          "Act.",
          "Attack the player.",
          "Next move.",
          "Engage the player.",
          "Take your turn",
          "Hunt the player down.",
          "What now?",
          ...SHIP_TURN_EN_MORE,
        ])
      : ph.choose([
          "如果对齐就向玩家开火。",
          "轮到你了。",
          "行动。",
          "攻击玩家。",
          "下一步。",
          "追击玩家。",
          "你的回合",
          ...SHIP_TURN_ZH_MORE,
        ]);
    query = ph.say(t);
  }
  return { query, environment: env, history, call };
}

/** Pong, right paddle: move toward the ball's height (within 20 px: stay); explicit orders obeyed. */
export function drawPong(ph: Phrasing): Draw {
  const r = ph.rng;
  const en = ph.lang === "en";
  const height = r.pick([600, 600, 480, 400]);
  // Worlds report any pixel, not only round ones: half the values are arbitrary integers, so a
  // last digit never tells the direction (with round-only balls the model learned "stay" for
  // every ball not ending in 0).
  const paddle = anyOrRound(ph, 30, height - 30);
  let ball = anyOrRound(ph, 5, height - 5);
  // A fifth of the balls within the "stay" band, a sixth just outside it (21-60 px away).
  const inBand = r.chance(0.2);
  const nearBand = !inBand && r.chance(0.2);
  if (inBand) ball = paddle + r.int(-20, 20);
  else if (nearBand) ball = paddle + r.pick([-1, 1]) * r.int(21, 60);
  ball = Math.max(5, Math.min(height - 5, ball));
  const env = [
    `ball=${anyOrRound(ph, 100, 790)},${ball}`,
    `vel=${r.pick([-1, 1]) * r.int(2, 9)},${r.int(-6, 6)}`,
    `paddle_y=${paddle}`,
    `height=${height}`,
  ];
  const diff = ball - paddle;
  let direction = Math.abs(diff) <= 20 ? "stay" : diff < 0 ? "up" : "down";
  let query: string;
  if (r.chance(0.25)) {
    direction = r.pick(["up", "down", "stay"]);
    const w = en
      ? {
          up: ["up", "upward", "higher"],
          down: ["down", "downward", "lower"],
          stay: ["still", "put", "where you are"],
        }
      : { up: ["上", "向上"], down: ["下", "向下"], stay: ["不动", "原地"] };
    const words = w[direction as "up" | "down" | "stay"];
    const t =
      direction === "stay"
        ? en
          ? ph.choose(["stay {d}", "hold {d}", "keep the paddle {d}", "don't move", ...PONG_STAY_EN_MORE])
          : ph.choose(["保持{d}", "{d}", "别动", ...PONG_STAY_ZH_MORE])
        : en
          ? ph.choose(["move {d}", "go {d}", "paddle {d}", "shift {d}", ...PONG_MOVE_EN_MORE])
          : ph.choose(["往{d}移", "{d}移动", "挡板往{d}", ...PONG_MOVE_ZH_MORE]);
    query = ph.say(t, { d: r.pick(words) });
  } else {
    query = ph.say(
      en
        ? ph.choose([
            "Move the paddle.",
            "Your move.",
            "Track the ball.",
            "Go get the ball.",
            "Block it.",
            "Next frame.",
            ...PONG_TURN_EN_MORE,
          ])
        : ph.choose(["移动挡板。", "该你了。", "跟住球。", "去接球。", "挡住它。", ...PONG_TURN_ZH_MORE]),
    );
  }
  return { query, environment: env, history: [], call: { function: "move_paddle", args: { direction } } };
}

/** Flappy Bird: flap when told to tap, jump or fly up; otherwise wait. */
export function drawFlappy(ph: Phrasing): Draw {
  const r = ph.rng;
  const en = ph.lang === "en";
  const env = [
    `bird_y=${anyOrRound(ph, 50, 550)}`,
    `gap_y=${anyOrRound(ph, 100, 500)}`,
    `next_pipe_x=${anyOrRound(ph, 20, 400)}`,
  ];
  const flap = r.chance(0.55);
  const t = flap
    ? en
      ? ph.choose([
          "tap the screen",
          "jump",
          "fly up",
          "flap",
          "tap",
          "jump now!",
          "go up",
          "flap your wings",
          "tap tap",
          "hop",
          ...FLAPPY_FLAP_EN_MORE,
        ])
      : ph.choose([
          "点一下屏幕",
          "跳",
          "往上飞",
          "拍翅膀",
          "点击",
          "跳一下",
          "飞起来",
          "起跳",
          ...FLAPPY_FLAP_ZH_MORE,
        ])
    : en
      ? ph.choose([
          "wait",
          "don't flap",
          "hold",
          "not yet",
          "do nothing",
          "let it fall",
          "chill",
          "stay",
          "easy, wait",
          ...FLAPPY_WAIT_EN_MORE,
        ])
      : ph.choose([
          "等等",
          "先别跳",
          "别动",
          "还没到",
          "什么都别做",
          "等一下",
          "不要点",
          ...FLAPPY_WAIT_ZH_MORE,
        ]);
  const call: TargetCall = { function: flap ? "flap" : "wait", args: {} };
  // the arena's Flappy agent sends the bird's last six calls
  const history = priorCalls(ph, () => ({ function: r.chance(0.5) ? "flap" : "wait", args: {} }), 6);
  if (r.chance(0.7)) return { query: ph.say(t), environment: env, history, call };
  return placeEnvironment(ph, [], ph.say(t), history, call);
}
