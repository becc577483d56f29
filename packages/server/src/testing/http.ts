/** Small HTTP helpers for tests against a listening server. */

/** Posts `body` (an object, or raw text/bytes sent as they are) as JSON. */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const raw: BodyInit =
    typeof body === "string"
      ? body
      : body instanceof Uint8Array
        ? new Blob([body as Uint8Array<ArrayBuffer>])
        : JSON.stringify(body);
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: raw,
  });
}

/** One parsed Server-Sent Event. */
export interface SseEvent {
  event: string;
  data: string;
}

/** Reads a whole SSE response into its events. */
export async function readSse(response: Response): Promise<SseEvent[]> {
  const text = await response.text();
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (block.trim() === "") continue;
    let event = "message";
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    events.push({ event, data: data.join("\n") });
  }
  return events;
}
