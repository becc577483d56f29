/**
 * What a user does, outside this monorepo: every publishable package is packed (prepack builds
 * it), published to a throwaway verdaccio on 127.0.0.1, then installed from there into empty
 * folders under the OS temp dir. `bun add @rtool/phaser-plugin` + a browser bundle of a scene;
 * `bunx rtool-server` answering the robot-arm example. Needs the npm registry for third-party
 * dependencies (verdaccio proxies them), so it takes a few minutes on a cold cache.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packAll, publishAll, tarballManifest } from "./pack";
import { type LocalRegistry, startRegistry } from "./registry";

const LONG = 600_000;
const work = mkdtempSync(join(tmpdir(), "rtool-install-e2e-"));
// A cache of its own: a stale @rtool/*@0.1.0 from an earlier run must never stand in for the new one.
const cache = join(work, "bun-cache");
let registry: LocalRegistry;
let tarballs: string[];

function sh(cmd: string[], cwd: string, timeout = LONG): { code: number; out: string } {
  const proc = Bun.spawnSync(cmd, {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    timeout,
    env: {
      ...process.env,
      BUN_INSTALL_CACHE_DIR: cache,
      NPM_CONFIG_REGISTRY: registry.url,
      ONNXRUNTIME_NODE_INSTALL: "skip",
    },
  });
  return { code: proc.exitCode ?? -1, out: `${proc.stdout.toString()}\n${proc.stderr.toString()}` };
}

/** An empty project outside the workspace that installs from the local registry. */
function project(name: string): string {
  const dir = join(work, name);
  cpSync(join(import.meta.dir, "..", "fixtures"), dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  writeFileSync(join(dir, "bunfig.toml"), `[install]\nregistry = "${registry.url}"\n`);
  return dir;
}

function megabytes(dir: string): number {
  const du = Bun.spawnSync(["du", "-sk", dir], { stdout: "pipe" });
  return Number(du.stdout.toString().split("\t")[0]) / 1024;
}

beforeAll(async () => {
  registry = await startRegistry();
  tarballs = packAll(join(work, "tarballs"));
  publishAll(tarballs, registry.url, registry.token);
}, LONG);

afterAll(async () => {
  await registry?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("installed from a local registry", () => {
  test("every tarball names real versions and only files it holds", () => {
    for (const tarball of tarballs) {
      const manifest = tarballManifest(tarball);
      expect(JSON.stringify(manifest)).not.toContain("workspace:");
      const listing = Bun.spawnSync(["tar", "-tzf", tarball], { stdout: "pipe" }).stdout.toString();
      const files = new Set(listing.split("\n").map((f) => f.replace(/^package\//, "")));
      const exports = (manifest.exports ?? {}) as Record<string, string | Record<string, string>>;
      for (const target of Object.values(exports).flatMap((t) =>
        typeof t === "string" ? [t] : Object.values(t),
      ))
        expect(files.has(target.replace(/^\.\//, ""))).toBe(true);
    }
  });

  test(
    "bun add @rtool/phaser-plugin, then a scene bundles for the browser",
    () => {
      const dir = project("plugin-user");
      const add = sh(["bun", "add", "@rtool/phaser-plugin"], dir);
      expect(add.out).not.toContain("error:");
      expect(add.code).toBe(0);
      const pluginOnly = megabytes(join(dir, "node_modules"));
      console.log(`fresh @rtool/phaser-plugin install: node_modules ${pluginOnly.toFixed(1)} MB`);
      expect(pluginOnly).toBeLessThan(50);
      expect(sh(["bun", "add", "phaser"], dir).code).toBe(0);
      console.log(`with phaser: node_modules ${megabytes(join(dir, "node_modules")).toFixed(1)} MB`);
      const build = sh(["bun", "build", "--target", "browser", "scene.ts", "--outdir", "out"], dir);
      expect(build.code).toBe(0);
      const bundle = readFileSync(join(dir, "out", "scene.js"), "utf8");
      expect(bundle).toContain("move_paddle");
      expect(bundle).not.toContain("onnxruntime");
    },
    LONG,
  );

  test(
    "bunx rtool-server answers the robot-arm example on 127.0.0.1",
    async () => {
      const sized = project("server-size");
      expect(sh(["bun", "add", "rtool-server"], sized).code).toBe(0);
      console.log(
        `fresh rtool-server install: node_modules ${megabytes(join(sized, "node_modules")).toFixed(1)} MB`,
      );

      const dir = project("server-user");
      const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
      const port = probe.port as number;
      probe.stop(true);
      const child = Bun.spawn(["bunx", "rtool-server", "--port", String(port), "--format", "v2"], {
        cwd: dir,
        stdout: "pipe",
        stderr: "pipe",
        env: {
          ...process.env,
          BUN_INSTALL_CACHE_DIR: cache,
          NPM_CONFIG_REGISTRY: registry.url,
          ONNXRUNTIME_NODE_INSTALL: "skip",
        },
      });
      try {
        const url = `http://127.0.0.1:${port}`;
        const deadline = Date.now() + LONG - 60_000;
        while (
          !(await fetch(`${url}/health`).then(
            (r) => r.ok,
            () => false,
          ))
        ) {
          if (child.exitCode !== null)
            throw new Error(
              `rtool-server exited ${child.exitCode}: ${await new Response(child.stderr).text()}`,
            );
          if (Date.now() > deadline) throw new Error("rtool-server did not become ready");
          await Bun.sleep(500);
        }
        const scenario = JSON.parse(
          readFileSync(join(import.meta.dir, "..", "..", "..", "scenarios", "robotic_arm.json"), "utf8"),
        );
        const example = scenario.examples[0];
        const reply = await fetch(`${url}/v2/function_call`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            system: scenario.system,
            tools: scenario.tools,
            history: example.history,
            messages: [{ role: "user", content: example.query }],
          }),
        });
        expect(reply.status).toBe(200);
        const body = (await reply.json()) as { function?: string; args?: Record<string, unknown> };
        expect(body.function).toBe(example.expected.function);
        expect(body.args).toMatchObject(example.expected.args);
      } finally {
        child.kill();
        await child.exited;
      }
    },
    LONG,
  );
});
