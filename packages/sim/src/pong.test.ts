import { describe, expect, test } from "bun:test";
import { createPong } from "./pong";
import type { ApplyResult, ToolCall } from "./world";

function ok(result: ApplyResult): void {
  if (!result.ok) throw new Error(`expected acceptance, got ${result.code}: ${result.reason}`);
}

const paddle = (direction: string): ToolCall => ({ function: "move_paddle", args: { direction } });

describe("createPong", () => {
  test("environment reads like the scenario example", () => {
    const pong = createPong({ ball: { x: 400, y: 120 }, velocity: { x: 6, y: -2 }, paddleY: 300 });
    expect(pong.environment()).toEqual(["ball=400,120", "vel=6,-2", "paddle_y=300", "height=600"]);
  });

  test("the ball moves its velocity per 60 Hz frame, whatever the step sizes", () => {
    const a = createPong({ ball: { x: 400, y: 300 }, velocity: { x: 6, y: -2 } });
    a.step(10 / 60);
    expect(a.state().ball).toMatchObject({ x: 460, y: 280 });
    const b = createPong({ ball: { x: 400, y: 300 }, velocity: { x: 6, y: -2 } });
    for (let i = 0; i < 40; i++) b.step(1 / 240);
    expect(b.state()).toEqual(a.state());
  });

  test("a direction holds until the next call; the paddle stops at the edge", () => {
    const pong = createPong({ paddleY: 100, velocity: { x: -6, y: 0 } });
    ok(pong.apply(paddle("up")));
    pong.step(2 / 60);
    expect(pong.state().paddles.right.y).toBe(84);
    const events = pong.step(1);
    expect(events.find((e) => e.type === "paddle_stopped")?.detail).toEqual({ at: "top" });
    expect(pong.state().paddles.right).toMatchObject({ y: 50, direction: "stay" });
    const refused = pong.apply(paddle("up"));
    expect(!refused.ok && [refused.code, refused.field]).toEqual(["at_bound", "direction"]);
    ok(pong.apply(paddle("stay")));
    ok(pong.apply(paddle("down")));
    pong.step(1 / 60);
    expect(pong.state().paddles.right.y).toBe(58);
    expect(pong.history()).toEqual(["move_paddle(up)", "move_paddle(stay)", "move_paddle(down)"]);
  });

  test("the paddle in the ball's path returns it; out of the path the left side scores", () => {
    const saved = createPong({ ball: { x: 700, y: 300 }, velocity: { x: 6, y: 0 }, paddleY: 300 });
    const events = saved.step(0.5);
    expect(events.find((e) => e.type === "hit")?.detail).toEqual({ paddle: "right" });
    expect(saved.state().ball.vx).toBe(-6);

    const missed = createPong({ ball: { x: 700, y: 300 }, velocity: { x: 6, y: 0 }, paddleY: 500 });
    const scored = missed.step(0.5).find((e) => e.type === "scored");
    expect(scored?.detail).toEqual({ by: "left", score: { left: 1, right: 0 } });
    // Served again from the centre toward the side that conceded.
    expect(missed.state().ball.vx).toBe(6);
    expect(missed.state().ball.x).toBeGreaterThan(400);
  });

  test("the ball bounces off the top wall", () => {
    const pong = createPong({ ball: { x: 400, y: 12 }, velocity: { x: 0, y: -6 } });
    pong.step(1 / 60);
    expect(pong.state().ball).toMatchObject({ y: 10, vy: 6 });
  });

  test("a bad direction, a missing one and unknown tools are refused", () => {
    const pong = createPong();
    const bad = pong.apply(paddle("left"));
    expect(!bad.ok && [bad.code, bad.field]).toEqual(["bad_enum", "direction"]);
    const missing = pong.apply({ function: "move_paddle", args: {} });
    expect(!missing.ok && missing.code).toBe("missing_arg");
    const unknown = pong.apply({ function: "serve", args: {} });
    expect(!unknown.ok && unknown.code).toBe("unknown_tool");
    expect(pong.history()).toEqual([]);
  });
});
