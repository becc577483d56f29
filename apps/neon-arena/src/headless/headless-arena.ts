/**
 * The Neon Arena without a page: the same worlds (`@rtool/sim`), the same agents
 * (`../arena-agents`) and the same plugin engine (`AgentClient`, dispatching at the next frame
 * as the Phaser plugin does, with streamed replies as the page asks for) run in this process at
 * 60 frames a second against an rtool-server. `bun run bench:arena` drives it: what it measures
 * is the load the game puts on the server, without a browser sharing the two cores.
 */
import { AgentClient } from "@rtool/phaser-plugin/headless";
import {
  arenaShips,
  ENEMY_IDS,
  SHIP_RATE_HZ,
  SHIP_SCOPE,
  SQUAD_SCOPE,
  shipAgentSpec,
  squadAgentSpec,
} from "../arena-agents";
import { ArenaField, SQUAD_ORDERS } from "./arena-field";
import { type AgentCounts, type AgentReport, type ServerProbeReport, summarizeAgent } from "./arena-report";
import { RecordingTransport } from "./recording-transport";
import { cacheDelta, readCacheCounters, startHealthProbe } from "./server-probes";

/** Options of {@link runHeadlessArena}. */
export interface HeadlessArenaOptions {
  /** rtool-server base URL (or the arena app's `/rtool` forward). */
  serverUrl: string;
  /** Measured seconds, after the warm-up. */
  seconds: number;
  /** Seconds run first and left out of the figures (cold prefixes, session warm-up); default 2. */
  warmupSeconds?: number;
  /** Model-driven enemy ships; default 2 (the shipped arena). */
  enemies?: number;
  /** Each ship's loop rate; default 16 (the shipped arena). */
  shipRateHz?: number;
  /** A squad order every this many seconds (the next once the last came back); 0 sends none. Default 1. */
  squadEverySeconds?: number;
  /** Streamed replies (SSE) as the page asks for; default true. */
  stream?: boolean;
  /** Game frames per second; default 60. */
  frameHz?: number;
  /**
   * rtool-server's own URL (not the app's forward): during the measured window its `/health` is
   * sampled every 50 ms and its prefix-cache counters are read at both ends. Default: no probes.
   */
  probeUrl?: string;
}

/** What a run measured: one row per agent, and the window the rows cover. */
export interface HeadlessArenaRun {
  agents: AgentReport[];
  window: { fromMs: number; toMs: number };
  /**
   * Frames the game loop ran per second in the window. Agents send at frames, so an agent of
   * rate R achieves at most R only while frames come at least every 1/(2R) s or so: a 30 Hz agent
   * sends every second frame, and a loop at 55 fps caps it near 27.5 Hz.
   */
  frameHz: number;
  /** What the server probes saw (with `probeUrl`). */
  server?: ServerProbeReport;
}

interface Driven {
  name: string;
  targetHz: number;
  client: AgentClient;
  transport: RecordingTransport;
  counts: AgentCounts;
  /** When its loop stopped and started again (a wreck until the next round); `to` null while resting. */
  rests: Array<{ from: number; to: number | null }>;
}

/**
 * Runs the arena for `warmupSeconds + seconds` and summarizes each agent over the measured part.
 * Each agent has its own client (and so its own recorder); the page shares one client, which
 * changes nothing per agent: an agent's requests never wait on another's in the client.
 *
 * @example
 * const run = await runHeadlessArena({ serverUrl: "http://127.0.0.1:8899", seconds: 10 });
 * run.agents.map((a) => [a.agent, a.achievedHz, a.latencyMs.p50]);
 */
