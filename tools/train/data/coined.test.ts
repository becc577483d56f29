import { describe, expect, test } from "bun:test";
import { coinedName, mishearName } from "./coined";
import { Prng } from "./prng";

describe("coined names", () => {
  test("come in the shapes players use, mostly plain", () => {
    const r = new Prng(5);
    const names = Array.from({ length: 4000 }, () => coinedName(r));
    const share = (re: RegExp) => names.filter((n) => re.test(n)).length / names.length;
    expect(share(/^[A-Z][a-z]+$/)).toBeGreaterThan(0.6);
    expect(share(/^[A-Z][a-z]+-[0-9]+$/)).toBeGreaterThan(0.05);
    expect(share(/^[A-Z][a-z]+-[A-Z][a-z]+$/)).toBeGreaterThan(0.02);
    expect(share(/^[A-Z][a-z]+[A-Z][a-z]+$/)).toBeGreaterThan(0.02);
    expect(share(/^[A-Z]'[a-z]+$/)).toBeGreaterThan(0.01);
    // Every name fits a roster entry `Name(pos,...)` and an order word: no spaces or brackets.
    for (const n of names) expect(n).toMatch(/^[A-Za-z][A-Za-z'0-9-]*$/);
  });

  test("a misheard name keeps its letters close and never touches a non-Latin name", () => {
    const r = new Prng(9);
    expect(mishearName(r, "星瑶")).toBe("星瑶");
    const heard = new Set(Array.from({ length: 400 }, () => mishearName(r, "Nyx-7")));
    expect(heard.has("nyx 7")).toBe(true);
    expect(heard.has("Nyx7")).toBe(true);
    const split = Array.from({ length: 400 }, () => mishearName(r, "Bramblewick"));
    expect(split.some((s) => /^\w{3,} \w{3,}$/.test(s))).toBe(true);
    expect(split.some((s) => s === "bramblewick")).toBe(true);
    for (const s of split) expect(Math.abs(s.length - "Bramblewick".length)).toBeLessThanOrEqual(2);
  });
});
