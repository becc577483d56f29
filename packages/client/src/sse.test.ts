import { describe, expect, test } from "bun:test";
import { readSse } from "./sse";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]) {
  const out = [];
  for await (const message of readSse(streamOf(chunks))) out.push(message);
  return out;
}

describe("readSse", () => {
  test("named events, multi-line data, comments, default event name", async () => {
    const messages = await collect([
      ': keep-alive\n\nevent: head\ndata: {"head":"function"}\n\n',
      "data: line one\ndata: line two\n\n",
    ]);
    expect(messages).toEqual([
      { event: "head", data: '{"head":"function"}' },
      { event: "message", data: "line one\nline two" },
    ]);
  });

  test("events split across chunks anywhere, CRLF split between chunks, multi-byte UTF-8 split", async () => {
    const bytes = new TextEncoder().encode("event: call\r\ndata: 你好\r\n\r\n");
    const encoder = new TextDecoder();
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i++) chunks.push(bytes.slice(i, i + 1));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const out = [];
    for await (const message of readSse(stream)) out.push(message);
    expect(out).toEqual([{ event: "call", data: encoder.decode(new TextEncoder().encode("你好")) }]);
  });

  test("an event without its closing blank line is dropped; no data means no event", async () => {
    expect(await collect(["event: head\n\n", "event: call\ndata: x"])).toEqual([]);
  });

  test("yields each event before the stream ends", async () => {
    let push!: (text: string) => void;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
      },
    });
    const iterator = readSse(stream)[Symbol.asyncIterator]();
    const first = iterator.next();
    push("event: head\ndata: 1\n\n");
    expect((await first).value).toEqual({ event: "head", data: "1" });
    await iterator.return?.(undefined);
  });
});
