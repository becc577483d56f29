import { describe, expect, test } from "bun:test";
import { ARM_HOME, type ArmWorld, createArm } from "./arm";
import type { ApplyResult } from "./world";

function ok(result: ApplyResult): void {
  if (!result.ok) throw new Error(`expected acceptance, got ${result.code}: ${result.reason}`);
}

function settle(arm: ArmWorld): void {
  const motion = arm.state().motion;
  if (motion) arm.step(motion.durationS - motion.elapsedS);
}

function moveAndSettle(arm: ArmWorld, x: number, y: number, z: number, speed = "fast"): void {
  ok(arm.apply({ function: "move_to", args: { x, y, z, speed } }));
  settle(arm);
}

describe("createArm", () => {
  test("starts at home with the gripper open and the red gear on the table", () => {
    const arm = createArm();
    const state = arm.state();
    expect(state.tip).toEqual({ ...ARM_HOME });
    expect(state.gripper).toBe("open");
    expect(state.holding).toBeNull();
    expect(state.objects).toEqual([
      { name: "red gear", x: 300, y: 150, z: 50, location: "table", crushed: false },
    ]);
    expect(arm.environment()).toEqual([
      "Arm at home (0,0,500), gripper open",
      "Part: red gear at (300,150,50), tray at (600,0,80)",
    ]);
    expect(arm.describe()).toBe(arm.environment().join("\n"));
  });

  test("a move takes distance / speed and reports progress while it runs", () => {
    const arm = createArm();
    const result = arm.apply({ function: "move_to", args: { x: 0, y: 0, z: 300, speed: "slow" } });
    expect(result.ok && result.events[0].detail?.durationS).toBe(2);
    arm.step(0.5);
    expect(arm.state().motion?.progress).toBe(0.25);
    expect(arm.state().tip.z).toBe(450);
    expect(arm.environment()[0]).toBe("Arm moving to (0,0,300), 25% done, gripper open");
    const events = arm.step(2);
    expect(events).toEqual([{ t: 2, type: "arrived", detail: { at: { x: 0, y: 0, z: 300 } } }]);
    expect(arm.state().motion).toBeNull();
    expect(arm.state().t).toBe(2.5);
  });

  test("speed profiles order slow > normal > fast in time, normal is the default", () => {
    const durations = ["slow", "normal", "fast", undefined].map((speed) => {
      const result = createArm().apply({ function: "move_to", args: { x: 0, y: 0, z: 0 + 250, speed } });
      return result.ok ? result.events[0].detail?.durationS : -1;
    });
    expect(durations).toEqual([2.5, 1, 0.5, 1]);
  });

  test("a new move preempts the running one from where the tip is", () => {
    const arm = createArm();
    ok(arm.apply({ function: "move_to", args: { x: 0, y: 0, z: 300, speed: "slow" } }));
    arm.step(1);
    const result = arm.apply({ function: "move_to", args: { x: 0, y: 0, z: 500, speed: "slow" } });
    expect(result.ok && result.events[0].detail?.preempted).toBe(true);
    expect(arm.state().motion?.from).toEqual({ x: 0, y: 0, z: 400 });
    expect(arm.state().motion?.durationS).toBe(1);
  });

  test("pick and place: go to the gear, grip medium, lift, go to the tray, release, home", () => {
    const arm = createArm();
    moveAndSettle(arm, 300, 150, 50, "slow");
    expect(arm.environment()[0]).toBe("Arm above the red gear, gripper open");
    ok(arm.apply({ function: "grip", args: { force: 50 } }));
    expect(arm.state().holding).toBe("red gear");
    expect(arm.state().gripper).toBe("closed");
    moveAndSettle(arm, 300, 150, 200);
    expect(arm.state().objects[0]).toMatchObject({ x: 300, y: 150, z: 200, location: "gripper" });
    moveAndSettle(arm, 600, 0, 150);
    expect(arm.environment()).toEqual([
      "Arm above the tray (600,0,150), holding the red gear",
      "Part: red gear in the gripper, tray at (600,0,80)",
    ]);
    ok(arm.apply({ function: "release", args: {} }));
    ok(arm.apply({ function: "home", args: {} }));
    settle(arm);
    const state = arm.state();
    expect(state.tip).toEqual({ ...ARM_HOME });
    expect(state.holding).toBeNull();
    expect(state.gripper).toBe("open");
    expect(state.objects[0]).toEqual({
      name: "red gear",
      x: 600,
      y: 0,
      z: 80,
      location: "tray",
      crushed: false,
    });
    expect(arm.environment()[1]).toBe("Part: red gear in the tray, tray at (600,0,80)");
    expect(arm.history()).toEqual([
      "move_to(300,150,50,slow)",
      "grip(50)",
      "move_to(300,150,200,fast)",
      "move_to(600,0,150,fast)",
      "release()",
      "home()",
    ]);
  });

  test("released away from the tray, a part falls to the table under the tip", () => {
    const arm = createArm();
    moveAndSettle(arm, 300, 150, 50);
    ok(arm.apply({ function: "grip", args: { force: 50 } }));
    moveAndSettle(arm, 200, -300, 250);
    const result = arm.apply({ function: "release", args: {} });
    expect(result.ok && result.events[0].detail).toEqual({ object: "red gear", into: "table", fallMm: 200 });
    expect(arm.state().objects[0]).toMatchObject({ x: 200, y: -300, z: 50, location: "table" });
  });

  test("too little force lets the part slip; too much crushes it", () => {
    const light = createArm();
    moveAndSettle(light, 300, 150, 50);
    const slipped = light.apply({ function: "grip", args: { force: 10 } });
    expect(slipped.ok && slipped.events.map((e) => e.type)).toEqual(["slipped"]);
    expect(light.state()).toMatchObject({ holding: null, gripper: "closed" });
    // A closed, empty gripper opens on release.
    const opened = light.apply({ function: "release", args: {} });
    expect(opened.ok && opened.events.map((e) => e.type)).toEqual(["opened"]);

    const heavy = createArm({ objects: [{ name: "glass vial", x: 300, y: 150, z: 50, part: "light" }] });
    moveAndSettle(heavy, 300, 150, 50);
    const crushed = heavy.apply({ function: "grip", args: { force: 100 } });
    expect(crushed.ok && crushed.events.map((e) => e.type)).toEqual(["gripped", "crushed"]);
    expect(heavy.state().objects[0].crushed).toBe(true);
    expect(heavy.environment()[1]).toBe("Part: glass vial (crushed) in the gripper, tray at (600,0,80)");
  });

  test("grips within the tolerance and picks the nearest part", () => {
    const arm = createArm({
      objects: [
        { name: "bolt", x: 300, y: 0, z: 20 },
        { name: "nut", x: 310, y: 0, z: 20 },
      ],
    });
    moveAndSettle(arm, 308, 0, 25);
    ok(arm.apply({ function: "grip", args: { force: 50 } }));
    expect(arm.state().holding).toBe("nut");
  });

  test("rotate turns about one axis, wraps at 180 and leaves the tip", () => {
    const arm = createArm();
    ok(arm.apply({ function: "rotate", args: { axis: "yaw", angle: 90 } }));
    ok(arm.apply({ function: "rotate", args: { axis: "yaw", angle: 135 } }));
    expect(arm.state().orientation).toEqual({ roll: 0, pitch: 0, yaw: -135 });
    expect(arm.state().tip).toEqual({ ...ARM_HOME });
  });

  test("home while holding releases the part where the tip is, then goes home", () => {
    const arm = createArm();
    moveAndSettle(arm, 300, 150, 50);
    ok(arm.apply({ function: "grip", args: { force: 50 } }));
    const result = arm.apply({ function: "home", args: {} });
    expect(result.ok && result.events.map((e) => e.type)).toEqual(["released", "move_started"]);
    expect(arm.state()).toMatchObject({ holding: null, gripper: "open" });
  });

  describe("rejections leave the state and history unchanged", () => {
    const cases: Array<[string, (arm: ArmWorld) => ApplyResult, string, string?]> = [
      [
        "unreachable target",
        (a) => a.apply({ function: "move_to", args: { x: 800, y: 800, z: 0 } }),
        "unreachable",
      ],
      [
        "below the table",
        (a) => a.apply({ function: "move_to", args: { x: 300, y: 0, z: -5 } }),
        "collision",
        "z",
      ],
      ["inside the base", (a) => a.apply({ function: "move_to", args: { x: 20, y: 0, z: 50 } }), "collision"],
      [
        "inside the tray",
        (a) => a.apply({ function: "move_to", args: { x: 600, y: 0, z: 40 } }),
        "collision",
        "z",
      ],
      [
        "grip with nothing under the tip",
        (a) => a.apply({ function: "grip", args: { force: 50 } }),
        "nothing_to_grip",
      ],
      ["grip force zero", (a) => a.apply({ function: "grip", args: { force: 0 } }), "out_of_range", "force"],
      [
        "grip force over the limit",
        (a) => a.apply({ function: "grip", args: { force: 500 } }),
        "out_of_range",
      ],
      ["release with nothing held", (a) => a.apply({ function: "release", args: {} }), "nothing_held"],
      [
        "rotate too far",
        (a) => a.apply({ function: "rotate", args: { axis: "roll", angle: 270 } }),
        "out_of_range",
      ],
      [
        "bad enum",
        (a) => a.apply({ function: "rotate", args: { axis: "spin", angle: 10 } }),
        "bad_enum",
        "axis",
      ],
      [
        "bad speed",
        (a) => a.apply({ function: "move_to", args: { x: 1, y: 1, z: 300, speed: "warp" } }),
        "bad_enum",
      ],
      ["missing arg", (a) => a.apply({ function: "move_to", args: { x: 300, y: 0 } }), "missing_arg", "z"],
      ["string number", (a) => a.apply({ function: "grip", args: { force: "50" } }), "bad_type", "force"],
      ["unknown arg", (a) => a.apply({ function: "home", args: { fast: true } }), "unknown_arg", "fast"],
      ["unknown tool", (a) => a.apply({ function: "weld", args: {} }), "unknown_tool", "function"],
    ];
    for (const [name, run, code, field] of cases) {
      test(name, () => {
        const arm = createArm();
        const before = arm.state();
        const result = run(arm);
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.code).toBe(code as typeof result.code);
        if (field) expect(result.field).toBe(field);
        expect(result.reason.length).toBeGreaterThan(0);
        expect(arm.state()).toEqual(before);
        expect(arm.history()).toEqual([]);
      });
    }

    test("grip, release and rotate while moving", () => {
      const arm = createArm();
      ok(arm.apply({ function: "move_to", args: { x: 300, y: 150, z: 50 } }));
      for (const call of [
        { function: "grip", args: { force: 50 } },
        { function: "release", args: {} },
        { function: "rotate", args: { axis: "yaw", angle: 10 } },
      ]) {
        const result = arm.apply(call);
        expect(!result.ok && result.code).toBe("in_motion");
      }
    });

    test("grip while already holding", () => {
      const arm = createArm();
      moveAndSettle(arm, 300, 150, 50);
      ok(arm.apply({ function: "grip", args: { force: 50 } }));
      const result = arm.apply({ function: "grip", args: { force: 50 } });
      expect(!result.ok && result.code).toBe("already_holding");
    });
  });

  test("step refuses negative or non-finite times", () => {
    const arm = createArm();
    expect(() => arm.step(-1)).toThrow("finite time");
    expect(() => arm.step(Number.NaN)).toThrow("finite time");
  });

  test("tools and system are the scenario's", () => {
    const arm = createArm();
    expect(arm.tools.map((tool) => tool.function.name)).toEqual([
      "move_to",
      "grip",
      "release",
      "rotate",
      "home",
    ]);
    expect(arm.system).toContain("6-axis industrial robot arm");
  });
});
