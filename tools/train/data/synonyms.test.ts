import { describe, expect, test } from "bun:test";
import { Prng } from "./prng";
import { commandSynonyms, swapSynonyms } from "./synonyms";

describe("WordNet synonyms of command words", () => {
  test("every chosen word has synonyms from its sense, never itself", () => {
    const table = commandSynonyms();
    expect(table.size).toBeGreaterThanOrEqual(10);
    for (const [word, synonyms] of table) {
      expect(synonyms.length).toBeGreaterThan(0);
      expect(synonyms).not.toContain(word);
    }
    expect(table.get("retreat")).toContain("pull back");
    expect(table.get("grab")).toContain("take hold of");
  });

  test("a swap keeps slots, capitals and nouns after a determiner", () => {
    const r = new Prng(1);
    for (let i = 0; i < 50; i++) {
      const out = swapSynonyms("Retreat {u}, a full retreat, grab the {w} part {retreat}", r, 1);
      expect(out).toMatch(/^[A-Z].* \{u\}, a full retreat, .* the \{w\} part \{retreat\}$/);
      expect(out.startsWith("Retreat")).toBe(false);
    }
    expect(swapSynonyms("move {d}", r, 1)).toBe("move {d}");
  });
});
