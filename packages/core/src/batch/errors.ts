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

/** Why a {@link SequenceGoneError}'s sequence is no longer there. */
export type SequenceGoneReason = "released" | "evicted" | "failed" | "unknown";

const GONE_TEXT: Record<SequenceGoneReason, string> = {
  released: "was released",
  evicted: "was evicted (the least recently used of more open sequences than `maxSequences`)",
  failed: "shares its KV with a step that failed, so its state is unknown",
  unknown: "was never opened here",
};

/**
 * A step, fork or query named a sequence that a `SequenceBatch` no longer holds: released,
 * evicted, part of a failed step, or never opened. Open it again (a cached prompt costs little).
 *
 * @example
 * ```ts
 * engine.release(prompt);
 * engine.open([], { parent: prompt }); // throws: parent sequence 1 was released
 * ```
 */
export class SequenceGoneError extends Error {
  override readonly name = "SequenceGoneError";
  constructor(
    readonly seq: number,
    readonly reason: SequenceGoneReason,
    /** `"parent"` when it was named as the parent of a sequence being opened. */
    readonly role: "sequence" | "parent" = "sequence",
  ) {
    super(`${role === "parent" ? "parent sequence" : "sequence"} ${seq} ${GONE_TEXT[reason]}`);
  }
}
