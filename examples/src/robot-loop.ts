/**
 * A robot loop: the simulated arm of @rtool/sim is driven through a running rtool-server, one
 * spoken command per step. Each request carries the world as it is now (environment lines) and
 * the calls it accepted so far (history); the world applies the call, or refuses it with a typed
 * reason, and its clock moves on so the move finishes before the next command.
 * The embedded rt-tiny carries the gear through all six commands to the tray; the loop
 * still prints what each call did rather than assuming success, as a loop over any model must.
 * Run: `bun src/robot-loop.ts` (RTOOL_URL overrides http://127.0.0.1:8899).
 */
// README:robot-loop
import { type FunctionTool, RtoolClient } from "@rtool/client";
import { createArm } from "@rtool/sim";

const arm = createArm(); // home (0,0,500), a medium red gear at (300,150,50), a tray at (600,0,80)
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

for (const command of [
  "Go to the red gear slowly",
  "Grab it, it's a medium part",
  "Lift it straight up to x 300 y 150 z 250",
  "Now carry it to the tray",
  "Release it",
  "Go back home",
]) {
  const reply = await rtool.functionCall({
    system: arm.system,
    tools,
    environment: arm.environment(),
    history: arm.history(),
    query: command,
  });
  // No call (the model chose none) and a refused call (unreachable, collision, nothing to grip...)
  // both leave the world as it was; the next command sees the same state.
  const outcome = reply.function
    ? arm.apply({ function: reply.function, args: reply.args })
    : { ok: false as const, reason: reply.error ?? "no call" };
  arm.step(10); // ten simulated seconds: any move has finished before the next command
  const call = `${reply.function}(${JSON.stringify(reply.args)})`;
  console.log(`${command} -> ${call} ${outcome.ok ? "ok" : `refused: ${outcome.reason}`}`);
}
console.log(arm.environment().join("\n")); // where the arm and the gear ended up
// README:end
