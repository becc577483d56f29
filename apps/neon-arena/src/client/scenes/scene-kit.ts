/**
 * What every scene of the app shares: the hub lookup, registering a sim world's tools with the
 * plugin (each tool's handler applies the call to the world, so world rules refuse what they
 * must and the refusal comes back as a `rejected` event), and the canvas size.
 */
import type { RtoolPlugin } from "@rtool/phaser-plugin";
import type { ApplyResult, ScenarioTool, ToolCall } from "@rtool/sim";
import type Phaser from "phaser";
import type { ArenaHub } from "../arena-hub";

export const WIDTH = 1200;
export const HEIGHT = 600;
export const HUB_KEY = "arena.hub";

/** The hub the page created. */
export function hubOf(scene: Phaser.Scene): ArenaHub {
  return scene.registry.get(HUB_KEY) as ArenaHub;
}

/**
 * Registers `tools` under `scope`; a call runs as `apply(call, agentName)` and the world's
 * rejection (a rule said no) becomes the handler's refusal.
 */
export function registerWorldTools(
  rtool: RtoolPlugin,
  tools: readonly ScenarioTool[],
  scope: string,
  apply: (call: ToolCall, agent: string) => ApplyResult,
): void {
  for (const tool of tools) {
    const name = tool.function.name;
    rtool.tool(
      tool,
      (args, context) => {
        const result = apply({ function: name, args }, context.agent);
        return result.ok ? true : { ok: false, code: result.code, reason: result.reason };
      },
      { scope },
    );
  }
}
