/**
 * Packs the publishable packages the way a release does (`bun pm pack`, which runs each
 * `prepack` build and rewrites `workspace:*` to real versions) and publishes the tarballs.
 */
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Dependency order: a package's declarations read the built `.d.ts` of those before it. */
export const PUBLISHED = [
  "contract",
  "core",
  "sim",
  "client",
  "model-rt-tiny",
  "server",
  "phaser-plugin",
  "rtool-server",
];

const PACKAGES = join(import.meta.dir, "..", "..");

function run(cmd: string[], cwd: string, env: Record<string, string> = {}): string {
  const proc = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  const out = `${proc.stdout.toString()}\n${proc.stderr.toString()}`;
  if (proc.exitCode !== 0) throw new Error(`${cmd.join(" ")} in ${cwd} exited ${proc.exitCode}:\n${out}`);
  return out;
}

/** Packs every published package into `dest`; returns the tarball paths in dependency order. */
export function packAll(dest: string): string[] {
  return PUBLISHED.map((name) => {
    // one folder each: @rtool/server and rtool-server both pack to rtool-server-<version>.tgz
    const out = join(dest, name);
    run(["bun", "pm", "pack", "--destination", out], join(PACKAGES, name));
    const tarball = readdirSync(out).find((f) => f.endsWith(".tgz"));
    if (!tarball) throw new Error(`bun pm pack left no tarball in ${out}`);
    return join(out, tarball);
  });
}

/** The package.json inside a tarball. */
export function tarballManifest(tarball: string): Record<string, unknown> {
  return JSON.parse(run(["tar", "-xOzf", tarball, "package/package.json"], PACKAGES));
}

/** Publishes each tarball to the registry with its token. */
export function publishAll(tarballs: string[], registry: string, token: string): void {
  const cwd = mkdtempSync(join(tmpdir(), "rtool-publish-"));
  writeFileSync(join(cwd, "bunfig.toml"), `[install.registry]\nurl = "${registry}"\ntoken = "${token}"\n`);
  writeFileSync(join(cwd, "package.json"), "{}");
  for (const tarball of tarballs)
    run(["bun", "publish", tarball, "--registry", registry], cwd, { NPM_CONFIG_TOKEN: token });
}
