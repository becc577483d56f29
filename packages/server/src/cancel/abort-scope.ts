/**
 * The abort signal of the request whose work is running now. Routes run a call inside
 * {@link withRequestSignal}; core's `SequenceBatch` reads {@link currentRequestSignal} on every
 * step (`serveModel` hands it over as its `merge.currentSignal`), so work for a request whose client
 * left (or whose deadline passed) stops at its next forward pass, without core's callers and
 * decoders having to pass a signal through every layer.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { RequestAbortedError } from "@rtool/core";

// Core's batch layer refuses an aborted request's steps with this error; routes throw it too.
export { RequestAbortedError };

const scope = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `work` with `signal` as the current request's signal (for everything it awaits).
 *
 * @example
 * ```ts
 * const result = await withRequestSignal(c.get("signal"), () => caller.call(request));
 * ```
 */
export function withRequestSignal<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  return scope.run(signal, work);
}

/**
 * The signal of the request the running code works for; undefined outside any request.
 *
 * @example
 * ```ts
 * currentRequestSignal()?.throwIfAborted();
 * ```
 */
export function currentRequestSignal(): AbortSignal | undefined {
  return scope.getStore();
}

/**
 * Whether `error` means "aborted" rather than "failed": ours, or a DOM `AbortError` (a fetch or
 * a stream the client closed).
 *
 * @example
 * ```ts
 * if (isAbortError(error)) logger.info("client left"); else throw error;
 * ```
 */
export function isAbortError(error: unknown): boolean {
  if (error instanceof RequestAbortedError) return true;
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}
