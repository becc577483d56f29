/**
 * Calls a running rtool-server (`bunx rtool-server`, default http://127.0.0.1:8899; RTOOL_URL
 * overrides it) with the robot-arm scenario's first worked example and prints the call.
 * Run: `bun src/call-server.ts`. The quick start in the root README is this file's marked part.
 */
// README:call-server
import { type FunctionTool, RtoolClient } from "@rtool/client";
import { scenarios } from "@rtool/sim";

// The robot-arm scenario: its v2 system prompt, OpenAI-style tools and worked examples.
const arm = scenarios.robotic_arm;
// The same JSON: a scenario's tools are the call contract's function tools, as the server takes them.
const tools: readonly FunctionTool[] = arm.tools;
const url = process.env.RTOOL_URL ?? "http://127.0.0.1:8899";
const rtool = new RtoolClient({ baseUrl: url, timeoutMs: 60_000 });
// The server answers /health as soon as it listens: no answer at all means no server, not a slow one.
if ((await rtool.health().catch(() => null)) === null) {
  console.error(`No rtool-server answers at ${url}; start one with \`bunx rtool-server\`.`);
  process.exit(1);
}
await rtool.waitUntilReady({ timeoutMs: 120_000 }); // call routes answer 503 while the model loads
const reply = await rtool.functionCall({
  system: arm.system,
  tools,
  environment: ["Arm at home (0,0,500), gripper open", "Part: red gear at (300,150,50), tray at (600,0,80)"],
  query: "Go to the red gear slowly",
});
console.log(reply.function, reply.args); // move_to { x: 300, y: 150, z: 50, speed: "slow" }
// README:end
