/**
 * One request's life: an AbortController fed by the caller's signal, the timeout and
 * latest-wins supersession, and the translation of whichever fired first into a typed error.
 */
import { type AbortReason, RtoolAbortError, RtoolTimeoutError } from "./errors";

/** Why a scope's controller aborted; kept as the abort reason so the cause survives fetch's rejection. */
class ScopeAbort {
  constructor(readonly kind: AbortReason | "timeout") {}
}

/**
 * Latest-wins bookkeeping: at most one live request per key. Starting a request for a key aborts
 * the one before it, so a 16 Hz loop never acts on a stale reply.
 */
export class LatestWins {
  private readonly live = new Map<string, RequestScope>();

  /** Registers `scope` under `key`, superseding the request that held it. */
  claim(key: string, scope: RequestScope): void {
    this.live.get(key)?.abort("superseded");
    this.live.set(key, scope);
  }

  /** Forgets `scope` if it still holds `key`. */
  release(key: string, scope: RequestScope): void {
    if (this.live.get(key) === scope) this.live.delete(key);
  }

  /** Aborts the live request for `key`; true when there was one. */
  cancel(key: string): boolean {
    const scope = this.live.get(key);
    if (!scope) return false;
    scope.abort("aborted");
    this.live.delete(key);
    return true;
  }

  /** Aborts every live keyed request. */
  cancelAll(): void {
    for (const scope of this.live.values()) scope.abort("aborted");
    this.live.clear();
  }

  /** Keys with a request in flight. */
  keys(): string[] {
    return [...this.live.keys()];
  }
}

/** Options of a {@link RequestScope}. */
export interface RequestScopeOptions {
  url: string;
  timeoutMs: number;
  signal?: AbortSignal;
  key?: string;
  latest: LatestWins;
}

/** The abort plumbing of one request (all its attempts). Call `end()` when it is over. */
export class RequestScope {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout> | null;
  private readonly onCallerAbort = () => this.abort("aborted");

  constructor(private readonly options: RequestScopeOptions) {
    const { signal, key, timeoutMs } = options;
    if (signal?.aborted) this.abort("aborted");
    else signal?.addEventListener("abort", this.onCallerAbort, { once: true });
    this.timer =
      Number.isFinite(timeoutMs) && timeoutMs > 0
        ? setTimeout(() => this.abortWith("timeout"), timeoutMs)
        : null;
    if (key !== undefined) options.latest.claim(key, this);
  }

  /** Fires on any abort cause; pass to fetch and sleeps. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason: AbortReason): void {
    this.abortWith(reason);
  }

  /**
   * The typed error for a failure: the abort cause when the scope aborted (fetch rejects with
   * its own AbortError, which says nothing of why), else null.
   */
  abortError(): RtoolAbortError | RtoolTimeoutError | null {
    if (!this.controller.signal.aborted) return null;
    const reason = this.controller.signal.reason;
    const kind = reason instanceof ScopeAbort ? reason.kind : "aborted";
    if (kind === "timeout") return new RtoolTimeoutError(this.options.url, this.options.timeoutMs);
    return new RtoolAbortError(this.options.url, kind, this.options.key);
  }

  /** Releases the timer, the caller's signal and the latest-wins key. */
  end(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.options.signal?.removeEventListener("abort", this.onCallerAbort);
    if (this.options.key !== undefined) this.options.latest.release(this.options.key, this);
  }

  private abortWith(kind: AbortReason | "timeout"): void {
    if (!this.controller.signal.aborted) this.controller.abort(new ScopeAbort(kind));
  }
}
