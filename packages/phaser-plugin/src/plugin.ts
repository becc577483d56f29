/**
 * The Phaser faces of {@link AgentClient}, both reached as `this.rtool` through the plugin
 * config's `mapping`:
 * - {@link RtoolPlugin}, a ScenePlugin: one client per scene, driven from the scene's
 *   `preupdate` (handlers run inside the game loop, before the scene's `update`), a status line
 *   in the scene while the server is unreachable, and agents that end with the scene.
 * - {@link RtoolGlobalPlugin}, a global plugin: one client for the whole game, driven from the
 *   game's `prestep`. (Phaser builds global plugins as `new Plugin(pluginManager)`, which a
 *   ScenePlugin subclass cannot survive, hence the second class over the same core.)
 */
import Phaser from "phaser";
import { bindCore, PluginCore, type RtoolApi, type RtoolPluginOptions, withRtoolApi } from "./plugin-core";

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
export class RtoolPlugin extends withRtoolApi(Phaser.Plugins.ScenePlugin) implements RtoolApi {
  private readonly core = bindCore(
    this,
    new PluginCore(
      () => this.game,
      () => this.scene,
    ),
  );

  /** Hooks the scene's events. */
  override boot(): void {
    const events = this.systems!.events;
    events.on(Phaser.Scenes.Events.PRE_UPDATE, this.core.tick, this.core);
    events.on(Phaser.Scenes.Events.SHUTDOWN, this.core.release, this.core);
    events.once(Phaser.Scenes.Events.DESTROY, this.sceneDestroyed, this);
  }

  override destroy(): void {
    this.core.release();
    super.destroy();
  }

  private sceneDestroyed(): void {
    this.core.release();
    const events = this.systems?.events;
    events?.off(Phaser.Scenes.Events.PRE_UPDATE, this.core.tick, this.core);
    events?.off(Phaser.Scenes.Events.SHUTDOWN, this.core.release, this.core);
  }
}

/**
 * @example
 * ```ts
 * new Phaser.Game({
 *   scene: [MenuScene, LevelScene],
 *   plugins: { global: [{ key: "rtool", plugin: RtoolGlobalPlugin, start: true, mapping: "rtool",
 *     data: { serverUrl: "http://127.0.0.1:8899" } }] },
 * });
 * ```
 */
export class RtoolGlobalPlugin extends withRtoolApi(Phaser.Plugins.BasePlugin) implements RtoolApi {
  private configured: RtoolPluginOptions | null = null;
  private readonly core = bindCore(
    this,
    new PluginCore(
      () => this.game,
      () => null,
      () => this.configured,
    ),
  );

  /** Receives the `data` of the plugin config. */
  override init(data?: RtoolPluginOptions): void {
    this.configured = data ?? null;
  }

  /** Drives the client from the game loop. */
  override start(): void {
    this.game?.events.on(Phaser.Core.Events.PRE_STEP, this.core.tick, this.core);
  }

  /** Stops driving the client; agents keep their state until started again. */
  override stop(): void {
    this.game?.events.off(Phaser.Core.Events.PRE_STEP, this.core.tick, this.core);
  }

  override destroy(): void {
    this.stop();
    this.core.release();
    super.destroy();
  }
}
