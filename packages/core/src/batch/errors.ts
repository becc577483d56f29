/**
 * Errors of the batch layer.
 */

/**
 * A step (or call) given up because its request was aborted. `reason` is the signal's reason
 * (for a server: the timeout's 504, or the disconnect's `AbortError`).
 *
 * @example
 * ```ts
 * try { await batched.step(input); } catch (error) {
 *   if (error instanceof RequestAbortedError) return; // the caller left; nothing to report
 * }
 * ```
 */
export class RequestAbortedError extends Error {
  override readonly name = "RequestAbortedError";
  constructor(readonly reason: unknown) {
    super("the request was aborted; its work stopped");
  }
}
