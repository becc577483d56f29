import { describe, expect, test } from "bun:test";
import { createNeonArena, type NeonArenaOptions } from "./neon-arena";
import type { ApplyResult, ToolCall } from "./world";

function ok(result: ApplyResult): void {
  if (!result.ok) throw new Error(`expected acceptance, got ${result.code}: ${result.reason}`);
}

const duel: NeonArenaOptions = {
  ships: [
    { id: "enemy-1", team: "enemy", x: 700, y: 300 },
    { id: "player", team: "player", x: 100, y: 310 },
  ],
};
const fire = (direction: string): ToolCall => ({ function: "fire", args: { direction } });
const move = (direction: string): ToolCall => ({ function: "move", args: { direction } });

describe("createNeonArena", () => {
  test("environment reads like the scenario example", () => {
    expect(createNeonArena(duel).environment()).toEqual([
      "pos=700,300",
      "player=100,310",
      "dist=600",
      "align_h=true",
      "align_v=false",
      "cd=0",
      "wall=no",
    ]);
  });

  test("a bullet fired along an aligned row hits, costs HP, and starts the cooldown", () => {
    const arena = createNeonArena(duel);
    ok(arena.apply(fire("left")));
    expect(arena.environment()).toContain("cd=5");
    const refused = arena.apply(fire("left"));
    expect(!refused.ok && refused.code).toBe("fire_on_cooldown");
    const events = arena.step(2);
    const hit = events.find((e) => e.type === "hit");
    expect(hit?.detail).toEqual({ ship: "player", by: "enemy-1", bullet: 1, hp: 75 });
    // 600 px at 400 px/s less the two hulls: about 1.4 s.
    expect(hit?.t).toBeGreaterThan(1.3);
    expect(hit?.t).toBeLessThan(1.5);
    expect(arena.state().bullets).toEqual([]);
    expect(arena.environment()).toContain("cd=0");
    expect(arena.history()).toEqual(["fire(left)"]);
  });

  test("a bullet that misses leaves the field", () => {
    const arena = createNeonArena(duel);
    ok(arena.apply(fire("up")));
    expect(arena.step(2).filter((e) => e.type === "hit")).toEqual([]);
    expect(arena.state().bullets).toEqual([]);
    expect(arena.state().ships.map((s) => s.hp)).toEqual([100, 100]);
  });

  test("four hits destroy a ship, which then cannot act", () => {
    const arena = createNeonArena(duel);
    for (let i = 0; i < 4; i++) {
      ok(arena.apply(fire("right"), "player"));
      arena.step(0.5);
    }
    const events = arena.step(2);
    expect(events.map((e) => e.type)).toContain("destroyed");
    const ship = arena.state().ships.find((s) => s.id === "enemy-1");
    expect(ship).toMatchObject({ hp: 0, alive: false });
    const refused = arena.apply(move("up"));
    expect(!refused.ok && refused.code).toBe("destroyed");
    expect(arena.environment("player")).toEqual(["pos=100,310", "enemy=none", "cd=0", "wall=no"]);
    expect(arena.history("player")).toEqual(["fire(right)", "fire(right)", "fire(right)", "fire(right)"]);
  });

  test("move steps one step and updates alignment; a wall refuses it", () => {
    const arena = createNeonArena({
      ships: [
        { id: "enemy-1", team: "enemy", x: 880, y: 20 },
        { id: "player", team: "player", x: 880, y: 500 },
      ],
    });
    expect(arena.environment()).toEqual([
      "pos=880,20",
      "player=880,500",
      "dist=480",
      "align_h=false",
      "align_v=true",
      "cd=0",
      "wall=up,right",
    ]);
    for (const direction of ["up", "right"]) {
      const refused = arena.apply(move(direction));
      expect(!refused.ok && [refused.code, refused.field]).toEqual(["blocked_by_wall", "direction"]);
    }
    ok(arena.apply(move("down")));
    ok(arena.apply(move("left")));
    expect(arena.state().ships[0]).toMatchObject({ x: 860, y: 40 });
    expect(arena.environment()).toContain("align_v=true");
    ok(arena.apply(move("left")));
    expect(arena.environment()).toContain("align_v=false");
    expect(arena.history()).toEqual(["move(down)", "move(left)", "move(left)"]);
  });

  test("the default arena has a squad and two enemy ships, the first enemy in control", () => {
    const arena = createNeonArena();
    expect(arena.control).toBe("enemy-1");
    expect(arena.state().ships.map((s) => `${s.id}:${s.team}`)).toEqual([
      "enemy-1:enemy",
      "enemy-2:enemy",
      "player:player",
    ]);
    ok(arena.apply(fire("down"), "enemy-2"));
    expect(arena.history("enemy-2")).toEqual(["fire(down)"]);
    expect(arena.history()).toEqual([]);
  });

  describe("rejections", () => {
    const cases: Array<[string, ToolCall, string, string]> = [
      ["bad direction", move("forward"), "bad_enum", "direction"],
      ["missing direction", { function: "fire", args: {} }, "missing_arg", "direction"],
      ["unknown tool", { function: "shield", args: {} }, "unknown_tool", "function"],
    ];
    for (const [name, call, code, field] of cases) {
      test(name, () => {
        const arena = createNeonArena(duel);
        const result = arena.apply(call);
        expect(!result.ok && [result.code, result.field]).toEqual([code, field]);
        expect(arena.history()).toEqual([]);
      });
    }

    test("unknown ship", () => {
      const result = createNeonArena(duel).apply(move("up"), "ghost");
      expect(!result.ok && result.code).toBe("unknown_ship");
    });
  });
});
