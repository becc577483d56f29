/**
 * Pong on an 800x600 field, stepped in fixed 60 Hz frames (velocities are pixels per frame, as in
 * the scenario's environment). The model drives the right paddle with pong.json's `move_paddle`:
 * the direction holds until the next call, and the paddle stops at the field's edge. The left
 * paddle follows the ball at a capped speed, so it can be beaten.
 *
 * Rules: `move_paddle` toward an edge the paddle already touches is `at_bound`; `stay` is always
 * accepted. A ball past a paddle scores for the other side and is served again from the center,
 * toward the side that conceded, with a vertical speed drawn from the seed.
 */
import { dispatchCall, type ValidArgs } from "./call-dispatch";
import { createPrng } from "./prng";
import { frameClock, scenarioWorld } from "./scenario-world";
import { scenarioTools } from "./scenarios";
import { type ApplyResult, accept, reject, type ToolCall, type World, type WorldEvent } from "./world";

export type PaddleDirection = "up" | "down" | "stay";

const FRAME_S = 1 / 60;

export interface PongOptions {
  width?: number;
  height?: number;
  ball?: { x: number; y: number };
  /** Ball velocity in pixels per frame; default (6, -2). */
  velocity?: { x: number; y: number };
  /** Centre of the right (model) paddle; default the field's middle. */
  paddleY?: number;
  paddleHeight?: number;
  /** Pixels per frame for the model's paddle. */
  paddleSpeed?: number;
  /** Pixels per frame for the scripted left paddle. */
  opponentSpeed?: number;
  seed?: number;
}

export interface PongState {
  t: number;
  frame: number;
  width: number;
  height: number;
  ball: { x: number; y: number; vx: number; vy: number };
  paddles: { left: { x: number; y: number }; right: { x: number; y: number; direction: PaddleDirection } };
  paddleHeight: number;
  score: { left: number; right: number };
}

export type PongWorld = World<PongState>;

/**
 * Creates a Pong world.
 *
 * @example
 * const pong = createPong({ ball: { x: 400, y: 120 }, velocity: { x: 6, y: -2 }, paddleY: 300 });
 * pong.environment(); // ["ball=400,120", "vel=6,-2", "paddle_y=300", "height=600"]
 * pong.apply({ function: "move_paddle", args: { direction: "up" } });
 * pong.step(0.5); // the paddle rises 8 px a frame
 */
export function createPong(options: PongOptions = {}): PongWorld {
  const tools = scenarioTools("pong");
  const rng = createPrng(options.seed ?? 1);
  const width = options.width ?? 800;
  const height = options.height ?? 600;
  const paddleHeight = options.paddleHeight ?? 100;
  const half = paddleHeight / 2;
  const speed = options.paddleSpeed ?? 8;
  const opponentSpeed = options.opponentSpeed ?? 5;
  const ballRadius = 8;
  const ball = {
    x: options.ball?.x ?? width / 2,
    y: options.ball?.y ?? height / 2,
    vx: options.velocity?.x ?? 6,
    vy: options.velocity?.y ?? -2,
  };
  const left = { x: 30, y: height / 2 };
  const right = { x: width - 30, y: options.paddleY ?? height / 2, direction: "stay" as PaddleDirection };
  const score = { left: 0, right: 0 };
  const calls: string[] = [];
  let frame = 0;
  const clock = frameClock(FRAME_S);

  const time = () => frame * FRAME_S;
  const event = (type: string, detail: Record<string, unknown>): WorldEvent => ({ t: time(), type, detail });
  const atTop = () => right.y - half <= 0;
  const atBottom = () => right.y + half >= height;

  const handlers = {
    move_paddle(args: ValidArgs): ApplyResult {
      const direction = args.direction as PaddleDirection;
      if ((direction === "up" && atTop()) || (direction === "down" && atBottom())) {
        return reject(
          "at_bound",
          `the paddle already touches the ${direction === "up" ? "top" : "bottom"}`,
          "direction",
        );
      }
      right.direction = direction;
      return accept([event("paddle", { direction })]);
    },
  };

  function serve(towardRight: boolean): void {
    ball.x = width / 2;
    ball.y = height / 2;
    ball.vx = towardRight ? 6 : -6;
    ball.vy = rng.pick([-3, -2, -1, 1, 2, 3]);
  }

  /** Bounces the ball off a paddle face, with spin from where it struck. */
  function bounce(paddle: { x: number; y: number }, side: "left" | "right", out: WorldEvent[]): void {
    const offset = (ball.y - paddle.y) / half;
    ball.vx = -ball.vx;
    ball.vy = Math.round(offset * 4) || ball.vy;
    ball.x = side === "right" ? paddle.x - ballRadius : paddle.x + ballRadius;
    out.push(event("hit", { paddle: side }));
  }

  function runFrame(out: WorldEvent[]): void {
    frame += 1;
    if (right.direction !== "stay") {
      const next = right.y + (right.direction === "up" ? -speed : speed);
      right.y = Math.min(height - half, Math.max(half, next));
      if (atTop() || atBottom()) {
        out.push(event("paddle_stopped", { at: right.direction === "up" ? "top" : "bottom" }));
        right.direction = "stay";
      }
    }
    const chase = Math.max(-opponentSpeed, Math.min(opponentSpeed, ball.y - left.y));
    left.y = Math.min(height - half, Math.max(half, left.y + chase));
    ball.x += ball.vx;
    ball.y += ball.vy;
    if (ball.y - ballRadius < 0 || ball.y + ballRadius > height) {
      ball.vy = -ball.vy;
      ball.y = ball.y - ballRadius < 0 ? 2 * ballRadius - ball.y : 2 * (height - ballRadius) - ball.y;
    }
    const reaches = (paddle: { y: number }) => Math.abs(ball.y - paddle.y) <= half + ballRadius;
    if (
      ball.vx > 0 &&
      ball.x + ballRadius >= right.x &&
      ball.x - ball.vx + ballRadius < right.x &&
      reaches(right)
    ) {
      bounce(right, "right", out);
    } else if (
      ball.vx < 0 &&
      ball.x - ballRadius <= left.x &&
      ball.x - ball.vx - ballRadius > left.x &&
      reaches(left)
    ) {
      bounce(left, "left", out);
    }
    if (ball.x > width || ball.x < 0) {
      const scorer = ball.x > width ? "left" : "right";
      score[scorer] += 1;
      out.push(event("scored", { by: scorer, score: { ...score } }));
      serve(scorer === "left");
    }
  }

  const environment = () => [
    `ball=${Math.round(ball.x)},${Math.round(ball.y)}`,
    `vel=${ball.vx},${ball.vy}`,
    `paddle_y=${Math.round(right.y)}`,
    `height=${height}`,
  ];

  /** Runs the whole frames in `dtSeconds` (the remainder carries over to the next step). */
  function advance(dtSeconds: number): WorldEvent[] {
    const out: WorldEvent[] = [];
    const frames = clock.frames(dtSeconds);
    for (let i = 0; i < frames; i++) runFrame(out);
    return out;
  }

  return {
    ...scenarioWorld("pong", tools, environment, advance),
    apply: (call: ToolCall) => dispatchCall(tools, handlers, call, calls),
    history: () => [...calls],
    state: (): PongState => ({
      t: time(),
      frame,
      width,
      height,
      ball: { ...ball },
      paddles: { left: { ...left }, right: { ...right } },
      paddleHeight,
      score: { ...score },
    }),
  };
}
