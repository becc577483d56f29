/** A push/pull queue that turns callbacks into an async iterator (for `RealtimeCaller.stream`). */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | null = null;
  private closed = false;
  private failure: { error: unknown } | null = null;

  push(item: T): void {
    this.items.push(item);
    this.signal();
  }

  /** Ends the iteration after the queued items. */
  close(): void {
    this.closed = true;
    this.signal();
  }

  /** Ends the iteration with `error` after the queued items. */
  fail(error: unknown): void {
    this.failure = { error };
    this.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    while (true) {
      if (this.items.length > 0) {
        yield this.items.shift()!;
        continue;
      }
      if (this.closed) {
        if (this.failure) throw this.failure.error;
        return;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
