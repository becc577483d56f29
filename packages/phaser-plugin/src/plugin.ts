/**
 * RtoolPlugin: the Phaser face of {@link RtoolClient}. Installed as a scene plugin it is
 * `this.rtool` in every scene, drives the client from the scene's `preupdate` (so handlers run
 * inside the game loop, before the scene's own `update`), shows a small status line while the
 * server is unreachable, and tears the scene's agents down on shutdown. Installed as a global
 * plugin it is one client for the whole game, driven from the game's `prestep`.
 */
import Phaser from "phaser";
import type { AgentSpec, CommandOutcome } from "./agent";
import {
  type Agent,
  RtoolClient,
  type RtoolClientOptions,
  type ToolHandler,
  type ToolOptions,
} from "./client";
import type { RtoolEvents, ServerStatus } from "./events";
import type { FunctionTool, ToolDefinition } from "./tool-schema";

/** Registry key a game may set to configure every scene's plugin: `game.registry.set(RTOOL_OPTIONS_KEY, {...})`. */
export const RTOOL_OPTIONS_KEY = "rtool.options";

/** Options of the plugin: the client's, plus whether to draw the status line. */
export interface RtoolPluginOptions extends Omit<RtoolClientOptions, "dispatch" | "now"> {
  /** Draw "rtool: offline, retrying…" in the scene's top-right corner when not online; default true. */
  showStatus?: boolean;
}

/**
 * @example
 * ```ts
 * new Phaser.Game({
 *   scene: [PongScene],
 *   plugins: { scene: [{ key: "rtool", plugin: RtoolPlugin, mapping: "rtool" }] },
 * });
 * // in PongScene.create():
 * this.rtool.connect({ serverUrl: "http://127.0.0.1:8899" });
 * this.rtool.tool(movePaddleTool, ({ direction }) => { this.paddleDirection = direction; });
 * this.rtool.agent({ name: "paddle", environment: () => [`ball=${this.ball.x},${this.ball.y}`], rateHz: 16 });
 * ```
 */
export class RtoolPlugin extends Phaser.Plugins.ScenePlugin {
  private activeClient: RtoolClient | null = null;
  private options: RtoolPluginOptions | null = null;
  private statusText: Phaser.GameObjects.Text | null = null;
  private globalData: RtoolPluginOptions | null = null;

  /** Scene plugin: hooks the scene's events. */
  override boot(): void {
    const events = this.systems!.events;
    events.on(Phaser.Scenes.Events.PRE_UPDATE, this.tick, this);
    events.on(Phaser.Scenes.Events.SHUTDOWN, this.release, this);
    events.once(Phaser.Scenes.Events.DESTROY, this.sceneDestroyed, this);
  }

  /** Global plugin: receives the `data` of its plugin config. */
  override init(data?: RtoolPluginOptions): void {
    this.globalData = data ?? null;
  }

  /** Global plugin: drives the client from the game loop. */
  override start(): void {
    this.game?.events.on(Phaser.Core.Events.PRE_STEP, this.tick, this);
  }

  /** Global plugin: stops driving the client. */
  override stop(): void {
    this.game?.events.off(Phaser.Core.Events.PRE_STEP, this.tick, this);
  }

  /** Connects to a server; call before `tool`/`agent`, else the registry's or default options apply. */
  connect(options: RtoolPluginOptions): this {
    if (this.activeClient) throw new Error("rtool is already connected in this scene: call connect() first");
    this.options = options;
    return this;
  }

  /** Registers a tool (JSON Schema) and the handler that runs its validated calls. */
  tool(definition: ToolDefinition, handler: ToolHandler, options?: ToolOptions): this {
    this.ensureClient().tool(definition, handler, options);
    return this;
  }

  /** The tools of a scope, as sent to the server. */
  tools(scope?: string): FunctionTool[] {
    return this.ensureClient().tools(scope);
  }

  /** Declares a model-driven agent; its loop runs at `rateHz` while the scene updates. */
  agent(spec: AgentSpec): Agent {
    return this.ensureClient().agent(spec);
  }

  /** Sends a player command (typed or spoken text). */
  command(text: string, options?: { agent?: string }): Promise<CommandOutcome> {
    return this.ensureClient().command(text, options);
  }

  /** Subscribes to `call`, `head`, `rejected`, `error`, `latency`, `status` or `dropped`. */
  on<K extends keyof RtoolEvents>(event: K, listener: (payload: RtoolEvents[K]) => void): () => void {
    return this.ensureClient().on(event, listener);
  }

  /** Connection state. */
  get status(): ServerStatus {
    return this.activeClient?.status ?? "connecting";
  }

  /** The underlying client (for agents' stats and advanced use). */
  get client(): RtoolClient {
    return this.ensureClient();
  }

  override destroy(): void {
    this.release();
    super.destroy();
  }

  private ensureClient(): RtoolClient {
    if (!this.activeClient) {
      const fromRegistry = this.game?.registry.get(RTOOL_OPTIONS_KEY) as RtoolPluginOptions | undefined;
      const options = this.options ?? this.globalData ?? fromRegistry ?? {};
      this.options = options;
      this.activeClient = new RtoolClient({ ...options, dispatch: "update" });
    }
    return this.activeClient;
  }

  private tick(): void {
    if (!this.activeClient) return;
    this.activeClient.update();
    this.drawStatus();
  }

  private drawStatus(): void {
    if (!this.scene || this.options?.showStatus === false || !this.activeClient) return;
    const status = this.activeClient.status;
    if (status === "online") {
      this.statusText?.setVisible(false);
      return;
    }
    if (!this.statusText) {
      this.statusText = this.scene.add
        .text(this.scene.scale.width - 8, 8, "", {
          fontFamily: "monospace",
          fontSize: "14px",
          color: "#ff4d6d",
        })
        .setOrigin(1, 0)
        .setScrollFactor(0)
        .setDepth(Number.MAX_SAFE_INTEGER);
    }
    const retry = this.activeClient.retryInMs();
    const text =
      status === "connecting"
        ? "rtool: connecting…"
        : `rtool: server offline, retrying in ${(retry / 1000).toFixed(1)} s`;
    this.statusText.setText(text).setVisible(true);
  }

  /** Scene shutdown: agents and requests end with the scene; a restart registers afresh. */
  private release(): void {
    this.activeClient?.destroy();
    this.activeClient = null;
    this.statusText = null;
  }

  private sceneDestroyed(): void {
    this.release();
    const events = this.systems?.events;
    events?.off(Phaser.Scenes.Events.PRE_UPDATE, this.tick, this);
    events?.off(Phaser.Scenes.Events.SHUTDOWN, this.release, this);
  }
}
