/**
 * A Phaser scene driven by rtool: the right paddle of a Pong table is a tool (`move_paddle`), and an
 * agent asks the server 16 times a second where to move it, with the table's state as environment
 * lines in the pong scenario's style. `bun run build:scene` bundles it for the browser into
 * dist/phaser-scene.js (a test does the same); load that from a page with
 * `<script type="module" src="phaser-scene.js">`. A page served from another origin than the
 * server's (say http://localhost:5173) needs `bunx rtool-server --cors http://localhost:5173`.
 */
// README:phaser-scene
import { type AgentToolDefinition, RtoolPlugin } from "@rtool/phaser-plugin";
import Phaser from "phaser";

const movePaddle: AgentToolDefinition = {
  name: "move_paddle",
  description: "Move the paddle.",
  parameters: {
    type: "object",
    properties: {
      direction: { type: "string", description: "up, down or stay.", enum: ["up", "down", "stay"] },
    },
    required: ["direction"],
  },
};

class Pong extends Phaser.Scene {
  declare rtool: RtoolPlugin; // installed by the scene plugin below
  ball!: Phaser.GameObjects.Arc;
  paddle!: Phaser.GameObjects.Rectangle;
  velocity = { x: 6, y: -2 }; // px per frame, as the pong scenario counts
  direction = "stay";

  create() {
    this.ball = this.add.circle(400, 120, 8, 0xffffff);
    this.paddle = this.add.rectangle(780, 300, 12, 90, 0x00e5ff);
    this.rtool.connect({ serverUrl: "http://127.0.0.1:8899" });
    // Arguments are checked against the schema before the handler runs; a bad call never moves it.
    this.rtool.tool(movePaddle, (args) => {
      this.direction = String(args.direction);
    });
    this.rtool.agent({
      name: "paddle",
      system:
        "You control the right paddle in Pong. Each turn, move the paddle toward where the ball will arrive.",
      query: "Move the paddle.",
      rateHz: 16,
      environment: () => [
        `ball=${Math.round(this.ball.x)},${Math.round(this.ball.y)}`,
        `vel=${this.velocity.x},${this.velocity.y}`,
        `paddle_y=${Math.round(this.paddle.y)}`,
        `height=${this.scale.height}`,
      ],
    });
  }

  override update() {
    const step = { up: -6, down: 6, stay: 0 }[this.direction] ?? 0;
    this.paddle.y = Phaser.Math.Clamp(this.paddle.y + step, 45, this.scale.height - 45);
    this.ball.x += this.velocity.x;
    this.ball.y += this.velocity.y;
    if (this.ball.y < 8 || this.ball.y > this.scale.height - 8) this.velocity.y *= -1;
    const hit = this.ball.x > 770 && Math.abs(this.ball.y - this.paddle.y) < 50;
    if (this.ball.x < 8 || hit) this.velocity.x *= -1;
    if (this.ball.x > 800) this.ball.setPosition(400, 300); // missed: serve again
  }
}

new Phaser.Game({
  width: 800,
  height: 600,
  scene: [Pong],
  plugins: { scene: [{ key: "rtool", plugin: RtoolPlugin, mapping: "rtool" }] },
});
// README:end
