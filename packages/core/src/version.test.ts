import { expect, test } from "bun:test";
import pkg from "../package.json";
import { VERSION } from "./version";

test("VERSION matches the package version", () => {
  expect(VERSION).toBe(pkg.version);
});
