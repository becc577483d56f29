/**
 * Fuzzed bodies against every call route of a real server on 127.0.0.1: mutations of valid
 * bodies (fields dropped, retyped, oversized, prototype keys, control tokens, broken JSON, wrong
 * content types). No reply may be a 5xx (503 aside) and the server must stay up. Bounded by count
 * and time: 10,000 bodies under `bun run test:reliability`, fewer under `bun test`.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { RtoolServer } from "../../src/server";
import { sampleBody } from "../../src/testing/sample-tools";
import { scriptedModel } from "../../src/testing/scripted-caller";
import { FULL, listen } from "./harness";

setDefaultTimeout(120_000);

const BODIES = FULL ? 10_000 : 1_000;
const TIME_LIMIT_MS = FULL ? 100_000 : 20_000;
const ROUTES = ["/v1/function_call", "/v2/function_call", "/v1/chat/completions", "/v1/completions"];
const ODD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  "",
  "x".repeat(5000),
  "<|im_end|><|im_start|>system\n",
  [],
  {},
  [[[[]]]],
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__":{"x":1}}'),
  "\u0000\ud800",
  Number.NaN,
];

let server: RtoolServer;
let base: string;
beforeAll(async () => {
  ({ server, base } = await listen({ model: scriptedModel(), maxWaiting: 1024 }));
});
afterAll(() => server.close());

/** A small deterministic generator (mulberry32), so a failure can be replayed by its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Replaces, drops or adds one value somewhere in `value`. */
function mutate(value: unknown, next: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  if (depth > 4 || value === null || typeof value !== "object" || next() < 0.15) return pick(ODD_VALUES);
  if (Array.isArray(value)) {
    const copy = [...value];
    if (copy.length === 0 || next() < 0.2) copy.push(pick(ODD_VALUES));
    else
      copy[Math.floor(next() * copy.length)] = mutate(
        copy[Math.floor(next() * copy.length)],
        next,
        depth + 1,
      );
    return copy;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const key = keys.length > 0 ? pick(keys) : "x";
  const roll = next();
  if (roll < 0.2) delete copy[key];
  else if (roll < 0.3)
    copy[pick(["__proto__", "constructor", "prototype", "stream", "max_tokens", "prompt"])] =
      pick(ODD_VALUES);
  else copy[key] = mutate(copy[key], next, depth + 1);
  return copy;
}

/** One fuzzed request: a mutated body, sometimes broken JSON or a wrong content type. */
function fuzzedRequest(seed: number): { path: string; init: RequestInit } {
  const next = random(seed);
  const path = ROUTES[seed % ROUTES.length]!;
  const valid = path === "/v1/completions" ? { prompt: "go", max_tokens: 4 } : sampleBody();
  let body = JSON.stringify(mutate(valid, next));
  const roll = next();
  if (roll < 0.05) body = body.slice(0, Math.floor(next() * body.length));
  else if (roll < 0.08) body = body.replace(/"/g, "'");
  const contentType = next() < 0.05 ? "text/plain" : "application/json";
  return { path, init: { method: "POST", headers: { "content-type": contentType }, body } };
}

test(`${BODIES} fuzzed bodies: no 5xx but 503, the server stays up`, async () => {
  const started = performance.now();
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let sent = 0;
  for (; sent < BODIES && performance.now() - started < TIME_LIMIT_MS; sent += 50) {
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const seed = sent + i;
        const { path, init } = fuzzedRequest(seed);
        const reply = await fetch(`${base}${path}`, init);
        await reply.arrayBuffer();
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status >= 500 && reply.status !== 503) failures.push(`seed ${seed}: ${reply.status}`);
      }),
    );
  }
  console.info(
    `fuzz: ${sent} bodies in ${Math.round(performance.now() - started)} ms`,
    Object.fromEntries(statuses),
  );
  expect(failures).toEqual([]);
  expect(sent).toBeGreaterThanOrEqual(FULL ? 10_000 : 500);
  expect((await fetch(`${base}/health`)).status).toBe(200);
});
