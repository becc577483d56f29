import { expect, test } from "bun:test";
import { SseParser } from "./sse-parser";

test("events split across chunks at any byte come out whole", () => {
  const text = 'event: head\ndata: {"head":"function","text":"move"}\n\nevent: call\ndata: {"x":1}\n\n';
  for (let cut = 0; cut <= text.length; cut++) {
    const parser = new SseParser();
    const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
    expect(events).toEqual([
      { event: "head", data: '{"head":"function","text":"move"}' },
      { event: "call", data: '{"x":1}' },
    ]);
  }
});

test("CRLF and CR line ends, comments, multi-line data and the default event name", () => {
  const parser = new SseParser();
  expect(parser.push(": keep-alive\r\ndata: a\r\ndata: b\r\n\r\n")).toEqual([
    { event: "message", data: "a\nb" },
  ]);
  expect(parser.push("event: x\rdata:no-space\r")).toEqual([]);
  // A final CR may be half of a CRLF, so the blank line is known only with the next byte.
  expect(parser.push("\r")).toEqual([]);
  expect(parser.push("data: next\n\n")).toEqual([
    { event: "x", data: "no-space" },
    { event: "message", data: "next" },
  ]);
});

test("a blank line without data dispatches nothing and resets the event name", () => {
  const parser = new SseParser();
  expect(parser.push("event: lonely\n\ndata: 1\n\n")).toEqual([{ event: "message", data: "1" }]);
});
