/**
 * Helpers for the example tests: run an example as a user would (`bun src/x.ts`, its own
 * process), with a deadline, and a free port of 127.0.0.1.
 */
import { join } from "node:path";

/** The examples folder: every example runs from here, as its README says. */
export const EXAMPLES_DIR = join(import.meta.dir, "..");

/** What a finished example printed. */
export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `bun <args>` in the examples folder; killed (and failing the test) past `timeoutMs`, so
 * a hung example never outlives its test.
 */
export async function runExample(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 240_000,
): Promise<Finished> {
  const proc = Bun.spawn(["bun", ...args], {
    cwd: EXAMPLES_DIR,
    stdout: "pipe",
    stderr: "pipe",
    timeout: timeoutMs,
    env: { ...process.env, ...env, FORCE_COLOR: "0", NO_COLOR: "1" },
  });
  const [stdout, stderr] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  const code = await proc.exited;
  if (proc.signalCode)
    throw new Error(
      `bun ${args.join(" ")} was killed (${proc.signalCode}) after ${timeoutMs} ms:\n${stderr}`,
    );
  return { code, stdout, stderr };
}

/** A port of 127.0.0.1 that was free a moment ago (the OS picks it). */
export function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}
