/**
 * `bun run bench:in-page-profile`: where the in-page worker's time goes. Opens Neon Arena with
 * rt-tiny in the page (as `bench:in-page` does), lets the ships fly, then samples the worker
 * that runs the model with the DevTools protocol's CPU profiler for `--seconds N` (default 10)
 * and prints the functions with the most samples, self and inclusive ("(idle)": the worker
 * waiting, e.g. for a message or for onnxruntime-web's thread pool). Writes
 * bench/results/in-page-profile.json (`--out FILE` elsewhere). `--page` profiles the page's main
 * thread (the game, the renderer's JavaScript) instead. A diagnosis tool: no thresholds.
 *
 * This is how each call was found to write ~5 MB of fresh memory in the worker (page faults:
 * `sliceKvState` at 11% of the worker's samples), before KV prefixes became views.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
// for the `window.rtoolArena` the page declares
import type {} from "../apps/neon-arena/src/client/main";
import { startArenaApp } from "../apps/neon-arena/src/index";
import {
  type ArenaBrowser,
  hasChromium,
  inPageLoad,
  openArena,
} from "../apps/neon-arena/test/browser-harness";
import { refuseUnknownOptions } from "../tools/train/cli-options";
import { argValue } from "./calls";

if (!hasChromium) throw new Error("bench:in-page-profile needs chromium at /usr/bin/chromium");
refuseUnknownOptions(["seconds", "out", "page"]);
const SECONDS = Number(argValue("--seconds") ?? 10);
const ON_PAGE = process.argv.includes("--page");
const OUT = argValue("--out") ?? join(import.meta.dir, "results", "in-page-profile.json");
const TOP = 25;

/** A DevTools protocol session of the page (playwright's, typed through the harness). */
type CDPSession = Awaited<ReturnType<ArenaBrowser["context"]["newCDPSession"]>>;
/** `send` with any method name: the profiler's and target's commands, typed loosely. */
type SendCommand = <T>(method: string, params?: Record<string, unknown>) => Promise<T>;

/** The protocol's CPU profile, the fields read here. */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
}

/**
 * Sends protocol commands to the worker through the page's session (`Target.sendMessageToTarget`:
 * playwright's sessions do not address child targets directly).
 */
class WorkerChannel {
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve(result: unknown): void; reject(error: Error): void }
  >();

  constructor(
    private readonly session: CDPSession,
    private readonly sessionId: string,
  ) {
    session.on("Target.receivedMessageFromTarget", (event) => {
      if (event.sessionId !== this.sessionId) return;
      const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: unknown };
      if (message.id === undefined) return;
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      // the command's own promise fails: a throw in this listener would leave it waiting forever
      if (message.error) waiter?.reject(new Error(`worker protocol error: ${JSON.stringify(message.error)}`));
      else waiter?.resolve(message.result);
    });
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: (result) => resolve(result as T), reject });
      this.session
        .send("Target.sendMessageToTarget", {
          sessionId: this.sessionId,
          message: JSON.stringify({ id, method, params }),
        })
        .catch((error: Error) => {
          this.waiting.delete(id);
          reject(error);
        });
    });
  }
}

/** Sample counts per function, self and inclusive, as shares of all samples, biggest first. */
function summarize(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    return `${functionName || "(anonymous)"} ${url.split("/").pop() ?? ""}:${lineNumber}`;
  };
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, count] of hits) {
    self.set(label(id), (self.get(label(id)) ?? 0) + count);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(at);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + count);
    }
  }
  const shares = (counts: Map<string, number>) =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([name, count]) => ({
        name,
        percent: Number(((100 * count) / profile.samples.length).toFixed(1)),
      }));
  return { samples: profile.samples.length, self: shares(self), inclusive: shares(inclusive) };
}

const app = await startArenaApp({ port: 0 });
const browser = await openArena(`${app.url}?engine=in-page`);
try {
  const loaded = await inPageLoad(browser.page);
  if (loaded.error) throw new Error(loaded.error);
  await browser.page.waitForFunction(() => window.rtoolArena.state().calls.length >= 4, null, {
    timeout: 120_000,
  });
  const session = await browser.context.newCDPSession(browser.page);
  let profiler: { send: SendCommand };
  if (ON_PAGE) {
    profiler = { send: session.send.bind(session) as unknown as SendCommand };
  } else {
    const attached = new Promise<string>((resolve) => {
      session.on("Target.attachedToTarget", (event) => {
        if (event.targetInfo.type === "worker" && event.targetInfo.url.includes("in-page-worker"))
          resolve(event.sessionId);
      });
    });
    await session.send("Target.setAutoAttach", {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: false,
    });
    profiler = new WorkerChannel(session, await attached);
  }
  await profiler.send("Profiler.enable");
  // 200 us: enough samples in a few seconds to rank functions of a millisecond or two
  await profiler.send("Profiler.setSamplingInterval", { interval: 200 });
  await profiler.send("Profiler.start");
  await browser.page.waitForTimeout(SECONDS * 1000);
  const { profile } = await profiler.send<{ profile: CpuProfile }>("Profiler.stop");
  const report = {
    date: new Date().toISOString(),
    thread: ON_PAGE ? "page main thread" : "in-page worker (rt-tiny on onnxruntime-web)",
    seconds: SECONDS,
    ...summarize(profile),
  };
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
  for (const kind of ["self", "inclusive"] as const) {
    console.log(`\n${kind} (% of ${report.samples} samples)`);
    for (const row of report[kind]) console.log(`${row.percent.toFixed(1).padStart(6)}  ${row.name}`);
  }
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await app.stop();
}
