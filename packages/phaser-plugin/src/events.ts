/**
 * Payloads of the events a client (and so `this.rtool`) emits. Every payload names the agent
 * and what started the request, so one listener can serve a whole HUD.
 */
import type { ServerTimings } from "@rtool/contract";
import type { RequestSource } from "./agent";
import type { CallArgs, CallRejectionCode } from "./validate-call";

/** A validated call whose handler accepted it. */
export interface CallEvent {
  agent: string;
  source: RequestSource;
  query: string;
  function: string;
  args: CallArgs;
  /** Raw head texts from the server (`<|null|>` for unused heads). */
  heads: Record<string, string>;
  /** From send to reply, measured by the client. */
  latencyMs: number;
  /** The server's own measure, when it sent one. */
  serverLatencyMs: number | null;
  /** Where the engine spent the call's time (rtool-server and the in-page engine send it). */
  timings: ServerTimings | null;
}

/** A head that finished decoding (streaming transports only), before the call is complete. */
export interface HeadEvent {
  agent: string;
  source: RequestSource;
  head: string;
  text: string;
  done: boolean;
}

/** A call refused by validation, by the server's own checks, or by its handler. */
export interface RejectedEvent {
  agent: string;
  source: RequestSource;
  query: string;
  function: string | null;
  args: Record<string, unknown>;
  heads: Record<string, string>;
  code: CallRejectionCode;
  reason: string;
  field?: string;
}

/** A request that failed (server down, refused request, throwing environment or handler). */
export interface ErrorEvent {
  agent: string;
  source: RequestSource;
  error: Error;
}

/** Timing of each reply that arrived in time. */
export interface LatencyEvent {
  agent: string;
  source: RequestSource;
  ms: number;
  /** Replies per second this agent achieved over the last 2 s. */
  achievedHz: number;
}

/** Connection state of the client: "connecting" until the first reply or failure. */
export type ServerStatus = "connecting" | "online" | "offline";

/** A change of connection state. */
export interface StatusEvent {
  status: ServerStatus;
  /** Failures in a row. */
  failures: number;
  /** When offline: how long until the next attempt. */
  retryInMs: number;
  message: string;
}

/** Why a reply was not acted on. */
export type DropReason = "stale" | "superseded" | "invalidated" | "stopped";

/** A reply (or a request in flight) that was dropped rather than acted on. */
export interface DroppedEvent {
  agent: string;
  source: RequestSource;
  reason: DropReason;
}

/** The event map of a client. */
export interface RtoolEvents {
  call: CallEvent;
  head: HeadEvent;
  rejected: RejectedEvent;
  error: ErrorEvent;
  latency: LatencyEvent;
  status: StatusEvent;
  dropped: DroppedEvent;
}
