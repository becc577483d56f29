/**
 * AgentClient: the Phaser-free heart of the plugin (named apart from `@rtool/client`'s HTTP
 * `RtoolClient`, which it is built on). Scenes register tools (JSON Schema plus a
 * handler) and agents; `update()` (once per frame) starts the requests that are due and returns
 * at once; replies are validated against the registered schema and dispatched to handlers,
 * either as they arrive or at the next `update()` (what the Phaser plugin uses, so handlers
 * always run inside the game loop).
 */
import {
  type Agent,
  type AgentSpec,
  AgentState,
  type CommandOutcome,
  type InFlight,
  type PendingCommand,
  type RequestSource,
} from "./agent";
import type { BackoffOptions } from "./backoff";
import type { DropReason, RtoolEvents, ServerStatus } from "./events";
import { historyEntry } from "./history-entry";
import { ServerConnection } from "./server-connection";
import { type AgentToolHandler, runCall, type ToolOptions, ToolRegistry } from "./tool-registry";
import type { AgentToolDefinition, FunctionTool } from "./tool-schema";
import {
  type CallReply,
  createHttpTransport,
  RequestRejectedError,
  ServerUnavailableError,
  type Transport,
} from "./transport";
import { TypedEvents } from "./typed-events";
import type { CallRejection } from "./validate-call";

export type { Agent } from "./agent";

export type { AgentToolContext, AgentToolHandler, HandlerResult, ToolOptions } from "./tool-registry";

/** Options of {@link AgentClient}. */
export interface AgentClientOptions {
  /** rtool-server base URL; default `http://127.0.0.1:8899`. Ignored when `transport` is given. */
  serverUrl?: string;
  /** Bearer key for the server. */
  apiKey?: string;
  /** Ask for Server-Sent Events so `head` events arrive before the call; default false. */
  stream?: boolean;
  /** Replaces the HTTP transport. */
  transport?: Transport;
  /** Clock in ms; default `performance.now`. */
  now?: () => number;
  backoff?: BackoffOptions;
  /** A request taking longer is aborted and counts as the server being unavailable; default 10 s. */
  requestTimeoutMs?: number;
  /** "reply" runs handlers as replies arrive; "update" queues them for the next `update()`. Default "reply". */
  dispatch?: "reply" | "update";
  /** Attempts per player command while the server is unavailable; default 3. */
  commandAttempts?: number;
}

const MAX_QUEUED_COMMANDS = 8;
const REFUSED_REQUEST_PAUSE_MS = 1000;

/**
 * @example
 * const client = new AgentClient({ serverUrl: "http://127.0.0.1:8899" });
 * client.tool({ name: "move_paddle", parameters: { type: "object",
 *   properties: { direction: { type: "string", enum: ["up", "down", "stay"] } }, required: ["direction"] } },
 *   ({ direction }) => { paddle.direction = direction as string; });
 * client.agent({ name: "paddle", environment: () => [`ball=${ball.x},${ball.y}`], rateHz: 16 });
 * setInterval(() => client.update(), 16);
 */
export class AgentClient {
  private readonly events: TypedEvents<RtoolEvents>;
  private readonly registry = new ToolRegistry();
  private readonly agents = new Map<string, AgentState>();
  private readonly transport: Transport;
  private readonly now: () => number;
  private readonly connection: ServerConnection;
  private readonly requestTimeoutMs: number;
  private readonly dispatchMode: "reply" | "update";
  private readonly commandAttempts: number;
  private readonly deferred: Array<() => void> = [];
  private readonly pausedUntil = new Map<string, number>();
  private seq = 0;
  private destroyed = false;

  constructor(options: AgentClientOptions = {}) {
    this.events = new TypedEvents<RtoolEvents>((error) => console.error("rtool listener failed:", error));
    this.transport =
      options.transport ??
      createHttpTransport({
        serverUrl: options.serverUrl ?? "http://127.0.0.1:8899",
        apiKey: options.apiKey,
        stream: options.stream,
      });
    this.now = options.now ?? (() => performance.now());
    this.connection = new ServerConnection(options.backoff ?? {}, (event) =>
      this.events.emit("status", event),
    );
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.dispatchMode = options.dispatch ?? "reply";
    this.commandAttempts = options.commandAttempts ?? 3;
  }

