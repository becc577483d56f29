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
import { NginxConfigError, renderNginxConfig } from "../../../deploy/nginx/render";
import { createServer, type RtoolServer } from "../src/server";
import { readSse } from "../src/testing/http";
import { sampleBody } from "../src/testing/sample-tools";
import { scriptedModel } from "../src/testing/scripted-caller";

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => existsSync(path)) ?? Bun.which("nginx");
if (!NGINX) console.warn("nginx.test.ts: skipped, nginx is not installed (apt-get install -y nginx)");

const PREFIXES = Array.from({ length: 16 }, (_, i) => `prefix-${i}`);
let nginx: { url: string; stop(): Promise<void> } | null = null;
let proxy: string;
const backends = new Map<string, RtoolServer>();

/** A port nothing listens on right now. */
function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function call(prefix: string | null, via = proxy): Promise<{ status: number; backend: string | null }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (prefix !== null) headers["x-rtool-prefix"] = prefix;
  const reply = await fetch(`${via}/v1/function_call`, {
    method: "POST",
    headers,
    body: JSON.stringify(sampleBody()),
  });
  await reply.arrayBuffer();
  return { status: reply.status, backend: reply.headers.get("x-rtool-backend") };
}

/** nginx on a free loopback port in a temp prefix, before `backends`; `stop()` ends it and removes the prefix. */
async function startNginx(addresses: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "rtool-nginx-"));
  // nginx workers may run as another user when the test runs as root.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, "logs"));
  mkdirSync(join(dir, "temp"));
  const port = freePort();
  const conf = join(dir, "rtool.conf");
  writeFileSync(conf, renderNginxConfig({ listen: `127.0.0.1:${port}`, backends: addresses }));
  // -e: the error log from the start, before the config names one (the default path may not be writable).
  const child = Bun.spawn([NGINX!, "-e", "stderr", "-p", dir, "-c", conf, "-g", "daemon off;"], {
    stdout: "inherit",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill("SIGQUIT");
    await child.exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; ; attempt++) {
    try {
      await fetch(`${url}/health`);
      return { url, stop };
    } catch (error) {
      if (attempt >= 100 || child.exitCode !== null) {
        await stop();
        throw new Error(`nginx did not start: ${String(error)}`);
      }
      await Bun.sleep(50);
    }
  }
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
    nginx = await startNginx(addresses);
    proxy = nginx.url;
  }, 30_000);

  afterAll(async () => {
    await nginx?.stop();
    for (const server of backends.values()) await server.close();
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

  test("SSE calls stream through, from the prefix's backend", async () => {
    const prefix = PREFIXES[1]!;
    const reply = await fetch(`${proxy}/v1/function_call`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-rtool-prefix": prefix },
      body: JSON.stringify({ ...sampleBody(), stream: true }),
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toContain("text/event-stream");
    expect(reply.headers.get("x-rtool-backend")).toBe(owners.get(prefix)!);
    const events = await readSse(reply);
    expect(events.at(-1)!.event).toBe("call");
    expect(events.filter((e) => e.event === "head").length).toBeGreaterThan(0);
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

describe.skipIf(!NGINX)("nginx before a backend still loading its model", () => {
  test("its 503s move every call to the ready backend, POSTs included", async () => {
    let endLoading!: (error: Error) => void;
    const model = new Promise<never>((_, reject) => {
      endLoading = reject;
    });
    const loading = createServer({ model, port: 0, backendName: "loading" });
    const ready = createServer({ model: scriptedModel(), port: 0, backendName: "ready" });
    const addresses = [await loading.listen(), await ready.listen()].map((a) => `127.0.0.1:${a.port}`);
    const lb = await startNginx(addresses);
    try {
      for (const prefix of PREFIXES)
        expect(await call(prefix, lb.url)).toEqual({ status: 200, backend: "ready" });
    } finally {
      await lb.stop();
      await ready.close();
      endLoading(new Error("the test is over"));
      await loading.close();
    }
  }, 30_000);
});

describe("renderNginxConfig", () => {
  test("fills every placeholder: one server line per backend, the routing and failover directives", () => {
    const conf = renderNginxConfig({
      listen: "127.0.0.1:8080",
      backends: ["10.0.0.11:8899", "10.0.0.12:8899", "10.0.0.13:8899"],
      maxFails: 2,
      failTimeout: "5s",
      tries: 3,
    });
    expect(conf).not.toContain("{{");
    expect(conf.match(/^\s+server 10\.0\.0\.\d+:8899 max_fails=2 fail_timeout=5s;$/gm)).toHaveLength(3);
    expect(conf).toContain("hash $http_x_rtool_prefix consistent;");
    expect(conf).toContain("proxy_next_upstream error timeout http_502 http_503 non_idempotent;");
    expect(conf).toContain("proxy_next_upstream_tries 3;");
    expect(conf).toContain("proxy_buffering off;");
    expect(conf).toContain("listen 127.0.0.1:8080;");
  });

  test("refuses what nginx would misread", () => {
    const bad: [Parameters<typeof renderNginxConfig>[0], string][] = [
      [{ listen: "8080", backends: [] }, "backends"],
      [{ listen: "8080", backends: ["10.0.0.11"] }, "backend"],
      [{ listen: "8080; evil", backends: ["a:1"] }, "listen"],
      [{ listen: "8080", backends: ["a:1"], failTimeout: "soon" }, "failTimeout"],
      [{ listen: "8080", backends: ["a:1"], tries: -1 }, "tries"],
    ];
    for (const [options, option] of bad) {
      expect(() => renderNginxConfig(options)).toThrow(NginxConfigError);
      try {
        renderNginxConfig(options);
      } catch (error) {
        expect((error as NginxConfigError).option).toBe(option);
      }
    }
  });
});
