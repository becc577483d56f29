/**
 * Flappy Bird, stepped in fixed 60 Hz frames: the bird falls under gravity, `flap` gives it an
 * upward kick, pipes scroll toward it with a gap to fly through. The tools are flappy_bird.json's.
 *
 * Rules: after a crash (a pipe or the ground) both tools are `game_over` until `restart()`;
 * `flap` with the bird pressed against the ceiling is `at_bound`; `wait` otherwise always
 * succeeds. The ceiling stops the bird; it does not end the game.
 *
 * Environment: `bird_y` (the bird's centre), `gap_y` (the centre of the next pipe's gap) and
 * `next_pipe_x` (how far ahead of the bird that pipe's front edge is, in pixels).
 */
import { dispatchCall } from "./call-dispatch";
import { createPrng } from "./prng";
import { frameClock, scenarioWorld } from "./scenario-world";
import { scenarioTools } from "./scenarios";
import { type ApplyResult, accept, reject, type ToolCall, type World, type WorldEvent } from "./world";

const FRAME_S = 1 / 60;
const GRAVITY = 0.5;
const FLAP_VY = -8;
const MAX_FALL_VY = 12;
const BIRD_X = 100;
const BIRD_RADIUS = 12;
const PIPE_WIDTH = 60;
const PIPE_SPACING = 250;
const SCROLL_PX = 3;

export interface Pipe {
  /** The pipe's front (left) edge. */
  x: number;
  /** The centre of its gap. */
  gapY: number;
}

export interface FlappyOptions {
  height?: number;
  birdY?: number;
  /** Initial vertical speed in pixels per frame (down is positive). */
  birdVy?: number;
  /** The first pipes; more are generated from the seed as these scroll by. */
  pipes?: Pipe[];
  gapHeight?: number;
  seed?: number;
}

export interface FlappyState {
  t: number;
  frame: number;
  height: number;
  bird: { x: number; y: number; vy: number };
  pipes: Pipe[];
  gapHeight: number;
  score: number;
  over: boolean;
}

export interface FlappyWorld extends World<FlappyState> {
  /** Starts a new round with the initial options; the history is kept. */
  restart(): void;
}

/**
 * Creates a Flappy Bird world.
 *
 * @example
 * const game = createFlappy({ birdY: 320, pipes: [{ x: 220, gapY: 250 }] });
 * game.environment(); // ["bird_y=320", "gap_y=250", "next_pipe_x=120"]
 * game.apply({ function: "flap", args: {} });
 * game.step(0.25);
 */
export function createFlappy(options: FlappyOptions = {}): FlappyWorld {
  const tools = scenarioTools("flappy_bird");
  const height = options.height ?? 600;
  const gapHeight = options.gapHeight ?? 160;
  const calls: string[] = [];
  let rng = createPrng(options.seed ?? 1);
  let frame = 0;
  const clock = frameClock(FRAME_S);
  let bird = { x: BIRD_X, y: 0, vy: 0 };
  let pipes: Pipe[] = [];
  let score = 0;
  let over = false;

  const time = () => frame * FRAME_S;
  const event = (type: string, detail?: Record<string, unknown>): WorldEvent =>
    detail ? { t: time(), type, detail } : { t: time(), type };
  const randomGap = () => rng.int(Math.ceil(gapHeight / 2 + 60), Math.floor(height - gapHeight / 2 - 60));

  function reset(): void {
    rng = createPrng(options.seed ?? 1);
    frame = 0;
    clock.reset();
    bird = { x: BIRD_X, y: options.birdY ?? height / 2, vy: options.birdVy ?? 0 };
    pipes = (options.pipes ?? [{ x: BIRD_X + 300, gapY: randomGap() }]).map((pipe) => ({ ...pipe }));
    score = 0;
    over = false;
    fillPipes();
  }

  function fillPipes(): void {
    while (pipes[pipes.length - 1].x < BIRD_X + 3 * PIPE_SPACING) {
      pipes.push({ x: pipes[pipes.length - 1].x + PIPE_SPACING, gapY: randomGap() });
    }
  }

  const nextPipe = (): Pipe => pipes.find((pipe) => pipe.x + PIPE_WIDTH >= bird.x - BIRD_RADIUS) as Pipe;
  const ended = (): ApplyResult | null =>
    over ? reject("game_over", "the bird crashed; restart first") : null;

  const handlers = {
    flap(): ApplyResult {
      const refused = ended();
      if (refused) return refused;
      if (bird.y - BIRD_RADIUS <= 0) return reject("at_bound", "the bird is already against the ceiling");
      bird.vy = FLAP_VY;
      return accept([event("flapped")]);
    },
    wait(): ApplyResult {
      return ended() ?? accept([]);
    },
  };

  function runFrame(out: WorldEvent[]): void {
    frame += 1;
    bird.vy = Math.min(MAX_FALL_VY, bird.vy + GRAVITY);
    bird.y += bird.vy;
    if (bird.y - BIRD_RADIUS < 0) {
      bird.y = BIRD_RADIUS;
      bird.vy = 0;
    }
    for (const pipe of pipes) {
      const wasAhead = pipe.x + PIPE_WIDTH >= bird.x;
      pipe.x -= SCROLL_PX;
      if (wasAhead && pipe.x + PIPE_WIDTH < bird.x) {
        score += 1;
        out.push(event("passed_pipe", { score }));
      }
    }
    pipes = pipes.filter((pipe) => pipe.x + PIPE_WIDTH > 0);
    fillPipes();
    const inPipe = pipes.find(
      (pipe) =>
        bird.x + BIRD_RADIUS > pipe.x &&
        bird.x - BIRD_RADIUS < pipe.x + PIPE_WIDTH &&
        Math.abs(bird.y - pipe.gapY) > gapHeight / 2 - BIRD_RADIUS,
    );
    if (inPipe || bird.y + BIRD_RADIUS >= height) {
      over = true;
      out.push(event("crashed", { into: inPipe ? "pipe" : "ground", score }));
    }
  }

  const environment = () => {
    const pipe = nextPipe();
    return [
      `bird_y=${Math.round(bird.y)}`,
      `gap_y=${Math.round(pipe.gapY)}`,
      `next_pipe_x=${Math.round(pipe.x - bird.x)}`,
    ];
  };

  reset();
  /** Runs the whole frames in `dtSeconds` (the remainder carries over to the next step). */
  function advance(dtSeconds: number): WorldEvent[] {
    const out: WorldEvent[] = [];
    const frames = clock.frames(dtSeconds);
    for (let i = 0; i < frames && !over; i++) runFrame(out);
    return out;
  }

  return {
    ...scenarioWorld("flappy_bird", tools, environment, advance),
    apply: (call: ToolCall) => dispatchCall(tools, handlers, call, calls),
    history: () => [...calls],
    state: (): FlappyState => ({
      t: time(),
      frame,
      height,
      bird: { ...bird },
      pipes: pipes.map((pipe) => ({ ...pipe })),
      gapHeight,
      score,
      over,
    }),
    restart: reset,
  };
}