  /** Connection state: "connecting" until the first reply, then "online" or "offline". */
  get status(): ServerStatus {
    return this.connection.status;
  }

  /** When offline, ms until the next attempt; 0 otherwise. */
  retryInMs(): number {
    return this.connection.retryInMs(this.now());
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends keyof RtoolEvents>(event: K, listener: (payload: RtoolEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /** Unsubscribes. */
  off<K extends keyof RtoolEvents>(event: K, listener: (payload: RtoolEvents[K]) => void): void {
    this.events.off(event, listener);
  }

  /**
   * Registers a tool and its handler. The definition is checked at once (a
   * {@link ToolDefinitionError} names the bad field); every call is validated against it
   * before the handler runs.
   */
  tool(definition: AgentToolDefinition, handler: AgentToolHandler, options: ToolOptions = {}): this {
    this.registry.register(definition, handler, options);
    return this;
  }

  /** The tools of a scope, as sent to the server. */
  tools(scope = "default"): FunctionTool[] {
    return this.registry.tools(scope);
  }

  /** Declares an agent; its loop starts at the next `update()` unless `autoStart` is false. */
  agent(spec: AgentSpec): Agent {
    if (this.agents.has(spec.name)) throw new Error(`an agent named ${JSON.stringify(spec.name)} exists`);
    const state = new AgentState(spec);
    this.agents.set(spec.name, state);
    return this.handle(state);
  }

  /** The handle of a declared agent, or undefined. */
  getAgent(name: string): Agent | undefined {
    const state = this.agents.get(name);
    return state ? this.handle(state) : undefined;
  }

  /**
   * Sends a player command through an agent: `agent` when given, else the only agent without a
   * loop (rateHz 0), else the only agent; with no agent at all a command-only agent "player" over
   * the default scope is declared. Resolves once the call ran (or was refused).
   */
  command(text: string, options: { agent?: string } = {}): Promise<CommandOutcome> {
    return this.enqueueCommand(this.commandAgent(options.agent), text);
  }

  /** Starts due requests and (in "update" mode) runs queued dispatches. Never waits. */
  update(): void {
    if (this.destroyed) return;
    for (const run of this.deferred.splice(0)) run();
    const now = this.now();
    for (const agent of this.agents.values()) this.pump(agent, now);
  }

  /** Aborts everything in flight and drops all listeners, agents and tools. */
  destroy(): void {
    this.destroyed = true;
    for (const agent of this.agents.values()) {
      agent.inFlight?.controller.abort();
      agent.inFlight = null;
      for (const command of agent.commands.splice(0)) {
        command.resolve({ ok: false, code: "destroyed", reason: "the client was destroyed" });
      }
    }
    this.agents.clear();
    this.registry.clear();
    this.deferred.length = 0;
    this.events.clear();
  }

  private handle(state: AgentState): Agent {
    return {
      name: state.spec.name,
      start: () => {
        state.running = true;
      },
      stop: () => {
        state.running = false;
      },
      invalidate: () => {
        state.generation += 1;
        if (state.inFlight) this.abort(state, "invalidated");
      },
      command: (text: string) => this.enqueueCommand(state, text),
      stats: () => state.stats(this.now()),
    };
  }

  private commandAgent(name: string | undefined): AgentState {
    if (name !== undefined) {
      const named = this.agents.get(name);
      if (!named) throw new Error(`no agent named ${JSON.stringify(name)}`);
      return named;
    }
    const all = [...this.agents.values()];
    const commandOnly = all.filter((agent) => agent.spec.rateHz === 0);
    if (commandOnly.length === 1) return commandOnly[0]!;
    if (all.length === 1) return all[0]!;
    if (all.length === 0) {
      const player = new AgentState({ name: "player", rateHz: 0 });
      this.agents.set("player", player);
      return player;
    }
    throw new Error("several agents could take this command: pass { agent }");
  }

  private enqueueCommand(agent: AgentState, text: string): Promise<CommandOutcome> {
    return new Promise<CommandOutcome>((resolve) => {
      if (this.destroyed) {
        resolve({ ok: false, code: "destroyed", reason: "the client was destroyed" });
        return;
      }
      agent.commands.push({ text, attempts: 0, resolve });
      if (agent.commands.length > MAX_QUEUED_COMMANDS) {
        agent.commands
          .shift()!
          .resolve({ ok: false, code: "superseded", reason: "too many commands queued" });
      }
      this.pump(agent, this.now());
    });
  }

  /** Starts the agent's next request if one is due and allowed. */
  private pump(agent: AgentState, now: number): void {
    if (this.destroyed) return;
    if (!this.connection.maySend(now)) return;
    if ((this.pausedUntil.get(agent.spec.name) ?? 0) > now) return;
    if (agent.commands.length > 0) {
      if (agent.inFlight?.source === "tick") this.abort(agent, "superseded");
      if (agent.inFlight) return;
      this.send(agent, "command", now, agent.commands.shift());
      return;
    }
    if (!agent.inFlight && agent.tickDue(now)) this.send(agent, "tick", now);
  }

  private send(agent: AgentState, source: RequestSource, now: number, command?: PendingCommand): void {
    const spec = agent.spec;
    const tools = this.registry.tools(spec.scope);
    const query = command ? command.text : agent.loopQuery();
    if (tools.length === 0) {
      this.fail(
        agent,
        source,
        new Error(`agent ${spec.name}: no tools in scope ${JSON.stringify(spec.scope)}`),
      );
      command?.resolve({ ok: false, code: "no_tools", reason: `no tools in scope ${spec.scope}` });
      if (source === "tick") agent.markTick(now);
      return;
    }
    let environment: readonly string[] | undefined;
    try {
      environment = spec.environment?.();
    } catch (error) {
      this.fail(agent, source, asError(error));
      command?.resolve({ ok: false, code: "environment", reason: asError(error).message });
      if (source === "tick") agent.markTick(now);
      return;
    }
    const flight: InFlight = {
      seq: ++this.seq,
      generation: agent.generation,
      source,
      sentAt: now,
      controller: new AbortController(),
      command,
    };
    agent.inFlight = flight;
    if (source === "tick") agent.markTick(now);
    agent.counts.sent += 1;
    this.connection.sending();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      flight.controller.abort();
    }, this.requestTimeoutMs);
    this.transport
      .send(
        {
          format: spec.format,
          query,
          tools,
          environment,
          history: agent.history(),
          system: spec.system,
          maxTokens: spec.maxTokens,
        },
        {
          signal: flight.controller.signal,
          onHead: (head) => {
            if (agent.inFlight !== flight) return;
            this.deliver(() => this.events.emit("head", { agent: spec.name, source, ...head }));
          },
        },
      )
      .then(
        (reply) => {
          clearTimeout(timer);
          this.onReply(agent, flight, query, reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          const failure = timedOut
            ? new ServerUnavailableError(`no reply within ${this.requestTimeoutMs} ms`, null)
            : error;
          this.onFailure(agent, flight, failure);
        },
      );
  }

  private onReply(agent: AgentState, flight: InFlight, query: string, reply: CallReply): void {
    if (this.destroyed || agent.inFlight !== flight) return; // aborted: already counted as dropped
    agent.inFlight = null;
    const now = this.now();
    this.connection.succeeded();
    const latencyMs = now - flight.sentAt;
    const name = agent.spec.name;
    const drop =
      flight.generation !== agent.generation
        ? "invalidated"
        : flight.source === "tick" && !agent.running
          ? "stopped"
          : flight.source === "tick" && latencyMs > agent.spec.staleAfterMs
            ? "stale"
            : null;
    if (drop) {
      agent.counts.dropped += 1;
      this.events.emit("dropped", { agent: name, source: flight.source, reason: drop });
    } else {
      agent.meter.mark(now);
      agent.lastLatencyMs = latencyMs;
      this.events.emit("latency", {
        agent: name,
        source: flight.source,
        ms: latencyMs,
        achievedHz: agent.meter.hz(now),
      });
      this.deliver(() => this.dispatch(agent, flight, query, reply, latencyMs));
    }
    // In "update" mode the call runs at the next update(), which then sends the next request from
    // the state that call produced; sending now would describe the world before the call.
    if (this.dispatchMode === "reply") this.pump(agent, now);
  }

  private dispatch(
    agent: AgentState,
    flight: InFlight,
    query: string,
    reply: CallReply,
    latencyMs: number,
  ): void {
    if (this.destroyed) return;
    const name = agent.spec.name;
    const source = flight.source;
    const heads = reply.heads ?? {};
    const outcome = runCall(this.registry.scope(agent.spec.scope), reply, { agent: name, source, heads });
    if (outcome.kind === "failed") {
      this.fail(agent, source, outcome.error);
      flight.command?.resolve({ ok: false, code: "handler_error", reason: outcome.error.message });
      return;
    }
    if (outcome.kind === "rejected") {
      agent.counts.rejected += 1;
      const event = { agent: name, source, query, function: reply.function, args: reply.args ?? {}, heads };
      this.events.emit("rejected", { ...event, ...withoutOk(outcome.rejection) });
      flight.command?.resolve(outcome.rejection);
      return;
    }
    agent.counts.accepted += 1;
    agent.remember(historyEntry(outcome.entry.tool, outcome.args));
    this.events.emit("call", {
      agent: name,
      source,
      query,
      function: outcome.function,
      args: outcome.args,
      heads,
      latencyMs,
      serverLatencyMs: typeof reply.latency_ms === "number" ? reply.latency_ms : null,
      timings: reply.timings ?? null,
    });
    flight.command?.resolve({ ok: true, function: outcome.function, args: outcome.args });
  }

  private onFailure(agent: AgentState, flight: InFlight, error: unknown): void {
    if (this.destroyed || agent.inFlight !== flight) return; // aborted on purpose: already handled
    agent.inFlight = null;
    const now = this.now();
    const failure = asError(error);
    const command = flight.command;
    if (failure instanceof RequestRejectedError) {
      // The request itself is wrong (bad tools, bad key): pausing this agent beats spamming.
      this.pausedUntil.set(agent.spec.name, now + REFUSED_REQUEST_PAUSE_MS);
      this.fail(agent, flight.source, failure);
      command?.resolve({ ok: false, code: failure.code, reason: failure.message });
      return;
    }
    const retryAfter = failure instanceof ServerUnavailableError ? (failure.retryAfterMs ?? 0) : 0;
    this.connection.failed(now, failure.message, retryAfter);
    this.fail(agent, flight.source, failure);
    if (command) {
      command.attempts += 1;
      if (command.attempts < this.commandAttempts) agent.commands.unshift(command);
      else command.resolve({ ok: false, code: "unavailable", reason: failure.message });
    }
  }

  private abort(agent: AgentState, reason: DropReason): void {
    const flight = agent.inFlight;
    if (!flight) return;
    agent.inFlight = null;
    flight.controller.abort();
    agent.counts.dropped += 1;
    this.events.emit("dropped", { agent: agent.spec.name, source: flight.source, reason });
    flight.command?.resolve({ ok: false, code: reason, reason: `the command was ${reason}` });
  }

  private fail(agent: AgentState, source: RequestSource, error: Error): void {
    agent.counts.errors += 1;
    this.events.emit("error", { agent: agent.spec.name, source, error });
  }

  private deliver(run: () => void): void {
    if (this.dispatchMode === "update") this.deferred.push(run);
    else run();
  }
}

function withoutOk(rejection: CallRejection): Omit<CallRejection, "ok"> {
  const { ok: _ok, ...rest } = rejection;
  return rest;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * The former name of {@link AgentClient}, kept inside this package for code written against it;
 * the package exports only `AgentClient`, so that `RtoolClient` names `@rtool/client`'s alone.
 * @deprecated Use {@link AgentClient}.
 */
export const RtoolClient = AgentClient;
/** @deprecated Use {@link AgentClient}. */
export type RtoolClient = AgentClient;
