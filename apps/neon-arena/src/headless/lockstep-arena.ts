/**
 * The Neon Arena in lockstep: the field advances one ship period per tick, and every request of
 * a tick is answered before the next, so each ship acts at exactly its target rate whatever the
 * server's speed. What a run measures is therefore independent of the machine's load: per call,
 * the prompt tokens, those reused from the prefix cache and those prefilled, the rows fed to
 * forward passes, and the passes per tick (whether the ships' calls of one tick share passes).
 * The same worlds, agents and plugin engine as the timed arena (`headless-arena.ts`); all ships
 * send in the same `update()`, as ships whose replies came back within one frame do in the game.
 */
import { AgentClient, type CallReply, type Transport } from "@rtool/phaser-plugin/headless";
import {
  arenaShips,
  SHIP_RATE_HZ,
  SHIP_SCOPE,
  SQUAD_SCOPE,
  shipAgentSpec,
  squadAgentSpec,
} from "../arena-agents";
import { ArenaField, SQUAD_ORDERS } from "./arena-field";
import { answerCachedShare, quantile, type TokenCounts, type TokenSpread, tokenCounts } from "./arena-report";
import { RecordingTransport, type ReplyTimings } from "./recording-transport";
import { readBatchCounters } from "./server-probes";

/** Options of {@link runLockstepArena}. */
export interface LockstepArenaOptions {
  /** rtool-server base URL (or the arena app's `/rtool` forward). */
  serverUrl: string;
  /** Ticks measured (one ship period each), after the warm-up. */
  ticks: number;
  /** Ticks played first and left out of the figures (the system turns' first prefills); default 2. */
  warmupTicks?: number;
  /** Model-driven enemy ships; default 3 (issue 32's load). */
  enemies?: number;
  /** Ticks per second of game time, i.e. each ship's rate; default {@link SHIP_RATE_HZ}. */
  shipRateHz?: number;
  /** A squad order every this many ticks; 0 sends none. Default: one per second of game time. */
  squadEveryTicks?: number;
  /** Streamed replies (SSE) as the page asks for; default true. */
  stream?: boolean;
  /** rtool-server's own URL: its forward passes and steps are read from `/metrics` around the window. */
  probeUrl?: string;
}

/** One agent's calls in the measured ticks. */
export interface LockstepAgentRow {
  agent: string;
  calls: number;
  /** Prompt, reused (prefix cache), prefilled and fed tokens per call. */
  tokens: TokenCounts;
  /** Share of the calls answered from the server's answer cache (no forward pass). */
  answerCachedShare: number;
  /** Forward passes per call. */
  passes: TokenSpread;
  /** Of a call's passes, those shared with other requests (mean). */
  sharedPasses: number;
}

/** What a lockstep run measured. */
export interface LockstepArenaRun {
  ticks: number;
  agents: LockstepAgentRow[];
  /** The server's forward passes in the measured ticks (with `probeUrl`). */
  server?: { passes: number; steps: number; passesPerTick: number; stepsPerPass: number };
}

/** A transport that remembers its requests in flight, so a tick can wait for all of them. */
class AwaitedTransport implements Transport {
  readonly inFlight = new Set<Promise<CallReply>>();
  constructor(readonly recorder: RecordingTransport) {}

  send(...args: Parameters<Transport["send"]>): Promise<CallReply> {
    const sent = this.recorder.send(...args);
    this.inFlight.add(sent);
    const forget = () => this.inFlight.delete(sent);
    sent.then(forget, forget);
    return sent;
  }
}

/**
 * Plays `warmupTicks + ticks` ticks: each tick every flying ship (and the squad, when an order is
 * due) sends one request from the current field, the tick waits for every reply, and the field
 * advances one period (in 60 Hz frames); replies are applied at the next tick's `update()`, as the
 * scene applies them at its next frame.
 *
 * @example
 * const run = await runLockstepArena({ serverUrl: "http://127.0.0.1:8899", ticks: 90, probeUrl: "http://127.0.0.1:8899" });
 * run.agents.map((a) => [a.agent, a.tokens.prefilled.mean]);
 */
