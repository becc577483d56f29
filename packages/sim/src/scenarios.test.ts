import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { scenarios } from "./scenarios";

// The package ships its own copies (a published @rtool/sim cannot read the repository), so this
// pins them to the reference files in the repository's `scenarios/` folder.
const referenceDir = join(import.meta.dir, "..", "..", "..", "scenarios");

describe("scenario copies", () => {
  for (const name of Object.keys(scenarios)) {
    test(`${name}.json equals scenarios/${name}.json`, () => {
      const copy = readFileSync(join(import.meta.dir, "scenarios", `${name}.json`), "utf8");
      const reference = readFileSync(join(referenceDir, `${name}.json`), "utf8");
      expect(JSON.parse(copy)).toEqual(JSON.parse(reference));
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
