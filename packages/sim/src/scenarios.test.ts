import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { scenarios } from "./scenarios";

// The shared reference folder sits next to the repository in the project's workspace; a fresh
// clone elsewhere has no such folder, and then only the copies are checked.
const sharedDir = join(import.meta.dir, "../../../../shared/scenarios");
const haveShared = existsSync(sharedDir);

describe("scenario copies", () => {
  for (const name of Object.keys(scenarios)) {
    test.skipIf(!haveShared)(`${name}.json equals ../shared/scenarios/${name}.json`, () => {
      const copy = readFileSync(join(import.meta.dir, "scenarios", `${name}.json`), "utf8");
      const shared = readFileSync(join(sharedDir, `${name}.json`), "utf8");
      expect(JSON.parse(copy)).toEqual(JSON.parse(shared));
    });
  }

  test("every copy has a system prompt, tools and examples", () => {
    for (const scenario of Object.values(scenarios)) {
      expect(scenario.system.length).toBeGreaterThan(0);
      expect(scenario.tools.length).toBeGreaterThan(0);
      expect(scenario.examples.length).toBeGreaterThan(0);
    }
  });
});
