/**
 * One model-driven actor: what it sends (system prompt, tools scope, environment, query, history)
 * and its request state. An agent has at most one request in flight; its periodic "tick" reads
 * the environment at send time, so every request carries the newest state, and a tick never
 * queues behind another. Player commands queue (each order counts) and preempt a tick in flight.
 */
import { RateMeter } from "./rate-meter";
import type { PromptFormat } from "./transport";

/** What started a request: the agent's own loop or a player command. */
export type RequestSource = "tick" | "command";

/** How an agent is declared with `rtool.agent(...)`. */
export interface AgentSpec {
  /** Unique within the client; shown in events and the HUD. */
  name: string;
  /** Prompt format (route); default "v2". */
  format?: PromptFormat;
  /** Domain system prompt (v2) sent with every request. */
  system?: string;
  /** The state as environment lines, read when a request is sent. */
  environment?: () => readonly string[];
  /** Requests per second of the agent's own loop; 0 = only player commands. Default 16. */
  rateHz?: number;
  /** The user message of loop requests; default "Act now.". */
  query?: string | (() => string);
  /** Which tools it may call (the scope given to `tool(def, handler, { scope })`); default "default". */
  scope?: string;
  /**
   * History sent with each request: true (default) keeps the agent's last accepted calls as
   * `name(arg1,arg2)`; a function supplies it; false sends none.
   */
  history?: boolean | (() => readonly string[]);
  /** Head token budget; the server's default when absent. */
  maxTokens?: number;
  /** Loop replies arriving later than this after their request are dropped as stale; default 1000 ms. */
  staleAfterMs?: number;
  /** Whether the loop runs from the start; default true. */
  autoStart?: boolean;
}

/** A request on the wire. */
export interface InFlight {
  seq: number;
  generation: number;
  source: RequestSource;
  sentAt: number;
  controller: AbortController;
  /** The command this request carries, when it is one. */
  command?: PendingCommand;
}

/** What `command(text)` resolves with. */
export type CommandOutcome =
  | { ok: true; function: string; args: Record<string, string | number | boolean> }
  | { ok: false; code: string; reason: string; field?: string };

/** A player command waiting for (or on) the wire. */
export interface PendingCommand {
  text: string;
  attempts: number;
  resolve: (outcome: CommandOutcome) => void;
}

/** Counters and rates of one agent, for a HUD. */
export interface AgentStats {
  sent: number;
  accepted: number;
  rejected: number;
  dropped: number;
  errors: number;
  lastLatencyMs: number | null;
  /** Replies per second over the last 2 s. */
  achievedHz: number;
}

/** Public handle of a declared agent. */
export interface Agent {
  readonly name: string;
  /** Starts (or resumes) the agent's loop. */
  start(): void;
  /** Stops the loop; a reply in flight is dropped when it arrives. */
  stop(): void;
  /** The state changed so much that replies in flight are worthless (a respawn, a new round). */
  invalidate(): void;
  /** Sends a player command with this agent's prompt, environment and tools. */
  command(text: string): Promise<CommandOutcome>;
  stats(): AgentStats;
}

const HISTORY_KEEP = 6;

/** Mutable state of one agent, owned by the client. */
export class AgentState {
  readonly spec: Required<Pick<AgentSpec, "name" | "format" | "rateHz" | "scope" | "staleAfterMs">> &
    AgentSpec;
  running: boolean;
  generation = 0;
  inFlight: InFlight | null = null;
  lastTickAt = Number.NEGATIVE_INFINITY;
  readonly commands: PendingCommand[] = [];
  readonly recentCalls: string[] = [];
  readonly meter = new RateMeter(2000);
  readonly counts = { sent: 0, accepted: 0, rejected: 0, dropped: 0, errors: 0 };
  lastLatencyMs: number | null = null;

  constructor(spec: AgentSpec) {
    const rateHz = spec.rateHz ?? 16;
    if (!Number.isFinite(rateHz) || rateHz < 0)
      throw new RangeError(`agent ${spec.name}: rateHz must be >= 0`);
    this.spec = {
      ...spec,
      format: spec.format ?? "v2",
      rateHz,
      scope: spec.scope ?? "default",
      staleAfterMs: spec.staleAfterMs ?? 1000,
    };
    this.running = spec.autoStart ?? true;
  }

  /** Milliseconds between loop requests; Infinity when the agent has no loop. */
  get periodMs(): number {
    return this.spec.rateHz > 0 ? 1000 / this.spec.rateHz : Number.POSITIVE_INFINITY;
  }

  /** Whether the loop is due at `nowMs` (rate limit only; in-flight and back-off are the client's). */
  tickDue(nowMs: number): boolean {
    return this.running && this.spec.rateHz > 0 && nowMs - this.lastTickAt >= this.periodMs - 0.5;
  }

  /**
   * Records a loop request sent at `nowMs`. The schedule keeps its phase (last + period) so a
   * 16 Hz agent gets 16 requests a second even when frames do not divide the period, but never
   * saves up: after falling behind by more than a period it restarts from now.
   */
  markTick(nowMs: number): void {
    const next = this.lastTickAt + this.periodMs;
    this.lastTickAt = next < nowMs - this.periodMs ? nowMs : next;
  }

  /** The query of a loop request. */
  loopQuery(): string {
    const query = this.spec.query;
    return typeof query === "function" ? query() : (query ?? "Act now.");
  }

  /** The history to send, per the spec. */
  history(): readonly string[] | undefined {
    const history = this.spec.history ?? true;
    if (history === false) return undefined;
    if (typeof history === "function") return history();
    return this.recentCalls;
  }

  /** Remembers an accepted call for the history. */
  remember(entry: string): void {
    this.recentCalls.push(entry);
    if (this.recentCalls.length > HISTORY_KEEP) this.recentCalls.shift();
  }

  stats(nowMs: number): AgentStats {
    return { ...this.counts, lastLatencyMs: this.lastLatencyMs, achievedHz: this.meter.hz(nowMs) };
  }
}
