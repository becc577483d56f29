/**
 * Retry policy for overloaded or starting servers: 429 (queue full) and 503 (model loading,
 * shutting down) are worth another try after a pause; so is a refused connection. The pause
 * doubles per attempt with full jitter, so many agents backing off at once spread out.
 */

/** Options of the retry policy. */
export interface RetryOptions {
  /** Tries after the first; default 3. */
  retries?: number;
  /** Pause before the first retry, before jitter; default 100 ms. */
  baseDelayMs?: number;
  /** Longest pause, `Retry-After` included; default 2000 ms. */
  maxDelayMs?: number;
}

/** Statuses that mean "try again later". */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** The policy with its defaults filled in. */
export function retryPolicy(options: RetryOptions | false | undefined): Required<RetryOptions> {
  if (options === false) return { retries: 0, baseDelayMs: 0, maxDelayMs: 0 };
  return {
    retries: Math.max(0, options?.retries ?? 3),
    baseDelayMs: Math.max(0, options?.baseDelayMs ?? 100),
    maxDelayMs: Math.max(0, options?.maxDelayMs ?? 2000),
  };
}

/**
 * The pause before retry number `attempt` (0 for the first retry): the server's `Retry-After`
 * when it sent one, else a random time up to `baseDelayMs * 2^attempt`; at most `maxDelayMs`.
 *
 * @example
 * retryDelayMs(2, retryPolicy({ baseDelayMs: 100 }), null, () => 0.5); // 200
 */
export function retryDelayMs(
  attempt: number,
  policy: Required<RetryOptions>,
  retryAfter: string | null,
  random: () => number = Math.random,
): number {
  const told = parseRetryAfter(retryAfter);
  const delay = told ?? random() * policy.baseDelayMs * 2 ** attempt;
  return Math.min(policy.maxDelayMs, Math.max(0, delay));
}

/** `Retry-After` in ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
