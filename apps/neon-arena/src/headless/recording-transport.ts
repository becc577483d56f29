/**
 * A transport that times every request of one agent and keeps the server's per-stage timings of
 * its reply, so the benchmark can split a round trip into where it went (the server's queue,
 * its caller lane, the batcher, forward passes, and what HTTP and the event loops add).
 */
import type { ServerTimings } from "@rtool/client";
import { type CallReply, createHttpTransport, type Transport } from "@rtool/phaser-plugin/headless";

/** The server's `timings` (servers before the per-stage fields omit them). */
export type ReplyTimings = ServerTimings;

/** One request of one agent. */
export interface RequestSample {
  /** When it was sent, ms since the run started. */
  sentAt: number;
  /** Send to parsed reply, as the game sees it. */
  roundTripMs: number;
  /** The server's `latency_ms` (its route, from arrival to reply). */
  serverMs: number | null;
  timings: ReplyTimings | null;
}

/** A {@link Transport} over HTTP that records a {@link RequestSample} per reply. */
export class RecordingTransport implements Transport {
  readonly samples: RequestSample[] = [];
  private readonly inner: Transport;

  constructor(
    serverUrl: string,
    /** The run's clock origin (`performance.now()` at its start). */
    private readonly origin: number,
    /** Ask for Server-Sent Events, as the arena page does. */
    stream: boolean,
  ) {
    this.inner = createHttpTransport({ serverUrl, stream });
  }

  async send(...args: Parameters<Transport["send"]>): Promise<CallReply> {
    const sent = performance.now();
    const reply = await this.inner.send(...args);
    const extra = reply as CallReply & { timings?: ReplyTimings };
    this.samples.push({
      sentAt: sent - this.origin,
      roundTripMs: performance.now() - sent,
      serverMs: typeof reply.latency_ms === "number" ? reply.latency_ms : null,
      timings: extra.timings ?? null,
    });
    return reply;
  }
}
