/**
 * A `Host` allow-list. A server on loopback trusts that only local programs reach it, but a web
 * page can point a name it controls at 127.0.0.1 (DNS rebinding) and then talk to the server as
 * "same origin": the browser still sends the attacker's name as `Host`. Refusing unknown names
 * (421 Misdirected Request) closes that door.
 */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../http/api-error";

/** The names a loopback-bound server answers to by default. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "::1"];

/** Whether `hostname` (an address or a name to bind) is a loopback interface. */
export function isLoopback(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * The host name of a `Host` header: port removed, brackets of an IPv6 literal removed,
 * lower-cased; null when the header is missing or malformed.
 *
 * @example
 * ```ts
 * hostName("LocalHost:8899"); // "localhost"
 * hostName("[::1]:8899"); // "::1"
 * ```
 */
export function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const value = header.trim().toLowerCase();
  const v6 = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(value);
  if (v6) return v6[1]!;
  const named = /^([a-z0-9.-]+)(?::\d{1,5})?$/.exec(value);
  return named ? named[1]!.replace(/\.$/, "") : null;
}

/**
 * Host allow-list middleware: names are compared without the port; `"*"` allows any name.
 *
 * @example
 * ```ts
 * app.use("*", allowedHosts(LOOPBACK_HOSTS)); // Host: attacker.example -> 421
 * app.use("*", allowedHosts(["api.example.com"]));
 * ```
 */
export function allowedHosts(names: readonly string[]): MiddlewareHandler {
  const allowed = new Set(names.map((n) => hostName(n.includes(":") && !n.startsWith("[") ? `[${n}]` : n)));
  const any = names.includes("*");
  return async (c, next) => {
    if (any) return next();
    const header = c.req.header("host");
    const name = hostName(header);
    if (name === null || !allowed.has(name)) {
      throw new ApiError(
        421,
        "host_not_allowed",
        "host",
        `this server does not answer to ${header === undefined ? "a request without Host" : JSON.stringify(header)}; allowed: ${names.join(", ")} (see --allowed-hosts)`,
      );
    }
    return next();
  };
}
