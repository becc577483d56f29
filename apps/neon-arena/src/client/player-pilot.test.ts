import { expect, test } from "bun:test";
import { createNeonArena } from "@rtool/sim";
import { pilotPlayer } from "./player-pilot";

test("the player ship lines up with the nearest enemy, then fires at it", () => {
  const arena = createNeonArena({
    ships: [
      { id: "enemy-1", team: "enemy", x: 700, y: 200 },
      { id: "player", team: "player", x: 100, y: 300 },
    ],
  });
  expect(pilotPlayer(arena.state(), "player")).toEqual({ function: "move", args: { direction: "up" } });
  for (let i = 0; i < 10; i++) {
    const call = pilotPlayer(arena.state(), "player");
    if (call?.function === "fire") break;
    arena.apply(call!, "player");
  }
  expect(pilotPlayer(arena.state(), "player")).toEqual({ function: "fire", args: { direction: "right" } });
  arena.apply({ function: "fire", args: { direction: "right" } }, "player");
  expect(pilotPlayer(arena.state(), "player")).toBeNull(); // gun cooling down
});

test("it sidesteps a bullet coming down its row and does nothing once destroyed or alone", () => {
  const arena = createNeonArena({
    ships: [
      { id: "enemy-1", team: "enemy", x: 300, y: 300 },
      { id: "player", team: "player", x: 100, y: 300 },
    ],
  });
  arena.apply({ function: "fire", args: { direction: "left" } }, "enemy-1");
  arena.step(0.25); // the bullet is 100 px away now
  expect(pilotPlayer(arena.state(), "player")?.function).toBe("move");
  expect(pilotPlayer({ ...arena.state(), ships: [] }, "player")).toBeNull();
});
