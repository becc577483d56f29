import { expect, test } from "bun:test";
import { importCycles, importGraph } from "./import-cycles";

test("no import cycles in the packages' and apps' sources", () => {
  const graph = importGraph();
  // Read something: the scan found the sources (a wrong root would pass vacuously).
  expect(graph.size).toBeGreaterThan(200);
  expect(importCycles(graph)).toEqual([]);
});

test("a cycle is found, with every file in it", () => {
  const graph = new Map([
    ["/r/a.ts", ["/r/b.ts"]],
    ["/r/b.ts", ["/r/c.ts"]],
    ["/r/c.ts", ["/r/a.ts"]],
    ["/r/d.ts", ["/r/a.ts"]],
  ]);
  expect(importCycles(graph).map((cycle) => cycle.length)).toEqual([3]);
});
