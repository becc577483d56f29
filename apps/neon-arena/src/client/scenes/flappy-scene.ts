/**
 * Flappy Bird from typed or spoken commands: "tap", "jump", "fly up" should become `flap`,
 * anything else `wait`. The world runs at 0.4x speed so a typed or spoken order can arrive in
 * time, and restarts itself shortly after a crash.
 */
import type { RtoolPlugin } from "@rtool/phaser-plugin";
import { createFlappy, type FlappyWorld } from "@rtool/sim";
import Phaser from "phaser";
import { css, glowCircle, glowRect, NEON } from "../neon";
import { hubOf, registerWorldTools, WIDTH } from "./scene-kit";

const SLOW_MOTION = 0.4;
const RESTART_AFTER_S = 1.5;
const FIELD_W = 800;
const FIELD_X = (WIDTH - FIELD_W) / 2;
const PIPE_WIDTH = 60;

export class FlappyScene extends Phaser.Scene {
  declare rtool: RtoolPlugin;
  private flappy!: FlappyWorld;
  private g!: Phaser.GameObjects.Graphics;
  private text!: Phaser.GameObjects.Text;
  private crashedFor = 0;
  private best = 0;

  constructor() {
    super("flappy");
  }

  create(): void {
    this.flappy = createFlappy({ seed: 5 });
    this.crashedFor = 0;
    this.g = this.add.graphics();
    this.text = this.add.text(FIELD_X + 12, 10, "", {
      fontFamily: "monospace",
      fontSize: "16px",
      color: css(NEON.white),
    });
    registerWorldTools(this.rtool, this.flappy.tools, "default", (call) => this.flappy.apply(call));
    this.rtool.agent({
      name: "bird",
      rateHz: 0,
      system: this.flappy.system,
      environment: () => this.flappy.environment(),
      history: () => this.flappy.history().slice(-6),
    });
    const hub = hubOf(this);
    const binding = {
      key: "flappy" as const,
      rtool: this.rtool,
      hint: "Type (or say) “tap”, “jump”, “flap!” to flap; “wait”, “hold on” to wait. Slow motion 0.4x.",
      targetHz: { bird: 0 },
      snapshot: () => ({ ...this.flappy.state(), history: this.flappy.history(), best: this.best }),
    };
    hub.attach(binding);
    this.events.once(Phaser.Scenes.Events.SHUTDOWN, () => hub.detach(binding));
  }

  override update(_time: number, deltaMs: number): void {
    const dt = Math.min(deltaMs / 1000, 0.1);
    this.flappy.step(dt * SLOW_MOTION);
    const state = this.flappy.state();
    this.best = Math.max(this.best, state.score);
    if (state.over) {
      this.crashedFor += dt;
      if (this.crashedFor >= RESTART_AFTER_S) {
        this.flappy.restart();
        this.crashedFor = 0;
      }
    }
    const g = this.g;
    g.clear();
    glowRect(g, FIELD_X, 0, FIELD_W, state.height, NEON.violet);
    const half = state.gapHeight / 2;
    for (const pipe of state.pipes) {
      // Pipes scroll in from beyond the field's right edge: draw only the part inside it.
      const left = Math.max(0, pipe.x);
      const right = Math.min(FIELD_W, pipe.x + PIPE_WIDTH);
      if (right - left < 2) continue;
      glowRect(g, FIELD_X + left, 0, right - left, pipe.gapY - half, NEON.green);
      glowRect(
        g,
        FIELD_X + left,
        pipe.gapY + half,
        right - left,
        state.height - pipe.gapY - half,
        NEON.green,
      );
    }
    glowCircle(g, FIELD_X + state.bird.x, state.bird.y, 12, state.over ? NEON.red : NEON.yellow);
    this.text.setText(`score ${state.score}  best ${this.best}${state.over ? "  CRASH" : ""}`);
  }
}
