/**
 * A throwaway npm registry for the install test: verdaccio on a free 127.0.0.1 port, storage in
 * a temp dir, `@rtool/*` and `rtool-server` served only from what the test publishes (never the
 * public registry), everything else proxied to registry.npmjs.org.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running registry: its URL, a publish token, and `stop()` (kills it, removes its storage). */
export interface LocalRegistry {
  url: string;
  token: string;
  stop(): Promise<void>;
}

function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}

const CONFIG = (storage: string) => `storage: ${storage}/storage
# the model package carries rt-tiny (about 10 MB packed)
max_body_size: 100mb
auth:
  htpasswd:
    file: ${storage}/htpasswd
    max_users: 10
uplinks:
  npmjs:
    url: https://registry.npmjs.org/
    timeout: 120s
packages:
  '@rtool/*':
    access: $all
    publish: $authenticated
  'rtool-server':
    access: $all
    publish: $authenticated
  '**':
    access: $all
    proxy: npmjs
log: { type: stdout, format: pretty, level: warn }
`;

/**
 * Starts verdaccio and registers a user so that `bun publish` has a token.
 *
 * @example
 * const registry = await startRegistry();
 * try { ... } finally { await registry.stop(); }
 */
export async function startRegistry(timeoutMs = 60_000): Promise<LocalRegistry> {
  const dir = mkdtempSync(join(tmpdir(), "rtool-registry-"));
  writeFileSync(join(dir, "config.yaml"), CONFIG(dir));
  const port = freePort();
  const url = `http://127.0.0.1:${port}/`;
  const bin = join(import.meta.dir, "..", "node_modules", "verdaccio", "bin", "verdaccio");
  const child = Bun.spawn(
    ["node", bin, "--config", join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`],
    {
      stdout: "ignore",
      stderr: "pipe",
    },
  );
  const stop = async () => {
    child.kill();
    await child.exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const started = Date.now();
  for (;;) {
    const up = await fetch(`${url}-/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || Date.now() - started > timeoutMs) {
      const err = child.exitCode !== null ? await new Response(child.stderr).text() : "";
      await stop();
      throw new Error(`verdaccio did not start on ${url} within ${timeoutMs} ms ${err}`);
    }
    await Bun.sleep(200);
  }
  const user = await fetch(`${url}-/user/org.couchdb.user:rtool`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "rtool", password: "rtool-test-only", email: "test@example.invalid" }),
  });
  const { token } = (await user.json()) as { token?: string };
  if (!token) {
    await stop();
    throw new Error(`verdaccio refused to create the test user (HTTP ${user.status})`);
  }
  return { url, token, stop };
}
