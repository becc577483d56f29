import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RT_TINY_DIR } from "@rtool/model-rt-tiny";
import { ModelSourceError, resolveModelDir } from "./model-source";

const FIXTURE = join(import.meta.dir, "../../core/test/fixtures/qwen3-tied");

describe("resolveModelDir", () => {
  test("a model directory resolves to its absolute path", async () => {
    expect(await resolveModelDir(FIXTURE)).toBe(FIXTURE);
  });

  test("rt-tiny is the embedded package's directory (or a clear error while it has no model)", async () => {
    if (existsSync(join(RT_TINY_DIR, "config.json"))) {
      expect(await resolveModelDir("rt-tiny")).toBe(RT_TINY_DIR);
    } else {
      await expect(resolveModelDir("rt-tiny")).rejects.toThrow(
        "--model rt-tiny: the embedded model has no config.json",
      );
    }
  });

  test("a missing directory and a directory without config.json are refused", async () => {
    const empty = mkdtempSync(join(tmpdir(), "rtool-model-"));
    try {
      await expect(resolveModelDir(join(empty, "nope"))).rejects.toBeInstanceOf(ModelSourceError);
      await expect(resolveModelDir(empty)).rejects.toThrow("has no config.json");
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
