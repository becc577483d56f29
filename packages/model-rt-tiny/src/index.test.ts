import { expect, test } from "bun:test";
import { isAbsolute, join } from "node:path";
import { RT_TINY_DIR, RT_TINY_NAME } from "./index";

test("RT_TINY_DIR is the package's model directory, resolved at run time", () => {
  expect(RT_TINY_NAME).toBe("rt-tiny");
  expect(isAbsolute(RT_TINY_DIR)).toBe(true);
  expect(RT_TINY_DIR).toBe(join(import.meta.dir, "..", "model"));
});