export async function runLockstepArena(options: LockstepArenaOptions): Promise<LockstepArenaRun> {
  const enemies = options.enemies ?? 3;
  const rateHz = options.shipRateHz ?? SHIP_RATE_HZ;
  const periodMs = 1000 / rateHz;
  const warmupTicks = options.warmupTicks ?? 2;
  const squadEvery = options.squadEveryTicks ?? Math.round(rateHz);
  const framesPerTick = Math.max(1, Math.round(60 / rateHz));
  const field = new ArenaField(enemies);
  let clock = 0;

  const drive = (scope: string) => {
    const transport = new AwaitedTransport(
      new RecordingTransport(options.serverUrl, performance.now(), options.stream ?? true),
    );
    const client = new AgentClient({ transport, dispatch: "update", now: () => clock });
    field.register(client, scope);
    return { client, transport, measuredFrom: 0 };
  };
  const squad = { name: "squad", ...drive(SQUAD_SCOPE) };
  squad.client.agent(squadAgentSpec(() => field.squad));
  const ships = arenaShips(enemies)
    .filter((ship) => ship.team === "enemy")
    .map((ship) => {
      const driven = { name: ship.id, ...drive(SHIP_SCOPE) };
      driven.client.agent(shipAgentSpec(ship.id, () => field.ships, rateHz));
      return driven;
    });
  const all = [squad, ...ships];
  const events = {
    destroyed: (id: string) =>
      ships
        .find((s) => s.name === id)
        ?.client.getAgent(id)
        ?.stop(),
    newRound: () => {
      for (const ship of ships) {
        const agent = ship.client.getAgent(ship.name)!;
        agent.invalidate();
        agent.start();
      }
    },
  };

  let before: Awaited<ReturnType<typeof readBatchCounters>> = null;
  let order = 0;
  for (let tick = 0; tick < warmupTicks + options.ticks; tick++) {
    if (tick === warmupTicks) {
      for (const driven of all) driven.measuredFrom = driven.transport.recorder.samples.length;
      if (options.probeUrl) before = await readBatchCounters(options.probeUrl);
    }
    clock = tick * periodMs;
    if (squadEvery > 0 && tick % squadEvery === 0) {
      void squad.client.command(SQUAD_ORDERS[order++ % SQUAD_ORDERS.length]!);
    }
    for (const driven of all) driven.client.update();
    for (const driven of all) {
      while (driven.transport.inFlight.size > 0) await Promise.allSettled(driven.transport.inFlight);
    }
    for (let frame = 0; frame < framesPerTick; frame++) field.step(periodMs / 1000 / framesPerTick, events);
  }
  for (const driven of all) driven.client.update(); // the last replies' calls
  const after = options.probeUrl ? await readBatchCounters(options.probeUrl) : null;
  for (const driven of all) driven.client.destroy();

  const agents = all.map(({ name, transport, measuredFrom }): LockstepAgentRow => {
    const timings = transport.recorder.samples
      .slice(measuredFrom)
      .map((s) => s.timings)
      .filter((t): t is ReplyTimings => t !== null);
    const passes = timings.map((t) => t.steps);
    const shared = timings.map((t) => t.shared_steps ?? 0);
    return {
      agent: name,
      calls: timings.length,
      tokens: tokenCounts(timings),
      answerCachedShare: answerCachedShare(timings),
      passes: { p50: quantile(passes, 0.5), mean: round(sum(passes) / passes.length) },
      sharedPasses: round(sum(shared) / shared.length),
    };
  });
  const server =
    before && after
      ? {
          passes: after.passes - before.passes,
          steps: after.steps - before.steps,
          passesPerTick: round((after.passes - before.passes) / options.ticks),
          stepsPerPass: round((after.steps - before.steps) / Math.max(1, after.passes - before.passes)),
        }
      : undefined;
  return { ticks: options.ticks, agents, ...(server ? { server } : {}) };
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const round = (x: number) => Math.round(x * 100) / 100;
