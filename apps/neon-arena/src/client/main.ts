/**
 * The page's entry: the HUD, the hub, and the Phaser game with the rtool scene plugin. The
 * plugin talks to `/rtool` on this page's origin (the app server forwards it to rtool-server),
 * or to `?server=URL`; `?engine=in-page` runs rt-tiny in a Web Worker of the page instead (no
 * server). `?scene=pong|flappy` opens another scene. The Canvas renderer is the
 * default: these few glowing lines draw as fast there, and without a GPU (headless chromium)
 * WebGL runs in software at a third of the frame rate, starving the agents' loops;
 * `?renderer=webgl` or `?renderer=auto` opts in. `window.rtoolArena.state()` is the tests'
 * read-only view of the game.
 */
import { RTOOL_OPTIONS_KEY, RtoolPlugin } from "@rtool/phaser-plugin";
import Phaser from "phaser";
import { ArenaHub, type ArenaSnapshot } from "./arena-hub";
import { Hud, SCENE_TITLES, type SceneKey } from "./hud";
import { type InPageStatus, startInPage } from "./in-page";
import { NEON } from "./neon";
import { ArenaScene } from "./scenes/arena-scene";
import { FlappyScene } from "./scenes/flappy-scene";
import { PongScene } from "./scenes/pong-scene";
import { HEIGHT, HUB_KEY, WIDTH } from "./scenes/scene-kit";

declare global {
  interface Window {
    rtoolArena: {
      /** A deeply frozen snapshot: scene, server status, recent calls, per-agent figures, game state. */
      state(): ArenaSnapshot;
      /** The in-page model's load, with `?engine=in-page`; absent on the server engine. */
      inPage?: InPageStatus;
    };
  }
}

const params = new URLSearchParams(location.search);
const serverUrl = params.get("server") ?? `${location.origin}/rtool`;
const firstScene = (params.get("scene") ?? "arena") as SceneKey;
const RENDERERS: Record<string, number> = { canvas: Phaser.CANVAS, webgl: Phaser.WEBGL, auto: Phaser.AUTO };
const renderer = RENDERERS[params.get("renderer") ?? "canvas"] ?? Phaser.CANVAS;
const inPage = params.get("engine") === "in-page" ? startInPage(params) : null;

let game: Phaser.Game;
const hud = new Hud(document.getElementById("bar")!, document.getElementById("hud")!, {
  command: (text) => void hub.command(text),
  switchScene: (key) => hub.switchScene(key),
});
const hub = new ArenaHub(hud, (key, from) => {
  if (from === key) return;
  if (from) game.scene.stop(from);
  game.scene.start(key);
});

const scenes = { arena: ArenaScene, pong: PongScene, flappy: FlappyScene };
const order = [firstScene, ...(Object.keys(SCENE_TITLES) as SceneKey[]).filter((key) => key !== firstScene)];

game = new Phaser.Game({
  type: renderer,
  parent: "stage",
  width: WIDTH,
  height: HEIGHT,
  backgroundColor: NEON.background,
  scale: { mode: Phaser.Scale.FIT, autoCenter: Phaser.Scale.CENTER_HORIZONTALLY },
  // Only the first listed scene starts; the others wait for the menu.
  scene: order.map((key) => scenes[key]),
  plugins: { scene: [{ key: "rtool", plugin: RtoolPlugin, mapping: "rtool" }] },
  callbacks: {
    preBoot: (booting) => {
      booting.registry.set(RTOOL_OPTIONS_KEY, {
        serverUrl,
        stream: true,
        engine: inPage?.engine ?? "server",
      });
      booting.registry.set(HUB_KEY, hub);
    },
  },
});

window.rtoolArena = { state: () => hub.state(), ...(inPage ? { inPage: inPage.status } : {}) };
