/**
 * The plugin's client against a real rtool-server (started through its bin, serving the core
 * package's small random-weight fixture model) behind the app server's `/rtool` forwarding:
 * the wire format (JSON and SSE heads), validation against the registered schema, and the
 * offline status when the server goes away. Random weights still give valid calls: decoding is
 * constrained to the request's tools and enums.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { AgentClient, type CallEvent, type HeadEvent } from "@rtool/phaser-plugin/headless";
import { closedPortUrl } from "../../../packages/phaser-plugin/test/chromium";
import { type ArenaApp, startArenaApp } from "../src/server/app-server";
import { type RtoolProcess, startRtoolServer } from "../src/server/rtool-process";

const deadUrl = closedPortUrl();

const FIXTURE_MODEL = join(
  import.meta.dir,
  "..",
  "..",
  "..",
  "packages",
  "core",
  "test",
  "fixtures",
  "qwen3-tied",
);
const paddleTool = {
  type: "function" as const,
  function: {
    name: "move_paddle",
    description: "Move the paddle.",
    parameters: {
      type: "object" as const,
      properties: { direction: { type: "string" as const, enum: ["up", "down", "stay"] } },
      required: ["direction"],
    },
  },
};

let rtool: RtoolProcess;
let app: ArenaApp;

beforeAll(async () => {
  rtool = await startRtoolServer({
    model: FIXTURE_MODEL,
    port: 0,
    args: ["--threads", "1", "--concurrency", "2"],
  });
  await rtool.ready(120_000);
  app = await startArenaApp({ rtoolUrl: rtool.url, port: 0 });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await rtool?.stop();
}, 30_000);

test("an agent's loop gets streamed heads and validated calls from the real server through /rtool", async () => {
  const client = new AgentClient({ serverUrl: `${app.url}rtool`, stream: true });
  const directions: string[] = [];
  const calls: CallEvent[] = [];
  const heads: HeadEvent[] = [];
  client.tool(paddleTool, ({ direction }) => {
    directions.push(direction as string);
  });
  client.on("call", (event) => calls.push(event));
  client.on("head", (event) => heads.push(event));
  client.agent({
    name: "paddle",
    rateHz: 16,
    query: "Move the paddle.",
    environment: () => ["ball=400,120", "paddle_y=300"],
  });
  const deadline = Date.now() + 60_000;
  while (calls.length < 3 && Date.now() < deadline) {
    client.update();
    await Bun.sleep(10);
  }
  client.destroy();
  expect(calls.length).toBeGreaterThanOrEqual(3);
  expect(client.status).toBe("online");
  for (const direction of directions) expect(["up", "down", "stay"]).toContain(direction);
  expect(calls[0]!.heads.function).toBe("move_paddle");
  expect(heads.some((head) => head.head === "function" && head.text === "move_paddle")).toBe(true);
  expect(calls[0]!.serverLatencyMs).toBeGreaterThan(0);
}, 90_000);

test("a player command through the real server resolves with the typed call its handler ran", async () => {
  const client = new AgentClient({ serverUrl: `${app.url}rtool` });
  const ran: string[] = [];
  client.tool(paddleTool, ({ direction }) => {
    ran.push(direction as string);
  });
  const outcome = await client.command("Move the paddle.");
  client.destroy();
  expect(outcome).toMatchObject({ ok: true, function: "move_paddle" });
  if (!outcome.ok) throw new Error(outcome.reason);
  expect(ran).toEqual([outcome.args.direction as string]);
}, 60_000);

test("when the server is gone, the client goes offline and backs off instead of spinning", async () => {
  const client = new AgentClient({
    serverUrl: deadUrl,
    backoff: { initialMs: 200, jitter: 0 },
  });
  client.tool(paddleTool, () => {});
  client.agent({ name: "paddle", rateHz: 16 });
  let errors = 0;
  client.on("error", () => {
    errors += 1;
  });
  const started = Date.now();
  while (Date.now() - started < 1000) {
    client.update();
    await Bun.sleep(16);
  }
  client.destroy();
  expect(client.status).toBe("offline");
  // 200, 400, 800 ms delays: at most a handful of attempts in a second, not 16.
  expect(errors).toBeGreaterThanOrEqual(2);
  expect(errors).toBeLessThanOrEqual(4);
});
