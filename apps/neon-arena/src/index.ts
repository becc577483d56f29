/**
 * @rtool/neon-arena: the Neon Arena app (with Pong and Flappy Bird), built on
 * @rtool/phaser-plugin. This entry is the server side: build the bundle and serve the app.
 * @packageDocumentation
 */
export {
  type ArenaApp,
  type ArenaAppOptions,
  BundleError,
  buildArenaBundle,
  startArenaApp,
} from "./server/app-server";
export { arenaPage } from "./server/page";
