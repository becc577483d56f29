/**
 * What the scene plugin and the global plugin share: the lazily created client (options from
 * `connect`, the plugin config's `data`, or the game registry), the per-frame tick, and the
 * status line drawn in a scene while the server is unreachable. No Phaser import at run time:
 * it only calls methods on the game and scene it is given.
 */
import type Phaser from "phaser";
import type { AgentSpec, CommandOutcome } from "./agent";
import {
  type Agent,
  AgentClient,
  type AgentClientOptions,
  type AgentToolHandler,
  type ToolOptions,
} from "./client";
import type { RtoolEvents, ServerStatus } from "./events";
import type { AgentToolDefinition, FunctionTool } from "./tool-schema";
import type { Transport } from "./transport";

/** Registry key a game may set to configure every scene's plugin: `game.registry.set(RTOOL_OPTIONS_KEY, {...})`. */
export const RTOOL_OPTIONS_KEY = "rtool.options";

/** Options of the plugin: the client's, plus whether to draw the status line. */
export interface RtoolPluginOptions extends Omit<AgentClientOptions, "dispatch" | "now"> {
  /** Draw "rtool: server offline, retrying…" in the scene's top-right corner when not online; default true. */
  showStatus?: boolean;
  /**
   * Who decodes the calls: "server" (an rtool-server at `serverUrl`, the default) or an engine
   * object such as `inPageEngine(...)` from `@rtool/phaser-plugin/in-page` (the model in a Web
   * Worker of the page). Agents, commands and events are the same with either.
   */
  engine?: "server" | { readonly transport: Transport };
}

/** The API both plugins expose as `this.rtool`. */
export interface RtoolApi {
  /** Connects to a server; call before `tool`/`agent`, else the config's, registry's or default options apply. */
  connect(options: RtoolPluginOptions): this;
  /** Registers a tool (JSON Schema) and the handler that runs its validated calls. */
  tool(definition: AgentToolDefinition, handler: AgentToolHandler, options?: ToolOptions): this;
  /** The tools of a scope, as sent to the server. */
  tools(scope?: string): FunctionTool[];
  /** Declares a model-driven agent; its loop runs at `rateHz` while the game updates. */
  agent(spec: AgentSpec): Agent;
  /** Sends a player command (typed or spoken text). */
  command(text: string, options?: { agent?: string }): Promise<CommandOutcome>;
  /** Subscribes to `call`, `head`, `rejected`, `error`, `latency`, `status` or `dropped`. */
  on<K extends keyof RtoolEvents>(event: K, listener: (payload: RtoolEvents[K]) => void): () => void;
  /** Connection state. */
  readonly status: ServerStatus;
  /** The underlying client (agents' stats, advanced use). */
  readonly client: AgentClient;
}

/** The shared state and behaviour behind {@link RtoolApi}. */
export class PluginCore {
  private active: AgentClient | null = null;
  private options: RtoolPluginOptions | null = null;
  private statusText: Phaser.GameObjects.Text | null = null;

  constructor(
    private readonly game: () => Phaser.Game | null | undefined,
    private readonly scene: () => Phaser.Scene | null | undefined,
    private readonly configured: () => RtoolPluginOptions | null = () => null,
  ) {}

  connect(options: RtoolPluginOptions): void {
    if (this.active) throw new Error("rtool is already connected: call connect() before tool() and agent()");
    this.options = options;
  }

  get status(): ServerStatus {
    return this.active?.status ?? "connecting";
  }

  client(): AgentClient {
    if (!this.active) {
      const fromRegistry = this.game()?.registry.get(RTOOL_OPTIONS_KEY) as RtoolPluginOptions | undefined;
      const options = this.options ?? this.configured() ?? fromRegistry ?? {};
      this.options = options;
      const engine = typeof options.engine === "object" ? { transport: options.engine.transport } : {};
      this.active = new AgentClient({ ...options, ...engine, dispatch: "update" });
    }
    return this.active;
  }

  /** Once per frame: start due requests, run arrived calls, refresh the status line. */
  tick(): void {
    if (!this.active) return;
    this.active.update();
    this.drawStatus();
  }

  /** Ends the client (its agents and requests); the next use starts a fresh one. */
  release(): void {
    this.active?.destroy();
    this.active = null;
    this.statusText = null;
  }

  private drawStatus(): void {
    const scene = this.scene();
    if (!scene || this.options?.showStatus === false || !this.active) return;
    const status = this.active.status;
    if (status === "online") {
      this.statusText?.setVisible(false);
      return;
    }
    if (!this.statusText) {
      this.statusText = scene.add
        .text(scene.scale.width - 8, 8, "", { fontFamily: "monospace", fontSize: "14px", color: "#ff4d6d" })
        .setOrigin(1, 0)
        .setScrollFactor(0)
        .setDepth(Number.MAX_SAFE_INTEGER);
    }
    const text =
      status === "connecting"
        ? "rtool: connecting…"
        : `rtool: server offline, retrying in ${(this.active.retryInMs() / 1000).toFixed(1)} s`;
    this.statusText.setText(text).setVisible(true);
  }
}

/** The cores of the plugin instances, for the {@link RtoolApi} members {@link withRtoolApi} adds. */
const cores = new WeakMap<object, PluginCore>();

/** Records `core` as the one `plugin`'s {@link RtoolApi} members delegate to, and returns it. */
export function bindCore(plugin: object, core: PluginCore): PluginCore {
  cores.set(plugin, core);
  return core;
}

function coreOf(plugin: object): PluginCore {
  const core = cores.get(plugin);
  if (!core) throw new Error("rtool: a plugin built with withRtoolApi must bindCore(this, core) first");
  return core;
}

/** A plugin class making `T`s (a mixin's base takes whatever arguments Phaser constructs it with). */
// biome-ignore lint/suspicious/noExplicitAny: the constructor arguments are the Phaser base's
type PluginClass<T = object> = new (...args: any[]) => T;

/**
 * `Base` (a Phaser plugin class) with the members of {@link RtoolApi}, each delegating to the
 * {@link PluginCore} the subclass binds with {@link bindCore}: the scene plugin and the global
 * plugin extend different Phaser classes, so the API is mixed into both rather than inherited.
 */
export function withRtoolApi<TBase extends PluginClass>(Base: TBase): TBase & PluginClass<RtoolApi> {
  return class RtoolApiMembers extends Base implements RtoolApi {
    connect(options: RtoolPluginOptions): this {
      coreOf(this).connect(options);
      return this;
    }

    tool(definition: AgentToolDefinition, handler: AgentToolHandler, options?: ToolOptions): this {
      coreOf(this).client().tool(definition, handler, options);
      return this;
    }

    tools(scope?: string): FunctionTool[] {
      return coreOf(this).client().tools(scope);
    }

    agent(spec: AgentSpec): Agent {
      return coreOf(this).client().agent(spec);
    }

    command(text: string, options?: { agent?: string }): Promise<CommandOutcome> {
      return coreOf(this).client().command(text, options);
    }

    on<K extends keyof RtoolEvents>(event: K, listener: (payload: RtoolEvents[K]) => void): () => void {
      return coreOf(this).client().on(event, listener);
    }

    get status(): ServerStatus {
      return coreOf(this).status;
    }

    get client(): AgentClient {
      return coreOf(this).client();
    }
  };
}
