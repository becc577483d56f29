import { describe, expect, test } from "bun:test";
import { createTowerDefense, type TowerDefenseOptions } from "./tower-defense";
import type { ApplyResult, ToolCall } from "./world";

function ok(result: ApplyResult): void {
  if (!result.ok) throw new Error(`expected acceptance, got ${result.code}: ${result.reason}`);
}

const exampleOptions: TowerDefenseOptions = {
  wave: 5,
  enemies: 8,
  boss: true,
  massing: "north",
  operators: [
    { name: "Blaze", position: "north", hpPercent: 50 },
    { name: "Amiya", position: "center", hpPercent: 90 },
  ],
};

const call = (fn: string, args: Record<string, unknown> = {}): ToolCall => ({ function: fn, args });

describe("createTowerDefense", () => {
  test("environment reads like the scenario example", () => {
    expect(createTowerDefense(exampleOptions).environment()).toEqual([
      "Wave 5, a boss is on the field, 8 enemies left",
      "Operators: Blaze(north,HP50%,skill ready) Amiya(center,HP90%,skill ready)",
      "Enemies massing north",
    ]);
  });

  test("the default roster has a bench and an operator still charging", () => {
    const game = createTowerDefense({ wave: 1 });
    expect(game.environment().slice(1, 3)).toEqual([
      "Operators: Amiya(center,HP90%,skill ready) Blaze(north,HP50%,skill ready) Texas(south,HP100%,skill charging)",
      "Bench: SilverAsh(HP100%)",
    ]);
  });

  test("a skill runs, then the gauge recharges from zero before it can fire again", () => {
    const game = createTowerDefense({ ...exampleOptions, skillDurationS: 2 });
    ok(game.apply(call("use_skill", { unit_id: "Amiya" })));
    expect(game.state().operators[1]).toMatchObject({ skillGauge: 0, skillActive: { skill: "s1" } });
    expect(game.environment()[1]).toContain("Amiya(center,HP90%,skill active)");
    const again = game.apply(call("use_skill", { unit_id: "Amiya" }));
    expect(!again.ok && again.code).toBe("skill_on_cooldown");
    const ended = game.step(2.05).filter((e) => e.type === "skill_ended");
    expect(ended).toHaveLength(1);
    game.step(3);
    const charging = game.apply(call("use_skill", { unit_id: "Amiya", skill_id: "s2" }));
    expect(!charging.ok && charging.reason).toContain("gauge is at 30%");
    const ready = game.step(7.1).filter((e) => e.type === "skill_ready");
    expect(ready.map((e) => e.detail?.unit)).toContain("Amiya");
    ok(game.apply(call("use_skill", { unit_id: "Amiya", skill_id: "s2" })));
    expect(game.history()).toEqual(["use_skill(Amiya)", "use_skill(Amiya,s2)"]);
  });

  test("move, stance and names match case-insensitively", () => {
    const game = createTowerDefense(exampleOptions);
    ok(game.apply(call("move", { unit_id: "amiya", target: "North" })));
    ok(game.apply(call("set_stance", { unit_id: "BLAZE", stance: "aggressive" })));
    expect(game.state().operators.map((op) => [op.name, op.position, op.stance])).toEqual([
      ["Blaze", "north", "aggressive"],
      ["Amiya", "north", "hold"],
    ]);
    expect(game.environment()[1]).toBe(
      "Operators: Blaze(north,HP50%,skill ready,aggressive) Amiya(north,HP90%,skill ready)",
    );
  });

  test("retreat benches one operator, retreat_all the rest, pass changes nothing", () => {
    const game = createTowerDefense(exampleOptions);
    ok(game.apply(call("retreat", { unit_id: "Blaze" })));
    expect(game.environment()).toContain("Bench: Blaze(HP50%)");
    const before = game.state();
    const passed = game.apply(call("pass"));
    expect(passed.ok && passed.events.map((e) => e.type)).toEqual(["passed"]);
    expect(game.state()).toEqual(before);
    ok(game.apply(call("retreat_all")));
    expect(game.state().operators.every((op) => op.position === null)).toBe(true);
    expect(game.environment()[1]).toBe("Operators: none deployed");
    ok(game.deploy("Blaze", "south"));
    expect(game.state().operators[0].position).toBe("south");
    expect(game.history()).toEqual(["retreat(Blaze)", "pass()", "retreat_all()"]);
  });

  describe("rejections", () => {
    const cases: Array<[string, ToolCall, string, string?]> = [
      ["unknown operator", call("use_skill", { unit_id: "Exusiai" }), "unknown_operator", "unit_id"],
      [
        "unknown skill slot",
        call("use_skill", { unit_id: "Blaze", skill_id: "s3" }),
        "unknown_skill",
        "skill_id",
      ],
      [
        "move to where it stands",
        call("move", { unit_id: "Blaze", target: "north" }),
        "already_there",
        "target",
      ],
      [
        "move to an unknown place",
        call("move", { unit_id: "Blaze", target: "upstairs" }),
        "unknown_position",
        "target",
      ],
      ["move without a target", call("move", { unit_id: "Blaze" }), "missing_arg", "target"],
      [
        "same stance",
        call("set_stance", { unit_id: "Blaze", stance: "hold" }),
        "already_in_stance",
        "stance",
      ],
      [
        "unknown stance",
        call("set_stance", { unit_id: "Blaze", stance: "berserk" }),
        "unknown_stance",
        "stance",
      ],
      ["retreat an unknown operator", call("retreat", { unit_id: "Nobody" }), "unknown_operator", "unit_id"],
      ["unknown tool", call("deploy", { unit_id: "Blaze" }), "unknown_tool", "function"],
      ["extra argument", call("pass", { reason: "none" }), "unknown_arg", "reason"],
    ];
    for (const [name, bad, code, field] of cases) {
      test(name, () => {
        const game = createTowerDefense(exampleOptions);
        const before = game.state();
        const result = game.apply(bad);
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.code).toBe(code as typeof result.code);
        if (field) expect(result.field).toBe(field);
        expect(game.state()).toEqual(before);
        expect(game.history()).toEqual([]);
      });
    }

    test("benched operators cannot act; nothing deployed refuses retreat_all", () => {
      const game = createTowerDefense(exampleOptions);
      ok(game.apply(call("retreat_all")));
      for (const bad of [
        call("use_skill", { unit_id: "Amiya" }),
        call("move", { unit_id: "Amiya", target: "west" }),
        call("set_stance", { unit_id: "Amiya", stance: "defensive" }),
        call("retreat", { unit_id: "Amiya" }),
      ]) {
        const result = game.apply(bad);
        expect(!result.ok && result.code).toBe("not_deployed");
      }
      const all = game.apply(call("retreat_all"));
      expect(!all.ok && all.code).toBe("nothing_deployed");
      const redeploy = game.deploy("Amiya", "center");
      ok(redeploy);
      const twice = game.deploy("Amiya", "west");
      expect(!twice.ok && twice.code).toBe("already_there");
    });
  });

  test("blocked enemies wear down their blocker; an open lane leaks lives", () => {
    const game = createTowerDefense({
      wave: 1,
      enemies: 3,
      massing: "east",
      lives: 5,
      operators: [{ name: "Blaze", position: "north", hpPercent: 100 }],
    });
    const events = game.step(30);
    expect(events.filter((e) => e.type === "leaked")).toHaveLength(3);
    expect(game.state().lives).toBe(2);
    expect(game.state().operators[0].hp).toBe(1000);
  });

  test("an operator holding the massing lane clears the wave; the next wave starts after the break", () => {
    const game = createTowerDefense({
      wave: 1,
      enemies: 3,
      massing: "north",
      operators: [{ name: "Blaze", position: "north", stance: "aggressive" }],
    });
    const events = game.step(12);
    expect(events.filter((e) => e.type === "enemy_defeated")).toHaveLength(3);
    expect(game.state().operators[0].hp).toBeLessThan(1000);
    expect(events.some((e) => e.type === "wave_cleared")).toBe(true);
    const next = game.step(5.5).find((e) => e.type === "wave_started");
    expect(next?.detail).toEqual({ wave: 2, enemies: 6 });
    expect(game.environment()[0]).toMatch(/^Wave 2, \d enemies left$/);
  });

  test("when the base falls every tool is refused", () => {
    const game = createTowerDefense({ wave: 1, enemies: 3, massing: "west", lives: 2, operators: [] });
    const events = game.step(40);
    expect(events.at(-1)?.type).toBe("base_fallen");
    expect(game.state().over).toBe(true);
    const result = game.apply(call("pass"));
    expect(!result.ok && result.code).toBe("game_over");
  });

  test("the same seed and calls give the same run", () => {
    const run = () => {
      const game = createTowerDefense({ seed: 42, wave: 3 });
      game.step(12);
      game.apply(call("move", { unit_id: "Texas", target: "east" }));
      game.step(30);
      return game.state();
    };
    expect(run()).toEqual(run());
  });
});
