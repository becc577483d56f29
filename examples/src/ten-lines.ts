/**
 * The root README's "Ten lines: tools in, actions out", exactly as printed there (a test keeps the
 * two equal): zod tools, the embedded model served in-process on a free port of 127.0.0.1, one
 * command in, one executed call out. Run: `bun src/ten-lines.ts`.
 */
// biome-ignore-all format: the README prints these as its "ten lines", one statement a line
// README:ten-lines

import { RtoolClient } from "@rtool/client";
import { defineTool, ToolExecutor, ToolRegistry } from "@rtool/core";
import { createServer, loadCallers, resolveModelDir } from "@rtool/server";
import { z } from "zod";

const move = defineTool({ name: "move", description: "Move the ship one step.", parameters: z.object({ direction: z.enum(["up", "down", "left", "right"]) }), handler: ({ direction }) => `moving ${direction}` });
const fire = defineTool({ name: "fire", description: "Fire the main gun.", parameters: z.object({}), handler: () => "fire!" });
const tools = new ToolRegistry([move, fire]);
const server = createServer({ model: loadCallers(await resolveModelDir("rt-tiny")), modelName: "rt-tiny", port: 0 });
const rtool = new RtoolClient({ baseUrl: (await server.listen()).url });
await rtool.waitUntilReady({ timeoutMs: 120_000 });
const reply = await rtool.functionCall({ query: "ship, go up!", tools: tools.tools() });
console.log(await new ToolExecutor(tools).execute(reply)); // { ok: true, status: "ok", tool: "move", args: { direction: "up" }, value: "moving up", ... }
await server.close();
// README:end
