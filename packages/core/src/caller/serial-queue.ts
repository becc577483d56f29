/**
 * Runs async jobs one after another. A caller's calls share one prefix cache and one runtime
 * session, so their steps are serialised rather than interleaved.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** Jobs queued or running. */
  get size(): number {
    return this.waiting;
  }

  /** Runs `job` after every job queued before it; its result or error is passed through. */
  run<T>(job: () => Promise<T>): Promise<T> {
    this.waiting++;
    const result = this.tail.then(job);
    const settle = () => {
      this.waiting--;
    };
    this.tail = result.then(settle, settle);
    return result;
  }
}
