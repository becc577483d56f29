/**
 * The in-page engine's Web Worker (bundled as `/in-page-worker.js`): rt-tiny on onnxruntime-web,
 * off the game's thread.
 */
import * as core from "@rtool/core/browser";
import { serveInPageWorker, type WorkerScope } from "@rtool/phaser-plugin/in-page";

serveInPageWorker(self as unknown as WorkerScope, core);
