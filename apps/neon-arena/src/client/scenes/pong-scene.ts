/**
 * Pong: the model flies the right paddle with `move_paddle` at 16 Hz from the ball's position
 * and velocity; the left paddle is a scripted opponent. The field is the Pong world's 800x600,
 * centred on the canvas.
 */
import type { RtoolPlugin } from "@rtool/phaser-plugin";
import { createPong, type PongWorld } from "@rtool/sim";
import Phaser from "phaser";
import { css, glowCircle, glowLine, glowRect, NEON } from "../neon";
import { hubOf, registerWorldTools, WIDTH } from "./scene-kit";

const FIELD_X = (WIDTH - 800) / 2;

export class PongScene extends Phaser.Scene {
  declare rtool: RtoolPlugin;
  private pong!: PongWorld;
  private g!: Phaser.GameObjects.Graphics;
  private scoreText!: Phaser.GameObjects.Text;
  private calls: Record<string, number> = {};
  /** Model calls that pointed the paddle toward the ball's row (or held it when level with it). */
  private towardBall = 0;

  constructor() {
    super("pong");
  }

  create(): void {
    this.pong = createPong({ seed: 3 });
    this.calls = {};
    this.towardBall = 0;
    this.g = this.add.graphics();
    this.scoreText = this.add
      .text(WIDTH / 2, 16, "", { fontFamily: "monospace", fontSize: "22px", color: css(NEON.white) })
      .setOrigin(0.5, 0);
    registerWorldTools(this.rtool, this.pong.tools, "default", (call) => {
      const before = this.pong.state();
      const result = this.pong.apply(call);
      if (result.ok) {
        const direction = String(call.args.direction);
        this.calls[direction] = (this.calls[direction] ?? 0) + 1;
        const dy = before.ball.y - before.paddles.right.y;
        const wanted = Math.abs(dy) < 20 ? "stay" : dy < 0 ? "up" : "down";
        if (direction === wanted) this.towardBall += 1;
      }
      return result;
    });
    this.rtool.agent({
      name: "paddle",
      rateHz: 16,
      system: this.pong.system,
      query: "Move the paddle.",
      environment: () => this.pong.environment(),
      history: false,
    });
    const hub = hubOf(this);
    const binding = {
      key: "pong" as const,
      rtool: this.rtool,
      hint: "The right paddle is the model's (move_paddle at 16 Hz). Watch it track the ball.",
      targetHz: { paddle: 16 },
      snapshot: () => ({ ...this.pong.state(), modelCalls: { ...this.calls }, towardBall: this.towardBall }),
    };
    hub.attach(binding);
    this.events.once(Phaser.Scenes.Events.SHUTDOWN, () => hub.detach(binding));
  }

  override update(_time: number, deltaMs: number): void {
    this.pong.step(Math.min(deltaMs / 1000, 0.1));
    const state = this.pong.state();
    const g = this.g;
    g.clear();
    glowRect(g, FIELD_X, 0, state.width, state.height, NEON.cyan);
    for (let y = 10; y < state.height; y += 30)
      glowLine(g, FIELD_X + state.width / 2, y, FIELD_X + state.width / 2, y + 14, NEON.grid, 0.5);
    const half = state.paddleHeight / 2;
    const { left, right } = state.paddles;
    glowLine(g, FIELD_X + left.x, left.y - half, FIELD_X + left.x, left.y + half, NEON.cyan, 1.6);
    glowLine(g, FIELD_X + right.x, right.y - half, FIELD_X + right.x, right.y + half, NEON.magenta, 1.6);
    glowCircle(g, FIELD_X + state.ball.x, state.ball.y, 8, NEON.yellow);
    this.scoreText.setText(`${state.score.left}   :   ${state.score.right}  model`);
  }
}
