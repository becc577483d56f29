/**
 * Incremental Server-Sent Events parser: feed it text chunks as they arrive (split anywhere,
 * even inside a line) and it yields complete events. Follows the HTML spec's field rules
 * (`event`, `data` lines joined by "\n", comments ignored, CR/LF/CRLF line ends).
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field, "message" when absent. */
  event: string;
  data: string;
  id?: string;
}

/**
 * @example
 * const parser = new SseParser();
 * parser.push("event: head\ndata: {\"hea");
 * parser.push("d\":\"function\"}\n\n"); // [{ event: "head", data: "{\"head\":\"function\"}" }]
 */
export class SseParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];
  private id: string | undefined;

  /** Adds a chunk; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const out: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone CR at the end may be the first half of CRLF: wait for the next chunk.
      if (match[0] === "\r" && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  /** Ends the stream: a trailing event without its blank line is dropped, as the spec says. */
  end(): void {
    this.buffer = "";
    this.event = "";
    this.data = [];
  }

  private line(line: string): SseEvent | null {
    if (line === "") {
      if (this.data.length === 0) {
        this.event = "";
        return null;
      }
      const event: SseEvent = { event: this.event || "message", data: this.data.join("\n") };
      if (this.id !== undefined) event.id = this.id;
      this.event = "";
      this.data = [];
      return event;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id") this.id = value;
    return null;
  }
}
