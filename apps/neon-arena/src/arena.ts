#!/usr/bin/env bun
/**
 * `bun run arena`: starts rtool-server with the embedded model (rt-tiny) and the Neon Arena app,
 * both on 127.0.0.1, and prints the URL to open. Offline: nothing is downloaded.
 *
 *   bun run arena [--port 5173] [--rtool-port 8899] [--model rt-tiny|DIR] [--server URL] [--in-page]
 *
 * `--server URL` uses an rtool-server that is already running instead of starting one.
 * `--in-page` starts no rtool-server: the page runs rt-tiny itself (onnxruntime-web in a worker).
 */
import { parseArgs } from "node:util";
import { startArenaApp } from "./server/app-server";
import { type RtoolProcess, startRtoolServer } from "./server/rtool-process";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    port: { type: "string", default: "5173" },
    "rtool-port": { type: "string", default: "8899" },
    model: { type: "string", default: "rt-tiny" },
    server: { type: "string" },
    "in-page": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  console.log(
    "usage: bun run arena [--port 5173] [--rtool-port 8899] [--model rt-tiny|DIR] [--server URL] [--in-page]",
  );
  process.exit(0);
}

let rtool: RtoolProcess | null = null;
let rtoolUrl = values.server;
if (values["in-page"]) {
  const app = await startArenaApp({ port: Number(values.port) });
  console.log(
    `\nNeon Arena: ${app.url}?engine=in-page   (rt-tiny runs in the page: no rtool-server)\n` +
      `Pong:       ${app.url}?engine=in-page&scene=pong\n` +
      `Flappy:     ${app.url}?engine=in-page&scene=flappy\n`,
  );
  const stop = async () => {
    await app.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} else {
  await startWithServer();
}

async function startWithServer(): Promise<void> {
  if (!rtoolUrl) {
    console.log(`starting rtool-server with ${values.model} …`);
    rtool = await startRtoolServer({
      model: values.model,
      port: Number(values["rtool-port"]),
      onOutput: (line) => console.log(`  [rtool-server] ${line}`),
    });
    rtoolUrl = rtool.url;
  }
  const app = await startArenaApp({ rtoolUrl, port: Number(values.port) });
  console.log(`\nNeon Arena: ${app.url}   (rtool-server: ${rtoolUrl})\n`);
  if (rtool) {
    rtool.ready().then(
      () => console.log("model loaded: the enemy ships are live"),
      (error) => console.error(String(error)),
    );
  }

  const shutdown = async () => {
    await app.stop();
    await rtool?.stop();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
