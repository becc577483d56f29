/**
 * Several callers over one model, used as one. A core caller runs its calls one at a time (they
 * share its prefix cache), so concurrency needs several: each lane is a caller in the same
 * `SequenceBatch` (from @rtool/core, which merges their forward passes); concurrent calls go to
 * different lanes. This pool only queues and spreads calls; it never sees a tensor. A call prefers the lane that last served the same system prompt and tools, whose prefix cache
 * already holds them (lanes may also share one prefix cache). Lanes are created on demand, up to a
 * maximum, so a server that sees one client at a time holds one caller. Requests name their
 * prompt format, so one pool serves v1 and v2.
 */
import type { Caller, CallerCacheStats, CallerEvent, CallerRequest, CallerResult } from "../caller";

/**
 * A {@link Caller} that spreads calls over lanes.
 *
 * @example
 * ```ts
 * const pool = new CallerPool(() => new RealtimeCaller({ runtime: batched, tokenizer }, {}), 8);
 * await Promise.all(requests.map((r) => pool.call(r))); // up to 8 decode together, v1 and v2 alike
 * ```
 */
export class CallerPool implements Caller {
  private readonly busy: number[] = [];
  private readonly created: Caller[] = [];
  private readonly affinity = new Map<string, number>();

  constructor(
    private readonly createLane: () => Caller,
    /** Most lanes, i.e. calls decoded at once. */
    readonly maxLanes: number,
    /** Counters of the one prefix cache the lanes share, when they share one (else lanes' are summed). */
    private readonly sharedCacheStats?: () => CallerCacheStats,
  ) {
    if (!(Number.isInteger(maxLanes) && maxLanes >= 1)) {
      throw new RangeError(`CallerPool needs maxLanes >= 1, got ${maxLanes}`);
    }
  }

  /** The lanes created so far. */
  get lanes(): readonly Caller[] {
    return this.created;
  }

  async call(request: CallerRequest): Promise<CallerResult> {
    const lane = this.take(request);
    try {
      return await this.created[lane]!.call(request);
    } finally {
      this.busy[lane]!--;
    }
  }

  async *stream(request: CallerRequest): AsyncIterable<CallerEvent> {
    const lane = this.take(request);
    try {
      yield* this.created[lane]!.stream(request);
    } finally {
      this.busy[lane]!--;
    }
  }

  /** The prefix-cache counters: the shared cache's, or the lanes' summed. */
  cacheStats(): CallerCacheStats {
    if (this.sharedCacheStats) return this.sharedCacheStats();
    const sum = { hits: 0, misses: 0, evictions: 0, cachedTokens: 0, bytes: 0 };
    for (const lane of this.created) {
      const s = lane.cacheStats?.();
      if (!s) continue;
      sum.hits += s.hits;
      sum.misses += s.misses;
      sum.evictions += s.evictions ?? 0;
      sum.cachedTokens += s.cachedTokens ?? 0;
      sum.bytes += s.bytes ?? 0;
    }
    return sum;
  }

  /** Calls running per lane. */
  get load(): readonly number[] {
    return this.busy;
  }

  private take(request: CallerRequest): number {
    const key = prefixKey(request);
    const preferred = this.affinity.get(key);
    let lane = 0;
    if (preferred !== undefined && this.busy[preferred] === 0) lane = preferred;
    else {
      for (let i = 1; i < this.busy.length; i++) if (this.busy[i]! < this.busy[lane]!) lane = i;
      if ((this.busy.length === 0 || this.busy[lane]! > 0) && this.created.length < this.maxLanes) {
        this.created.push(this.createLane());
        this.busy.push(0);
        lane = this.created.length - 1;
      }
    }
    this.busy[lane]!++;
    this.affinity.set(key, lane);
    return lane;
  }
}

/** What the system turn (the cacheable prefix) depends on: the format, system prompt and tools. */
function prefixKey(request: CallerRequest): string {
  const tools = request.tools.map((t) =>
    typeof t === "object" && t !== null && "original" in t ? (t as { original: unknown }).original : t,
  );
  return `${request.format ?? ""}\u0000${request.system ?? ""}\u0000${JSON.stringify(tools)}`;
}
