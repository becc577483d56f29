/**
 * The calls the HUD shows and `window.rtoolArena.state()` reports: a bounded, newest-last log of
 * accepted and refused calls with their heads and latency, and per-agent rates.
 */
import type { CallEvent } from "@rtool/phaser-plugin";

/** One call as logged. */
export interface LoggedCall {
  /** Page time in ms when it was dispatched. */
  at: number;
  agent: string;
  source: "tick" | "command";
  query: string;
  function: string | null;
  args: Record<string, unknown>;
  heads: Record<string, string>;
  latencyMs: number | null;
  /** Where the engine spent an accepted call's time (its reply's `timings`), when it said. */
  timings?: CallEvent["timings"];
  accepted: boolean;
  /** Why it was refused, when it was. */
  reason?: string;
}

/** Per-agent figures for the HUD. */
export interface AgentFigures {
  calls: number;
  rejected: number;
  lastLatencyMs: number | null;
  achievedHz: number;
}

/**
 * A call as text: `use_skill(Amiya)`, `move(up)`, `flap()`; values in argument order.
 *
 * @example
 * formatCall("move", { unit_id: "Blaze", target: "north" }); // "move(Blaze, north)"
 */
export function formatCall(fn: string | null, args: Record<string, unknown>): string {
  if (fn === null) return "(no call)";
  const values = Object.values(args).filter((value) => value !== null && value !== undefined);
  return `${fn}(${values.map((value) => String(value)).join(", ")})`;
}

/** Bounded log of calls, newest last. */
export class CallLog {
  private readonly entries: LoggedCall[] = [];
  private readonly figures = new Map<string, AgentFigures>();

  constructor(private readonly capacity = 200) {}

  add(entry: LoggedCall): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.shift();
    const figures = this.figuresOf(entry.agent);
    if (entry.accepted) figures.calls += 1;
    else figures.rejected += 1;
  }

  /** Records a reply's latency and the agent's achieved rate. */
  latency(agent: string, ms: number, achievedHz: number): void {
    const figures = this.figuresOf(agent);
    figures.lastLatencyMs = ms;
    figures.achievedHz = achievedHz;
  }

  /** The newest `n` entries, oldest first. */
  recent(n = this.capacity): LoggedCall[] {
    return this.entries.slice(-n);
  }

  /** The newest entry that matches, if any. */
  lastWhere(predicate: (entry: LoggedCall) => boolean): LoggedCall | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--)
      if (predicate(this.entries[i]!)) return this.entries[i];
    return undefined;
  }

  agents(): Record<string, AgentFigures> {
    return Object.fromEntries([...this.figures].map(([name, figures]) => [name, { ...figures }]));
  }

  clear(): void {
    this.entries.length = 0;
    this.figures.clear();
  }

  private figuresOf(agent: string): AgentFigures {
    let figures = this.figures.get(agent);
    if (!figures) {
      figures = { calls: 0, rejected: 0, lastLatencyMs: null, achievedHz: 0 };
      this.figures.set(agent, figures);
    }
    return figures;
  }
}
