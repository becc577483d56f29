/**
 * Tools for the isolation tests, imported by the handler workers: well-behaved ones and ones
 * that throw, hang, call `process.exit` or return what cannot leave a thread.
 */
import { z } from "zod";
import { defineTool } from "../define-tool";
import { ToolRegistry } from "../registry";

const empty = z.object({});

export const echo = defineTool({
  name: "echo",
  parameters: z.object({ text: z.string(), times: z.number().int().default(1) }),
  handler: ({ text, times }) => ({ text: text.repeat(times), thread: "worker" }),
});

export const slow = defineTool({
  name: "slow",
  parameters: z.object({ ms: z.number() }),
  handler: async ({ ms }, { signal }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return signal.aborted ? "aborted" : "done";
  },
});

const throws = defineTool({
  name: "throws",
  parameters: empty,
  handler: () => {
    throw new RangeError("the handler failed");
  },
});

const hangs = defineTool({
  name: "hangs",
  parameters: empty,
  handler: () => {
    // A busy loop: no signal, timer or message can interrupt it; only terminating the thread can.
    for (;;) {}
  },
});

const exits = defineTool({
  name: "exits",
  parameters: empty,
  handler: () => process.exit(3),
});

const throwsLater = defineTool({
  name: "throws_later",
  parameters: empty,
  handler: () =>
    new Promise(() => {
      setTimeout(() => {
        throw new Error("thrown outside the handler's promise");
      }, 1);
    }),
});

const unclonable = defineTool({
  name: "unclonable",
  parameters: empty,
  handler: () => ({ callback: () => 1 }),
});

/** Exported as a registry too: the worker collects tools from both forms. */
export const registry = new ToolRegistry([echo, slow, throws, hangs, exits, throwsLater, unclonable]);
