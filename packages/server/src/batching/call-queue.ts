/**
 * Admission control for calls: at most `concurrency` run at once (they share forward passes
 * through the batching runtime), at most `maxWaiting` wait in FIFO order, and the rest are refused
 * at once so a burst gets a fast 429 instead of an ever-growing latency.
 */

/** The queue is full; the caller should retry later (HTTP 429). */
export class QueueFullError extends Error {
  override readonly name = "QueueFullError";
  constructor(readonly maxWaiting: number) {
    super(`the call queue is full (${maxWaiting} waiting); retry later`);
  }
}

/** The queue was closed (server shutting down); no new calls are accepted. */
export class QueueClosedError extends Error {
  override readonly name = "QueueClosedError";
  constructor() {
    super("the server is shutting down and accepts no new calls");
  }
}

/**
 * Calls decoded at once when nothing says otherwise: the queue's slots, the server's option,
 * the CLI's `--concurrency` and the caller lanes all default to this, so they cannot drift
 * apart (a queue admitting more calls than there are lanes would make calls wait for a lane).
 */
export const DEFAULT_CONCURRENCY = 16;

/** Options of {@link CallQueue}. */
export interface CallQueueOptions {
  /** Calls running at once; default {@link DEFAULT_CONCURRENCY}. */
  concurrency?: number;
  /** Calls waiting beyond those; default 64. */
  maxWaiting?: number;
  /** Told after every change of the counts (metrics). */
  onChange?: (running: number, waiting: number) => void;
}

interface Waiter {
  start: () => void;
}

/**
 * A bounded FIFO of async tasks.
 *
 * @example
 * ```ts
 * const queue = new CallQueue({ concurrency: 16, maxWaiting: 64 });
 * const result = await queue.run(() => caller.call(request)); // throws QueueFullError when full
 * await queue.close(); // refuses new tasks, resolves once running and waiting ones are done
 * ```
 */
export class CallQueue {
  readonly concurrency: number;
  readonly maxWaiting: number;
  private active = 0;
  private readonly waiters: Waiter[] = [];
  private closed = false;
  private idleResolvers: (() => void)[] = [];
  private readonly onChange?: (running: number, waiting: number) => void;
  /** Moving average of how long a task holds its slot, in ms (0 until one has finished). */
  private averageMs = 0;

  constructor(options: CallQueueOptions = {}) {
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.maxWaiting = options.maxWaiting ?? 64;
    if (!(Number.isInteger(this.concurrency) && this.concurrency >= 1))
      throw new RangeError(`concurrency must be an integer >= 1, got ${this.concurrency}`);
    if (!(Number.isInteger(this.maxWaiting) && this.maxWaiting >= 0))
      throw new RangeError(`maxWaiting must be an integer >= 0, got ${this.maxWaiting}`);
    this.onChange = options.onChange;
  }

  /** Tasks running now. */
  get running(): number {
    return this.active;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Runs `task` when a slot is free. A task still waiting when `signal` aborts is dropped
   * (its promise rejects with the signal's reason); a running task is never interrupted.
   */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  /**
   * Waits for a slot and returns the function that gives it back (call it exactly once). For
   * work that outlives one promise, such as a streamed reply.
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.closed) throw new QueueClosedError();
    signal?.throwIfAborted();
    if (this.active >= this.concurrency) {
      if (this.waiters.length >= this.maxWaiting) throw new QueueFullError(this.maxWaiting);
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.waiters.splice(at, 1);
          this.changed();
          this.settleIdle();
          reject(signal!.reason);
        };
        const waiter: Waiter = {
          start: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        this.waiters.push(waiter);
        this.changed();
      });
    } else {
      this.active++;
      this.changed();
    }
    let released = false;
    const since = performance.now();
    return () => {
      if (released) return;
      released = true;
      const held = performance.now() - since;
      this.averageMs = this.averageMs === 0 ? held : 0.8 * this.averageMs + 0.2 * held;
      this.release();
    };
  }

  /**
   * About how long a new task would wait for a slot now, in whole seconds (at least 1): the
   * tasks ahead of it, a slot-full at a time, each taking the recent average. For `Retry-After`.
   *
   * @example
   * ```ts
   * c.header("Retry-After", String(queue.retryAfterSeconds()));
   * ```
   */
  retryAfterSeconds(): number {
    const rounds = Math.floor((this.active + this.waiters.length) / this.concurrency);
    return Math.max(1, Math.ceil(((rounds + 1) * this.averageMs) / 1000));
  }

  /** Refuses new tasks; resolves when every running and waiting task has finished. */
  close(): Promise<void> {
    this.closed = true;
    return this.idle();
  }

  /** Resolves when nothing runs or waits. */
  idle(): Promise<void> {
    if (this.active === 0 && this.waiters.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleResolvers.push(resolve));
  }

  private release(): void {
    const next = this.waiters.shift();
    // The slot passes straight to the next waiter, so `active` stays put.
    if (next) next.start();
    else this.active--;
    this.changed();
    this.settleIdle();
  }

  private settleIdle(): void {
    if (this.active !== 0 || this.waiters.length !== 0) return;
    const resolvers = this.idleResolvers;
    this.idleResolvers = [];
    for (const resolve of resolvers) resolve();
  }

  private changed(): void {
    this.onChange?.(this.active, this.waiters.length);
  }
}
