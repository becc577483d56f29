import { describe, expect, test } from "bun:test";
import { createArm } from "./arm";
import { createAvatar } from "./avatar";
import { createFlappy } from "./flappy";
import { createNeonArena } from "./neon-arena";
import { createPong } from "./pong";
import { type ScenarioExample, type ScenarioName, scenarios } from "./scenarios";
import { createTowerDefense } from "./tower-defense";
import type { World } from "./world";

/**
 * A world in the state each scenario example describes, and the environment lines it must show
 * (the example's own `environment`, or the context lines of its query where the sim writes them).
 */
const exampleWorlds: Record<string, () => { world: World<unknown>; shows?: string[] }> = {
  "robotic_arm#0": () => ({
    world: createArm(),
    shows: ["Arm at home (0,0,500), gripper open", "Part: red gear at (300,150,50), tray at (600,0,80)"],
  }),
  "robotic_arm#1": () => ({
    world: createArm({ tip: { x: 300, y: 150, z: 50 } }),
    shows: ["Arm above the red gear, gripper open"],
  }),
  "digital_human#0": () => ({
    world: createAvatar({ scene: "Stream just started, chat is filling up", chat: ["hi!", "good evening"] }),
    shows: ["Stream just started, chat is filling up", 'Chat: "hi!" "good evening"'],
  }),
  "digital_human#1": () => ({ world: createAvatar() }),
  "tower_defense#0": () => ({
    world: createTowerDefense({
      wave: 5,
      enemies: 8,
      boss: true,
      massing: "north",
      operators: [
        { name: "Blaze", position: "north", hpPercent: 50 },
        { name: "Amiya", position: "center", hpPercent: 90 },
      ],
    }),
    shows: [
      "Wave 5, a boss is on the field, 8 enemies left",
      "Operators: Blaze(north,HP50%,skill ready) Amiya(center,HP90%,skill ready)",
      "Enemies massing north",
    ],
  }),
  "tower_defense#1": () => ({
    world: createTowerDefense({
      massing: "north",
      operators: [{ name: "Blaze", position: "north", hpPercent: 20 }],
    }),
  }),
  "neon_arena_ship#0": () => ({
    world: createNeonArena({
      ships: [
        { id: "enemy-1", team: "enemy", x: 700, y: 300 },
        { id: "player", team: "player", x: 100, y: 310 },
      ],
    }),
  }),
  "pong#0": () => ({
    world: createPong({ ball: { x: 400, y: 120 }, velocity: { x: 6, y: -2 }, paddleY: 300 }),
  }),
  "flappy_bird#0": () => ({ world: createFlappy({ birdY: 320, pipes: [{ x: 220, gapY: 250 }] }) }),
};

/** Required parameters the example leaves open (free text such as `speak.text`). */
function openParameters(name: ScenarioName, example: ScenarioExample): string[] {
  const tool = scenarios[name].tools.find(
    (candidate) => candidate.function.name === example.expected.function,
  );
  return (tool?.function.parameters.required ?? []).filter((key) => !(key in example.expected.args));
}

describe("scenario examples", () => {
  for (const [name, scenario] of Object.entries(scenarios) as Array<
    [ScenarioName, (typeof scenarios)[ScenarioName]]
  >) {
    scenario.examples.forEach((example, index) => {
      const key = `${name}#${index}`;
      test(`${key}: ${example.expected.function} is accepted by a world in the example's state`, () => {
        const build = exampleWorlds[key];
        expect(build).toBeDefined();
        const { world, shows } = build();
        const expectedLines = example.environment ?? shows;
        if (expectedLines) {
          if (example.environment) expect(world.environment()).toEqual(example.environment);
          else for (const line of expectedLines) expect(world.environment()).toContain(line);
        }
        // Free text the example leaves open (speak.text) gets a sample line; nothing else may be open.
        const tool = scenario.tools.find(
          (candidate) => candidate.function.name === example.expected.function,
        );
        const args = { ...example.expected.args };
        for (const open of openParameters(name, example)) {
          const schema = tool?.function.parameters.properties[open];
          expect(schema?.type === "string" && schema.enum === undefined).toBe(true);
          args[open] = "Welcome, everyone!";
        }
        const result = world.apply({ function: example.expected.function, args });
        if (!result.ok) throw new Error(`${key} refused: ${result.code}: ${result.reason}`);
        expect(world.history().at(-1)?.startsWith(`${example.expected.function}(`)).toBe(true);
      });
    });
  }
});
