import { expect, test } from "bun:test";
import { VERSION } from "./version";
import pkg from "../package.json";

test("VERSION matches the package version", () => {
  expect(VERSION).toBe(pkg.version);
});