export async function runHeadlessArena(options: HeadlessArenaOptions): Promise<HeadlessArenaRun> {
  const warmupMs = (options.warmupSeconds ?? 2) * 1000;
  const endMs = warmupMs + options.seconds * 1000;
  const enemies = options.enemies ?? ENEMY_IDS.length;
  const shipRateHz = options.shipRateHz ?? SHIP_RATE_HZ;
  const squadEveryMs = (options.squadEverySeconds ?? 1) * 1000;
  const stream = options.stream ?? true;
  const frameMs = 1000 / (options.frameHz ?? 60);
  const origin = performance.now();
  const now = () => performance.now() - origin;

  const field = new ArenaField(enemies);

  const drive = (name: string, targetHz: number, scope: string): Driven => {
    const transport = new RecordingTransport(options.serverUrl, origin, stream);
    const client = new AgentClient({ transport, dispatch: "update" });
    const counts: AgentCounts = { accepted: 0, rejected: 0, dropped: 0, errors: 0, restedMs: 0 };
    const inWindow = () => now() >= warmupMs;
    client.on("call", () => inWindow() && counts.accepted++);
    client.on("rejected", () => inWindow() && counts.rejected++);
    client.on("dropped", () => inWindow() && counts.dropped++);
    client.on("error", () => inWindow() && counts.errors++);
    field.register(client, scope);
    return { name, targetHz, client, transport, counts, rests: [] };
  };

  const squadAgent = drive("squad", 0, SQUAD_SCOPE);
  squadAgent.client.agent(squadAgentSpec(() => field.squad));
  const shipAgents = arenaShips(enemies)
    .filter((ship) => ship.team === "enemy")
    .map((ship) => {
      const driven = drive(ship.id, shipRateHz, SHIP_SCOPE);
      driven.client.agent(shipAgentSpec(ship.id, () => field.ships, shipRateHz));
      return driven;
    });
  const all = [squadAgent, ...shipAgents];

  let order = 0;
  let orderInFlight = false;
  let lastOrderAt = Number.NEGATIVE_INFINITY;
  let last = now();
  let framesInWindow = 0;
  const frame = () => {
    const t = now();
    if (t >= warmupMs) framesInWindow++;
    const dt = Math.min((t - last) / 1000, 0.1);
    last = t;
    field.step(dt, {
      destroyed: (ship) => {
        const wreck = shipAgents.find((driven) => driven.name === ship);
        wreck?.client.getAgent(wreck.name)?.stop();
        wreck?.rests.push({ from: t, to: null });
      },
      newRound: () => {
        for (const driven of shipAgents) {
          const agent = driven.client.getAgent(driven.name)!;
          agent.invalidate();
          agent.start();
          const rest = driven.rests.at(-1);
          if (rest && rest.to === null) rest.to = now();
        }
      },
    });
    if (squadEveryMs > 0 && !orderInFlight && t - lastOrderAt >= squadEveryMs) {
      orderInFlight = true;
      lastOrderAt = t;
      const text = SQUAD_ORDERS[order++ % SQUAD_ORDERS.length]!;
      void squadAgent.client.command(text).finally(() => {
        orderInFlight = false;
      });
    }
    for (const driven of all) driven.client.update();
  };

  const timer = setInterval(frame, frameMs);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await sleep(warmupMs);
  const probeUrl = options.probeUrl;
  const cacheBefore = probeUrl ? await readCacheCounters(probeUrl) : null;
  const health = probeUrl ? startHealthProbe(probeUrl, 50) : null;
  await sleep(Math.max(0, endMs - now()));
  clearInterval(timer);
  for (const driven of all) driven.client.destroy();
  const healthMs = await health?.stop();
  const cacheAfter = probeUrl ? await readCacheCounters(probeUrl) : null;

  const window = { fromMs: warmupMs, toMs: endMs };
  for (const driven of all) driven.counts.restedMs = restedIn(driven.rests, window);
  return {
    window,
    frameHz: Math.round((framesInWindow / options.seconds) * 10) / 10,
    agents: all.map((d) => summarizeAgent(d.name, d.targetHz, d.transport.samples, d.counts, window)),
    ...(healthMs
      ? {
          server: {
            healthMs,
            prefixCache: cacheBefore && cacheAfter ? cacheDelta(cacheBefore, cacheAfter) : null,
          },
        }
      : {}),
  };
}

/** How much of `window` the rests cover (a rest still open ends with the window). */
function restedIn(rests: Driven["rests"], window: { fromMs: number; toMs: number }): number {
  let ms = 0;
  for (const rest of rests) {
    const from = Math.max(rest.from, window.fromMs);
    const to = Math.min(rest.to ?? window.toMs, window.toMs);
    if (to > from) ms += to - from;
  }
  return ms;
}
