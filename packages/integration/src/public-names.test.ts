/**
 * Every published package's public entries, read by the TypeScript compiler: no name is
 * exported by two packages for two different things (re-exports of one declaration are fine).
 */
import { expect, test } from "bun:test";
import { findNameClashes, publicEntries } from "./public-names";

test("public names are unique across packages", () => {
  const entries = publicEntries();
  // The contract, the engine, the client and the plugin at least; a missing one would pass unread.
  for (const name of [
    "@rtool/contract",
    "@rtool/core",
    "@rtool/client",
    "@rtool/phaser-plugin",
    "@rtool/server",
  ])
    expect(entries.has(name)).toBe(true);
  expect(findNameClashes(entries)).toEqual([]);
}, 120_000);
