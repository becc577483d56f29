/**
 * Neon drawing on Phaser Graphics: a glow is the same stroke drawn a few times, wide and faint
 * first, thin and bright last, which reads as light on a dark background in both the WebGL and
 * the Canvas renderer, with no shaders and no assets.
 */
import type Phaser from "phaser";

/** The palette, as 0xRRGGBB numbers for Graphics and as CSS strings for text. */
export const NEON = {
  background: 0x05060f,
  grid: 0x1b1f4a,
  cyan: 0x23f0ff,
  magenta: 0xff2bd6,
  yellow: 0xffe45e,
  green: 0x4dff91,
  red: 0xff4d6d,
  violet: 0x9b6bff,
  white: 0xe8f1ff,
} as const;

/** CSS form of a palette colour. */
export function css(color: number): string {
  return `#${color.toString(16).padStart(6, "0")}`;
}

const GLOW_PASSES: ReadonlyArray<{ width: number; alpha: number }> = [
  { width: 9, alpha: 0.08 },
  { width: 5, alpha: 0.18 },
  { width: 2, alpha: 1 },
];

/** A glowing polyline (closed when `closed`). */
export function glowPath(
  g: Phaser.GameObjects.Graphics,
  points: ReadonlyArray<{ x: number; y: number }>,
  color: number,
  closed = false,
  scale = 1,
): void {
  if (points.length < 2) return;
  for (const pass of GLOW_PASSES) {
    g.lineStyle(pass.width * scale, color, pass.alpha);
    g.beginPath();
    g.moveTo(points[0]!.x, points[0]!.y);
    for (const p of points.slice(1)) g.lineTo(p.x, p.y);
    if (closed) g.closePath();
    g.strokePath();
  }
}

/** A glowing line segment. */
export function glowLine(
  g: Phaser.GameObjects.Graphics,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  color: number,
  scale = 1,
): void {
  glowPath(
    g,
    [
      { x: x1, y: y1 },
      { x: x2, y: y2 },
    ],
    color,
    false,
    scale,
  );
}

/** A glowing circle outline. */
export function glowCircle(
  g: Phaser.GameObjects.Graphics,
  x: number,
  y: number,
  r: number,
  color: number,
): void {
  for (const pass of GLOW_PASSES) {
    g.lineStyle(pass.width, color, pass.alpha);
    g.strokeCircle(x, y, r);
  }
}

/** A glowing rectangle outline. */
export function glowRect(
  g: Phaser.GameObjects.Graphics,
  x: number,
  y: number,
  w: number,
  h: number,
  color: number,
): void {
  for (const pass of GLOW_PASSES) {
    g.lineStyle(pass.width, color, pass.alpha);
    g.strokeRect(x, y, w, h);
  }
}

/** A horizontal gauge: a dim track and a bright fill of `fraction` (0..1). */
export function gauge(
  g: Phaser.GameObjects.Graphics,
  x: number,
  y: number,
  w: number,
  h: number,
  fraction: number,
  color: number,
): void {
  g.fillStyle(color, 0.15);
  g.fillRect(x, y, w, h);
  g.fillStyle(color, 0.9);
  g.fillRect(x, y, Math.max(0, Math.min(1, fraction)) * w, h);
}

/** A faint grid over an area, the arena floor. */
export function grid(
  g: Phaser.GameObjects.Graphics,
  x: number,
  y: number,
  w: number,
  h: number,
  step: number,
): void {
  g.lineStyle(1, NEON.grid, 0.7);
  for (let gx = x; gx <= x + w + 0.5; gx += step) g.lineBetween(gx, y, gx, y + h);
  for (let gy = y; gy <= y + h + 0.5; gy += step) g.lineBetween(x, gy, x + w, gy);
}
