/**
 * Renders `rtool.conf.template` into an nginx configuration for N rtool-server backends.
 *
 * Usage:
 *   bun deploy/nginx/render.ts --listen 0.0.0.0:8080 --backend 10.0.0.11:8899 --backend 10.0.0.12:8899 > rtool.conf
 *   mkdir -p logs temp && nginx -e stderr -p "$PWD" -c "$PWD/rtool.conf"
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

/** What varies between deployments. */
export interface NginxConfigOptions {
  /** `host:port` (or a port) nginx listens on. */
  listen: string;
  /** `host:port` of each rtool-server. */
  backends: readonly string[];
  /** Failures within `failTimeout` that take a backend out for `failTimeout`; default 1. */
  maxFails?: number;
  /** nginx time, e.g. "10s"; default "10s". */
  failTimeout?: string;
  /** Backends one call may try in all (the first and its failovers); default 2. */
  tries?: number;
  /** Longest time spent on failovers of one call; default "10s". */
  nextUpstreamTimeout?: string;
  /** Longest wait to connect to a backend; default "1s" (backends are on the local network). */
  connectTimeout?: string;
  /** Default 1: nginx only forwards, one worker serves thousands of connections. */
  workers?: number;
  /** Default "stderr". */
  errorLog?: string;
  /** Default "logs/access.log" (under the -p prefix); "off" turns it off. */
  accessLog?: string;
}

const TEMPLATE = new URL("./rtool.conf.template", import.meta.url);
const ADDRESS = /^[\w.[\]:-]+:\d{1,5}$/;
const NGINX_TIME = /^\d+(ms|s|m)?$/;

/** A bad option; `option` names it. */
export class NginxConfigError extends Error {
  override readonly name = "NginxConfigError";
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(`${option}: ${message}`);
  }
}

/**
 * The nginx configuration text.
 *
 * @example
 * ```ts
 * const conf = renderNginxConfig({ listen: "127.0.0.1:8080", backends: ["127.0.0.1:8901", "127.0.0.1:8902"] });
 * ```
 */
export function renderNginxConfig(options: NginxConfigOptions): string {
  if (options.backends.length === 0) throw new NginxConfigError("backends", "at least one is needed");
  for (const backend of options.backends) {
    if (!ADDRESS.test(backend)) throw new NginxConfigError("backend", `"${backend}" is not host:port`);
  }
  if (!/^([\w.[\]:-]+:)?\d{1,5}$/.test(options.listen)) {
    throw new NginxConfigError("listen", `"${options.listen}" is not [host:]port`);
  }
  const times = {
    failTimeout: options.failTimeout ?? "10s",
    nextUpstreamTimeout: options.nextUpstreamTimeout ?? "10s",
    connectTimeout: options.connectTimeout ?? "1s",
  };
  for (const [option, value] of Object.entries(times)) {
    if (!NGINX_TIME.test(value))
      throw new NginxConfigError(option, `"${value}" is not an nginx time like 10s`);
  }
  const counts = {
    maxFails: options.maxFails ?? 1,
    tries: options.tries ?? 2,
    workers: options.workers ?? 1,
  };
  for (const [option, value] of Object.entries(counts)) {
    if (!Number.isInteger(value) || value < 0)
      throw new NginxConfigError(option, `must be a whole number, got ${value}`);
  }
  const servers = options.backends
    .map((b) => `    server ${b} max_fails=${counts.maxFails} fail_timeout=${times.failTimeout};`)
    .join("\n");
  const values: Record<string, string> = {
    WORKERS: String(counts.workers),
    ERROR_LOG: options.errorLog ?? "stderr",
    ACCESS_LOG: options.accessLog ?? "logs/access.log",
    SERVERS: servers,
    LISTEN: options.listen,
    TRIES: String(counts.tries),
    NEXT_TIMEOUT: times.nextUpstreamTimeout,
    CONNECT_TIMEOUT: times.connectTimeout,
  };
  const text = readFileSync(TEMPLATE, "utf8").replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    const value = values[key];
    if (value === undefined) throw new NginxConfigError("template", `unknown placeholder ${whole}`);
    return value;
  });
  return text;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      listen: { type: "string", default: "8080" },
      backend: { type: "string", multiple: true, default: [] },
      "max-fails": { type: "string" },
      "fail-timeout": { type: "string" },
      tries: { type: "string" },
      workers: { type: "string" },
      "access-log": { type: "string" },
    },
  });
  const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  try {
    process.stdout.write(
      renderNginxConfig({
        listen: values.listen,
        backends: values.backend,
        maxFails: number(values["max-fails"]),
        failTimeout: values["fail-timeout"],
        tries: number(values.tries),
        workers: number(values.workers),
        accessLog: values["access-log"],
      }),
    );
  } catch (error) {
    console.error(`render.ts: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}
