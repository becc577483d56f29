/**
 * The page the plugin's browser test loads: one Phaser game with RtoolPlugin as a scene plugin
 * (`this.rtool`) and RtoolGlobalPlugin as a global one (`this.rtoolGlobal`), each with a tool and
 * a 16 Hz agent against the test's server. What the handlers saw is published on
 * `window.pluginResults`.
 */
import Phaser from "phaser";
import { RtoolGlobalPlugin, RtoolPlugin } from "../src/index";

interface Results {
  scene: string[];
  global: string[];
  rejected: string[];
  heads: string[];
  status: string[];
}

declare global {
  interface Window {
    pluginResults: Results;
  }
}

const results: Results = { scene: [], global: [], rejected: [], heads: [], status: [] };
window.pluginResults = results;
const serverUrl = new URLSearchParams(location.search).get("server")!;

const step = {
  name: "step",
  parameters: {
    type: "object" as const,
    properties: { direction: { type: "string" as const, enum: ["left", "right"] } },
    required: ["direction"],
  },
};

class TestScene extends Phaser.Scene {
  declare rtool: RtoolPlugin;
  declare rtoolGlobal: RtoolGlobalPlugin;

  constructor() {
    super("test");
  }

  create(): void {
    this.rtool.connect({ serverUrl, stream: true });
    this.rtool.tool(step, ({ direction }) => {
      results.scene.push(String(direction));
    });
    this.rtool.agent({ name: "walker", rateHz: 16, environment: () => ["x=1"] });
    this.rtool.on("rejected", (event) => results.rejected.push(`${event.code}:${event.function}`));
    this.rtool.on("head", (event) => results.heads.push(event.head));
    this.rtool.on("status", (event) => results.status.push(event.status));

    this.rtoolGlobal.tool(step, ({ direction }) => {
      results.global.push(String(direction));
    });
    this.rtoolGlobal.agent({ name: "global-walker", rateHz: 16 });
  }
}

new Phaser.Game({
  type: Phaser.CANVAS,
  width: 320,
  height: 200,
  scene: [TestScene],
  plugins: {
    scene: [{ key: "rtool", plugin: RtoolPlugin, mapping: "rtool" }],
    global: [
      {
        key: "rtoolGlobal",
        plugin: RtoolGlobalPlugin,
        start: true,
        mapping: "rtoolGlobal",
        data: { serverUrl },
      },
    ],
  },
});
