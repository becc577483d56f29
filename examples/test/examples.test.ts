/**
 * Every example runs as written: `bun src/<example>.ts` in its own process against the embedded
 * rt-tiny on 127.0.0.1, and the Phaser scene bundles for the browser. One `rtool-server` (the
 * same bin `bunx rtool-server` runs) serves the scripts that call a running server; it is stopped
 * after the tests and, should the test process die first, by its own spawn deadline.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXAMPLES_DIR, freePort, runExample } from "./run";

const LONG = 300_000;
let server: Bun.Subprocess<"ignore", "ignore", "pipe"> | undefined;
let url = "";

beforeAll(async () => {
  const port = freePort();
  url = `http://127.0.0.1:${port}`;
  // `bun run rtool-server` runs the workspace's bin, never a package fetched from a registry.
  server = Bun.spawn(["bun", "run", "rtool-server", "--port", String(port), "--shutdown-timeout", "1000"], {
    cwd: EXAMPLES_DIR,
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
    timeout: 2 * LONG,
  });
  // Drained as it comes, so a chatty server never blocks on a full pipe.
  const log = new Response(server.stderr).text();
  const deadline = Date.now() + LONG - 30_000;
  for (;;) {
    const health = await fetch(`${url}/health`).then(
      (r) => (r.ok ? (r.json() as Promise<{ loaded?: boolean }>) : null),
      () => null,
    );
    if (health?.loaded) break;
    if (server.exitCode !== null) {
      throw new Error(`rtool-server exited ${server.exitCode}: ${await log}`);
    }
    if (Date.now() > deadline) throw new Error(`rtool-server on ${url} did not load the model in time`);
    await Bun.sleep(250);
  }
}, LONG);

afterAll(async () => {
  server?.kill("SIGTERM");
  await server?.exited;
});

describe("examples against a running rtool-server", () => {
  test(
    "call-server.ts prints the robot-arm example's call: move_to the red gear, slowly",
    async () => {
      const run = await runExample(["src/call-server.ts"], { RTOOL_URL: url });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toStartWith("move_to {");
      for (const field of ["x: 300", "y: 150", "z: 50", 'speed: "slow"']) expect(run.stdout).toContain(field);
    },
    LONG,
  );

  test(
    "robot-loop.ts drives the simulated arm through all six commands",
    async () => {
      const run = await runExample(["src/robot-loop.ts"], { RTOOL_URL: url });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const steps = run.stdout.split("\n").filter((line) => line.includes(" -> "));
      expect(steps).toHaveLength(6);
      // Each step is a call the world applied or refused with a reason, never a crash.
      for (const step of steps) expect(step).toMatch(/ -> (\w+|null)\(.*\) (ok|refused: .+)$/);
      // The first command: the tip goes to the gear.
      expect(steps[0]).toBe(
        'Go to the red gear slowly -> move_to({"x":300,"y":150,"z":50,"speed":"slow"}) ok',
      );
      // rt-tiny carries the gear through every command to the tray
      expect(steps.every((step) => step.endsWith(" ok"))).toBe(true);
      expect(run.stdout).toContain("Part: red gear in the tray");
    },
    LONG,
  );
});

test("call-server.ts without a server says how to start one and exits 1, at once", async () => {
  const started = performance.now();
  const run = await runExample(
    ["src/call-server.ts"],
    { RTOOL_URL: `http://127.0.0.1:${freePort()}` },
    30_000,
  );
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("start one with `bunx rtool-server`");
  expect(performance.now() - started).toBeLessThan(20_000);
});

test(
  "ten-lines.ts (the README's ten lines) serves rt-tiny itself and executes move(up)",
  async () => {
    const run = await runExample(["src/ten-lines.ts"]);
    expect(run.code).toBe(0);
    for (const field of ['tool: "move"', 'direction: "up"', "ok: true", 'value: "moving up"']) {
      expect(run.stdout).toContain(field);
    }
  },
  LONG,
);

test(
  "phaser-scene.ts bundles for the browser with the plugin and Phaser, without a model runtime",
  async () => {
    const out = mkdtempSync(join(tmpdir(), "rtool-examples-scene-"));
    try {
      // The package's build:scene script, with the bundle written outside the checkout.
      const run = await runExample(
        ["build", "--target", "browser", "--conditions", "bun", "src/phaser-scene.ts", "--outdir", out],
        {},
        120_000,
      );
      expect(run.code).toBe(0);
      const bundle = readFileSync(join(out, "phaser-scene.js"), "utf8");
      // Booleans, not toContain: a failure must not print a 3 MB bundle.
      expect(bundle.includes("move_paddle")).toBe(true);
      // @rtool/client's routing header: the plugin's HTTP transport is in the bundle.
      expect(bundle.includes("x-rtool-prefix")).toBe(true);
      expect(bundle.includes("onnxruntime")).toBe(false);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
  LONG,
);
