/**
 * The nginx configuration of `deploy/nginx` with Debian's nginx, started here as an unprivileged
 * process on a loopback port in a temp prefix, in front of two rtool-servers on 127.0.0.1 that
 * name themselves in `X-Rtool-Backend`: calls with the same `X-Rtool-Prefix` always reach the
 * same backend, and when that backend stops they fail over to the other with no failed call.
 * Skipped (with a message) where nginx is not installed; CI installs it (`.ci/run`).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderNginxConfig } from "../../../deploy/nginx/render";
import { createServer, type RtoolServer } from "../src/server";
import { sampleBody } from "../src/testing/sample-tools";
import { scriptedModel } from "../src/testing/scripted-caller";

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => existsSync(path)) ?? Bun.which("nginx");
if (!NGINX) console.warn("nginx.test.ts: skipped, nginx is not installed (apt-get install -y nginx)");

const PREFIXES = Array.from({ length: 16 }, (_, i) => `prefix-${i}`);
let prefixDir: string;
let nginx: ReturnType<typeof Bun.spawn> | null = null;
let proxy: string;
const backends = new Map<string, RtoolServer>();

/** A port nothing listens on right now. */
function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function call(prefix: string | null): Promise<{ status: number; backend: string | null }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (prefix !== null) headers["x-rtool-prefix"] = prefix;
  const reply = await fetch(`${proxy}/v1/function_call`, {
    method: "POST",
    headers,
    body: JSON.stringify(sampleBody()),
  });
  await reply.arrayBuffer();
  return { status: reply.status, backend: reply.headers.get("x-rtool-backend") };
}

describe.skipIf(!NGINX)("nginx in front of two rtool-servers", () => {
  beforeAll(async () => {
    const addresses: string[] = [];
    for (const name of ["b1", "b2"]) {
      const server = createServer({ model: scriptedModel(), port: 0, backendName: name });
      const { port } = await server.listen();
      backends.set(name, server);
      addresses.push(`127.0.0.1:${port}`);
    }
    prefixDir = mkdtempSync(join(tmpdir(), "rtool-nginx-"));
    // nginx workers may run as another user when the test runs as root.
    chmodSync(prefixDir, 0o755);
    mkdirSync(join(prefixDir, "logs"));
    mkdirSync(join(prefixDir, "temp"));
    const port = freePort();
    const conf = join(prefixDir, "rtool.conf");
    writeFileSync(conf, renderNginxConfig({ listen: `127.0.0.1:${port}`, backends: addresses }));
    nginx = Bun.spawn([NGINX!, "-p", prefixDir, "-c", conf, "-g", "daemon off;"], {
      stdout: "inherit",
      stderr: "inherit",
    });
    proxy = `http://127.0.0.1:${port}`;
    for (let attempt = 0; ; attempt++) {
      try {
        if ((await fetch(`${proxy}/health`)).ok) break;
      } catch (error) {
        if (attempt >= 100 || nginx.exitCode !== null)
          throw new Error(`nginx did not start: ${String(error)}`);
        await Bun.sleep(50);
      }
    }
  }, 30_000);

  afterAll(async () => {
    if (nginx) {
      nginx.kill("SIGQUIT");
      await nginx.exited;
    }
    for (const server of backends.values()) await server.close();
    if (prefixDir) rmSync(prefixDir, { recursive: true, force: true });
  });

  const owners = new Map<string, string>();

  test("calls with the same X-Rtool-Prefix always reach the same backend", async () => {
    for (let round = 0; round < 4; round++) {
      for (const prefix of PREFIXES) {
        const { status, backend } = await call(prefix);
        expect(status).toBe(200);
        expect(backend === "b1" || backend === "b2").toBe(true);
        if (!owners.has(prefix)) owners.set(prefix, backend!);
        expect({ prefix, backend }).toEqual({ prefix, backend: owners.get(prefix)! });
      }
    }
    // 16 prefixes on a consistent-hash ring of two backends: both get some.
    expect(new Set(owners.values()).size).toBe(2);
  });

  test("calls without the header are spread over both", async () => {
    const seen = new Set<string | null>();
    for (let i = 0; i < 8; i++) {
      const { status, backend } = await call(null);
      expect(status).toBe(200);
      seen.add(backend);
    }
    expect(seen).toEqual(new Set(["b1", "b2"]));
  });

  test("when a prefix's backend stops, its calls fail over to the other, none failing", async () => {
    const prefix = PREFIXES[0]!;
    const stopped = owners.get(prefix)!;
    const other = stopped === "b1" ? "b2" : "b1";
    await backends.get(stopped)!.close();
    backends.delete(stopped);
    for (let i = 0; i < 10; i++) {
      expect(await call(prefix)).toEqual({ status: 200, backend: other });
    }
    // Every other prefix is served too, by the backend still up.
    for (const p of PREFIXES) expect(await call(p)).toEqual({ status: 200, backend: other });
  });
});
