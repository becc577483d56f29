import { describe, expect, test } from "bun:test";
import { createFlappy } from "./flappy";
import type { ApplyResult } from "./world";

function ok(result: ApplyResult): void {
  if (!result.ok) throw new Error(`expected acceptance, got ${result.code}: ${result.reason}`);
}

const flap = { function: "flap", args: {} };
const wait = { function: "wait", args: {} };

describe("createFlappy", () => {
  test("environment reads like the scenario example", () => {
    const game = createFlappy({ birdY: 320, pipes: [{ x: 220, gapY: 250 }] });
    expect(game.environment()).toEqual(["bird_y=320", "gap_y=250", "next_pipe_x=120"]);
  });

  test("the bird falls under gravity and a flap kicks it up", () => {
    const falling = createFlappy({ birdY: 300 });
    falling.step(10 / 60);
    // 0.5 + 1.0 + ... + 5.0 = 27.5 px in ten frames.
    expect(falling.state().bird).toMatchObject({ y: 327.5, vy: 5 });
    const flapping = createFlappy({ birdY: 300 });
    ok(flapping.apply(flap));
    flapping.step(1 / 60);
    expect(flapping.state().bird).toMatchObject({ y: 292.5, vy: -7.5 });
    ok(flapping.apply(wait));
    expect(flapping.history()).toEqual(["flap()", "wait()"]);
  });

  test("flying through the gap scores; hitting the pipe or the ground ends the game", () => {
    const through = createFlappy({ birdY: 300, birdVy: 0, pipes: [{ x: 130, gapY: 300 }], gapHeight: 200 });
    let passed = 0;
    for (let frame = 0; frame < 60 && !through.state().over; frame++) {
      if (through.state().bird.y > 310) ok(through.apply(flap));
      passed += through.step(1 / 60).filter((e) => e.type === "passed_pipe").length;
    }
    expect(through.state().over).toBe(false);
    expect(passed).toBe(1);
    expect(through.state().score).toBe(1);

    const blocked = createFlappy({ birdY: 300, pipes: [{ x: 130, gapY: 100 }] });
    const crash = blocked.step(1).find((e) => e.type === "crashed");
    expect(crash?.detail).toEqual({ into: "pipe", score: 0 });

    const falling = createFlappy({ birdY: 500, pipes: [{ x: 700, gapY: 300 }] });
    expect(falling.step(2).find((e) => e.type === "crashed")?.detail).toEqual({ into: "ground", score: 0 });
  });

  test("after a crash both tools are refused until restart; the ceiling refuses a flap", () => {
    const game = createFlappy({ birdY: 560, pipes: [{ x: 700, gapY: 300 }] });
    game.step(1);
    for (const call of [flap, wait]) {
      const result = game.apply(call);
      expect(!result.ok && result.code).toBe("game_over");
    }
    game.restart();
    expect(game.state()).toMatchObject({ over: false, frame: 0, bird: { y: 560 } });
    ok(game.apply(wait));

    const high = createFlappy({ birdY: 12 });
    const refused = high.apply(flap);
    expect(!refused.ok && refused.code).toBe("at_bound");
  });

  test("pipes come from the seed: same seed, same course", () => {
    const course = (seed: number) =>
      createFlappy({ seed })
        .state()
        .pipes.map((p) => p.gapY);
    expect(course(3)).toEqual(course(3));
    expect(course(3)).not.toEqual(course(4));
  });

  test("arguments to argument-less tools and unknown tools are refused", () => {
    const game = createFlappy();
    const extra = game.apply({ function: "flap", args: { times: 2 } });
    expect(!extra.ok && [extra.code, extra.field]).toEqual(["unknown_arg", "times"]);
    const unknown = game.apply({ function: "dive", args: {} });
    expect(!unknown.ok && unknown.code).toBe("unknown_tool");
  });
});
