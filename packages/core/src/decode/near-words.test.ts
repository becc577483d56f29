import { describe, expect, test } from "bun:test";
import { editDistance, nearWordsOf } from "./near-words";

const roster = "Operators: Riaxchai(south,HP11%) Lappland(north) Kixiaris(center) Beagle(east) Plume(west)";

describe("misspelt names read as the request spells them", () => {
  test("edit distance counts inserts, drops, changes and swaps of neighbours, ignoring case", () => {
    expect(editDistance("Baegle", "Beagle", 2)).toBe(1);
    expect(editDistance("raxchai", "Riaxchai", 2)).toBe(1);
    expect(editDistance("Lapplland", "lappland", 2)).toBe(1);
    expect(editDistance("plume", "PLUME", 0)).toBe(0);
    // past the limit it stops early
    expect(editDistance("Riaxchai", "Breveix", 1)).toBe(2);
  });

  test("a word the rest of the request does not hold becomes the one word there it is nearly spelled as", () => {
    expect(nearWordsOf("could you raxchai switch to hold", roster)).toBe("could you Riaxchai switch to hold");
    expect(nearWordsOf("Lapplland: push hard", roster)).toBe("Lappland: push hard");
    expect(nearWordsOf("change kiixiaris's stance", roster)).toBe("change Kixiaris's stance");
    expect(nearWordsOf("行，Baegle，技能！", roster)).toBe("行，Beagle，技能！");
  });

  test("words the request holds, short words, and words near none or several stay", () => {
    expect(nearWordsOf("Riaxchai retreat", roster)).toBe("Riaxchai retreat");
    expect(nearWordsOf("Plum, go east", roster)).toBe("Plum, go east");
    expect(nearWordsOf("Brevix hold", roster)).toBe("Brevix hold");
    expect(nearWordsOf("Beaglx hold", "Beagle(east) Beaglo(west)")).toBe("Beaglx hold");
    expect(nearWordsOf("anything", "")).toBe("anything");
  });
});
