/**
 * Exponential back-off for a server that is down or overloaded: the first retry after
 * `initialMs`, doubling up to `maxMs`, with proportional jitter so many tabs do not retry in
 * step. Time is passed in, never read, so the schedule is testable.
 */

/** Options of {@link Backoff}. */
export interface BackoffOptions {
  /** First delay; default 250 ms. */
  initialMs?: number;
  /** Longest delay; default 5000 ms. */
  maxMs?: number;
  /** Growth per failure; default 2. */
  factor?: number;
  /** Fraction of the delay drawn at random (0 = none); default 0.2. */
  jitter?: number;
  /** Source of randomness in [0, 1); default Math.random. */
  random?: () => number;
}

/**
 * Tracks consecutive failures and when the next attempt may start.
 *
 * @example
 * const backoff = new Backoff({ initialMs: 100, jitter: 0 });
 * backoff.fail(0); // 100: retry at t=100
 * backoff.fail(100); // 200: retry at t=300
 * backoff.canTry(250); // false
 * backoff.succeed(); // back to normal
 */
export class Backoff {
  private failures = 0;
  private retryAt = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly jitter: number;
  private readonly random: () => number;

  constructor(options: BackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 250;
    this.maxMs = options.maxMs ?? 5000;
    this.factor = options.factor ?? 2;
    this.jitter = options.jitter ?? 0.2;
    this.random = options.random ?? Math.random;
  }

  /** Consecutive failures since the last success. */
  get failureCount(): number {
    return this.failures;
  }

  /** When the next attempt may start (ms, same clock as `fail`'s `nowMs`); 0 when not backing off. */
  get nextAttemptAt(): number {
    return this.retryAt;
  }

  /** Whether an attempt may start at `nowMs`. */
  canTry(nowMs: number): boolean {
    return nowMs >= this.retryAt;
  }

  /** Records a failure at `nowMs`; returns the delay before the next attempt. */
  fail(nowMs: number, atLeastMs = 0): number {
    const base = Math.min(this.maxMs, this.initialMs * this.factor ** this.failures);
    const delay = Math.max(atLeastMs, Math.round(base * (1 - this.jitter * this.random())));
    this.failures += 1;
    this.retryAt = nowMs + delay;
    return delay;
  }

  /** Records a success: no more waiting. */
  succeed(): void {
    this.failures = 0;
    this.retryAt = 0;
  }
}
