/**
 * The client's view of its server: "connecting" until the first answer, "online" after a reply,
 * "offline" after a failure, with back-off deciding when the next attempt may start. While
 * offline only one request (the probe) may be on the wire, so N agents do not hammer a server
 * that is down N times over.
 */
import { Backoff, type BackoffOptions } from "./backoff";
import type { ServerStatus, StatusEvent } from "./events";

/**
 * @example
 * const connection = new ServerConnection({}, (event) => hud.show(event.status));
 * if (connection.maySend(now)) { connection.sending(); fetch(...) }
 * connection.failed(now, "connection refused"); // offline, retry in 250 ms
 * connection.succeeded(); // online
 */
export class ServerConnection {
  private current: ServerStatus = "connecting";
  private probing = false;
  private readonly backoff: Backoff;

  constructor(
    options: BackoffOptions,
    private readonly onChange: (event: StatusEvent) => void,
  ) {
    this.backoff = new Backoff(options);
  }

  get status(): ServerStatus {
    return this.current;
  }

  /** Ms until the next attempt may start (0 when not backing off). */
  retryInMs(nowMs: number): number {
    return Math.max(0, this.backoff.nextAttemptAt - nowMs);
  }

  /** Whether a request may start now. */
  maySend(nowMs: number): boolean {
    return this.backoff.canTry(nowMs) && !(this.current === "offline" && this.probing);
  }

  /** A request is starting; while offline it is the one probe. */
  sending(): void {
    if (this.current === "offline") this.probing = true;
  }

  /** A reply arrived. */
  succeeded(): void {
    this.backoff.succeed();
    this.probing = false;
    if (this.current !== "online") this.change("online", "connected", 0);
  }

  /** The server was unavailable; `retryAfterMs` is the least wait it asked for. */
  failed(nowMs: number, message: string, retryAfterMs = 0): void {
    const delay = this.backoff.fail(nowMs, retryAfterMs);
    this.probing = false;
    this.change("offline", message, delay);
  }

  private change(status: ServerStatus, message: string, retryInMs: number): void {
    this.current = status;
    this.onChange({ status, failures: this.backoff.failureCount, retryInMs, message });
  }
}
