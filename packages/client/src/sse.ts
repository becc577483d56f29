/**
 * Incremental Server-Sent Events reader: events are yielded as their blank line arrives, so a
 * head is seen the moment the server writes it, not when the response ends.
 */

/** One event: its `event:` name ("message" when absent) and its joined `data:` lines. */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Reads SSE messages from a response body.
 *
 * @example
 * ```ts
 * for await (const message of readSse(response.body!)) console.log(message.event, message.data);
 * ```
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A CR may be the first half of a CRLF split across chunks; keep it until the next chunk.
      let lineEnd = nextLineEnd(buffer, done);
      while (lineEnd !== null) {
        const line = buffer.slice(0, lineEnd.at);
        buffer = buffer.slice(lineEnd.at + lineEnd.length);
        if (line === "") {
          if (data.length > 0) yield { event: event || "message", data: data.join("\n") };
          event = "";
          data = [];
        } else if (!line.startsWith(":")) {
          const colon = line.indexOf(":");
          const field = colon === -1 ? line : line.slice(0, colon);
          const raw = colon === -1 ? "" : line.slice(colon + 1);
          const value = raw.startsWith(" ") ? raw.slice(1) : raw;
          if (field === "event") event = value;
          else if (field === "data") data.push(value);
        }
        lineEnd = nextLineEnd(buffer, done);
      }
      if (done) {
        // The spec drops an event not ended by a blank line; so do we.
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function nextLineEnd(buffer: string, done: boolean): { at: number; length: number } | null {
  for (let i = 0; i < buffer.length; i++) {
    const c = buffer.charCodeAt(i);
    if (c === 10) return { at: i, length: 1 };
    if (c === 13) {
      if (i + 1 < buffer.length) return { at: i, length: buffer.charCodeAt(i + 1) === 10 ? 2 : 1 };
      return done ? { at: i, length: 1 } : null;
    }
  }
  return null;
}
