import { expect, test } from "bun:test";
import { join } from "node:path";

// The thin bin must reach the real CLI: `--help` is answered by @rtool/server's runCli.
test("bin/rtool-server.js runs @rtool/server's CLI (--help exits 0 and names the routes)", () => {
  const run = Bun.spawnSync(["bun", join(import.meta.dir, "bin", "rtool-server.js"), "--help"], {
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(run.stderr.toString()).toBe("");
  expect(run.exitCode).toBe(0);
  expect(run.stdout.toString()).toContain("/v2/function_call");
});
