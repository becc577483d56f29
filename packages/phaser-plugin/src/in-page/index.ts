/**
 * `@rtool/phaser-plugin/in-page`: rt-tiny (or another small model) running in the page, no
 * server. The page side is {@link inPageEngine}, passed to the plugin as its `engine`; the
 * worker side is {@link serveInPageWorker}, called from the game's worker script with
 * `@rtool/core/browser` (an optional peer dependency, with onnxruntime-web: a server-only game
 * installs neither).
 * @packageDocumentation
 */
export { type InPageEngine, type InPageEngineOptions, inPageEngine, type WorkerLike } from "./in-page-engine";
export type {
  CoreCaller,
  CoreCallerOptions,
  FromWorker,
  InPageCore,
  InPageLoadTimings,
  InPageModelOptions,
  InPageThreads,
  ToWorker,
} from "./protocol";
export { serveInPageWorker, type WorkerScope } from "./worker-host";
