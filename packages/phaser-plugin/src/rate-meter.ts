/**
 * Achieved rate over a sliding window: how many replies per second an agent really gets, which
 * is what a HUD should show next to the rate it asked for.
 */

/**
 * @example
 * const meter = new RateMeter(2000);
 * meter.mark(0); meter.mark(500); meter.mark(1000);
 * meter.hz(1000); // 1.5: three marks in the last 2 s
 */
export class RateMeter {
  private readonly marks: number[] = [];

  constructor(private readonly windowMs = 2000) {}

  /** Records one event at `nowMs`. */
  mark(nowMs: number): void {
    this.marks.push(nowMs);
    this.prune(nowMs);
  }

  /** Events per second over the window ending at `nowMs`. */
  hz(nowMs: number): number {
    this.prune(nowMs);
    return (this.marks.length * 1000) / this.windowMs;
  }

  private prune(nowMs: number): void {
    while (this.marks.length > 0 && this.marks[0]! <= nowMs - this.windowMs) this.marks.shift();
  }
}
