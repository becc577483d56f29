/**
 * `rtool-server --help` and packages/server/README.md describe the same flags and routes: a flag
 * added to the CLI without a line in the README (as --shutdown-timeout, --allowed-hosts and
 * --skip-weight-check once were) fails here.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EXAMPLES_DIR, runExample } from "./run";

const SERVER_README = readFileSync(join(EXAMPLES_DIR, "..", "packages", "server", "README.md"), "utf8");

test("every flag and route of rtool-server --help is in the server README", async () => {
  const help = await runExample(["run", "rtool-server", "--help"], {}, 60_000);
  expect(help.code).toBe(0);
  const flags = [...new Set([...help.stdout.matchAll(/^\s+(--[a-z][a-z-]*)/gm)].map((m) => m[1]!))];
  const routes = [...help.stdout.matchAll(/\b(GET|POST) (\/[\w/]+(?:\.json)?)/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
  expect(flags).toContain("--shutdown-timeout"); // the pattern still finds the flags
  expect(routes).toContain("GET /v1/models");
  const missing = [...flags.filter((f) => f !== "--help" && f !== "--version"), ...routes].filter(
    // Whole names only: "--engine" must not pass on the strength of "--engine-url".
    (item) => !new RegExp(`${item.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`).test(SERVER_README),
  );
  expect(missing).toEqual([]);
});
