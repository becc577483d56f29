/**
 * `--session-worker`: the same server with its forward passes in a worker thread answers a call
 * like the one without, and shuts the worker down with the server.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { FunctionCallReply } from "@rtool/contract";
import { loadCallers } from "./load-callers";
import { createServer } from "./server";
import { postJson } from "./testing/http";
import { fixtureBody } from "./testing/sample-tools";

setDefaultTimeout(120_000);

const FIXTURE = join(import.meta.dir, "../../core/test/fixtures/qwen3-tied");

async function reply(sessionWorker: boolean): Promise<FunctionCallReply> {
  const loaded = await loadCallers(FIXTURE, { threads: 1, cache: false, lanes: 2, sessionWorker });
  const server = createServer({ model: loaded, port: 0, format: "v2" });
  try {
    const base = (await server.listen()).url;
    const res = await postJson(`${base}/v2/function_call`, fixtureBody("move up"));
    expect(res.status).toBe(200);
    return (await res.json()) as FunctionCallReply;
  } finally {
    await server.close();
  }
}

test("a call served with the session in a worker thread is the call served without", async () => {
  const [here, there] = [await reply(false), await reply(true)];
  expect(there.heads).toEqual(here.heads);
  expect(there.args).toEqual(here.args);
  expect(there.timings.forward_ms).toBeGreaterThan(0);
});
