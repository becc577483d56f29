/**
 * Connects the running scene to the HUD and to `window.rtoolArena`: the active scene attaches
 * its plugin, a state snapshot function and its agents' target rates; the hub forwards plugin
 * events to the HUD and the call log, routes typed or spoken commands to the scene, and answers
 * `state()` with a frozen copy so tests can read but never steer the game through it.
 */
import type { CommandOutcome, RtoolPlugin } from "@rtool/phaser-plugin";
import { CallLog, type LoggedCall } from "./call-log";
import type { Hud, SceneKey } from "./hud";

/** What a scene hands the hub when it starts. */
export interface SceneBinding {
  key: SceneKey;
  rtool: RtoolPlugin;
  /** Example commands shown under the command box. */
  hint: string;
  /** Agents and the rate each asked for (0 = commands only). */
  targetHz: Record<string, number>;
  /** The scene's game state as plain JSON. */
  snapshot(): Record<string, unknown>;
}

/** What `window.rtoolArena.state()` returns (deeply frozen). */
export interface ArenaSnapshot {
  scene: SceneKey | null;
  status: string;
  calls: LoggedCall[];
  lastCommand: LoggedCall | null;
  agents: Record<
    string,
    { calls: number; rejected: number; lastLatencyMs: number | null; achievedHz: number }
  >;
  game: Record<string, unknown> | null;
}

function shorten(message: string): string {
  return message.length > 60 ? `${message.slice(0, 57)}…` : message;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

export class ArenaHub {
  readonly log = new CallLog(300);
  private active: SceneBinding | null = null;
  private detachEvents: Array<() => void> = [];
  private status = "connecting";

  constructor(
    private readonly hud: Hud,
    private readonly startScene: (key: SceneKey, from: SceneKey | null) => void,
  ) {
    setInterval(() => this.refreshAgents(), 250);
  }

  /** Called by a scene in `create()`. */
  attach(binding: SceneBinding): void {
    this.detach();
    this.active = binding;
    this.log.clear();
    this.hud.setScene(binding.key, binding.hint);
    const rtool = binding.rtool;
    const record = (entry: LoggedCall) => {
      this.hud.endRequest(entry.agent);
      this.log.add(entry);
      this.hud.addToFeed(entry);
      if (entry.source === "command") this.hud.showCommandCall(entry);
    };
    this.detachEvents = [
      rtool.on("call", (event) =>
        record({
          at: performance.now(),
          agent: event.agent,
          source: event.source,
          query: event.query,
          function: event.function,
          args: event.args,
          heads: event.heads,
          latencyMs: event.latencyMs,
          timings: event.timings,
          accepted: true,
        }),
      ),
      rtool.on("rejected", (event) =>
        record({
          at: performance.now(),
          agent: event.agent,
          source: event.source,
          query: event.query,
          function: event.function,
          args: event.args,
          heads: event.heads,
          latencyMs: null,
          accepted: false,
          reason: event.reason,
        }),
      ),
      rtool.on("head", (event) => this.hud.showHead(event.agent, event.head, event.text)),
      // Failed requests (server down, refused request) show in the feed; the log keeps calls only.
      rtool.on("error", (event) =>
        this.hud.addToFeed({
          at: performance.now(),
          agent: event.agent,
          source: event.source,
          query: "",
          function: null,
          args: {},
          heads: {},
          latencyMs: null,
          accepted: false,
          reason: event.error.message,
        }),
      ),
      rtool.on("latency", (event) => this.log.latency(event.agent, event.ms, event.achievedHz)),
      rtool.on("status", (event) => {
        this.status = event.status;
        const detail =
          event.status === "online"
            ? "server online"
            : event.status === "offline"
              ? `server unavailable (${shorten(event.message)}), retry in ${(event.retryInMs / 1000).toFixed(1)} s`
              : "connecting…";
        this.hud.setStatus(event.status, detail);
      }),
    ];
  }

  /** Called by a scene on shutdown (and before another attaches). */
  detach(binding?: SceneBinding): void {
    if (binding && binding !== this.active) return;
    for (const off of this.detachEvents) off();
    this.detachEvents = [];
    this.active = null;
  }

  /** Sends a typed or spoken command to the active scene. */
  command(text: string): Promise<CommandOutcome | null> {
    const binding = this.active;
    if (!binding) return Promise.resolve(null);
    return binding.rtool.command(text).then((outcome) => {
      if (!outcome.ok && !["bad_enum", "unknown_tool", "server_invalid", "handler"].includes(outcome.code)) {
        // Not a refused call (those arrive as `rejected`): the request itself failed.
        this.hud.showCommandCall({
          at: performance.now(),
          agent: "player",
          source: "command",
          query: text,
          function: null,
          args: {},
          heads: {},
          latencyMs: null,
          accepted: false,
          reason: `${outcome.code}: ${outcome.reason}`,
        });
      }
      return outcome;
    });
  }

  switchScene(key: SceneKey): void {
    this.startScene(key, this.active?.key ?? null);
  }

  state(): ArenaSnapshot {
    const snapshot: ArenaSnapshot = {
      scene: this.active?.key ?? null,
      status: this.status,
      calls: this.log.recent(),
      lastCommand: this.log.lastWhere((entry) => entry.source === "command") ?? null,
      agents: this.log.agents(),
      game: this.active ? this.active.snapshot() : null,
    };
    return deepFreeze(structuredClone(snapshot));
  }

  private refreshAgents(): void {
    const binding = this.active;
    if (!binding) return;
    const figures = this.log.agents();
    const rows: Record<string, (typeof figures)[string] & { targetHz: number }> = {};
    for (const [name, targetHz] of Object.entries(binding.targetHz)) {
      const stats = binding.rtool.client.getAgent(name)?.stats();
      rows[name] = {
        calls: figures[name]?.calls ?? 0,
        rejected: figures[name]?.rejected ?? 0,
        lastLatencyMs: stats?.lastLatencyMs ?? null,
        achievedHz: stats?.achievedHz ?? 0,
        targetHz,
      };
    }
    this.hud.showAgents(rows);
  }
}
