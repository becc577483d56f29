/**
 * The one cancellation path of a call route: the request's signal (client disconnect or the
 * request timeout, see `middleware/request-timeout.ts`) guards its queue slot and its model work.
 * The slot is given back the moment the request aborts, so `/health` and the next caller see it
 * free at once; the work itself stops at its next forward pass (core's `SequenceBatch`
 * refuses it, see `abort-scope.ts`).
 */
import type { CallQueue } from "../batching/call-queue";
import { RequestAbortedError, withRequestSignal } from "./abort-scope";

/**
 * Waits for a queue slot for the request and returns its release (idempotent), which also runs
 * by itself when `signal` aborts.
 *
 * @example
 * ```ts
 * const release = await acquireSlot(deps.queue, c.get("signal"));
 * try { ... } finally { release(); }
 * ```
 */
export async function acquireSlot(queue: CallQueue, signal: AbortSignal): Promise<() => void> {
  const release = await queue.acquire(signal);
  if (signal.aborted) {
    release();
    throw new RequestAbortedError(signal.reason);
  }
  signal.addEventListener("abort", release, { once: true });
  return () => {
    signal.removeEventListener("abort", release);
    release();
  };
}

/**
 * Runs a request's model work under its signal. A call that shared a step with another request
 * (the single prefill of a cached system turn) fails when that request aborts; it did nothing
 * wrong, so it runs once more on its own.
 *
 * @example
 * ```ts
 * const result = await runForRequest(signal, () => caller.call(request));
 * ```
 */
export async function runForRequest<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  try {
    return await withRequestSignal(signal, work);
  } catch (error) {
    if (error instanceof RequestAbortedError && !signal.aborted) return withRequestSignal(signal, work);
    throw error;
  }
}

/**
 * {@link acquireSlot} and {@link runForRequest} together, for a reply that is one promise.
 *
 * @example
 * ```ts
 * const result = await runInSlot(deps.queue, c.get("signal"), () => caller.call(request));
 * ```
 */
export async function runInSlot<T>(
  queue: CallQueue,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  const release = await acquireSlot(queue, signal);
  try {
    return await runForRequest(signal, work);
  } finally {
    release();
  }
}
