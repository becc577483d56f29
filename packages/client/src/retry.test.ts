import { describe, expect, test } from "bun:test";
import { parseRetryAfter, retryDelayMs, retryPolicy, sleep } from "./retry";

describe("retry policy", () => {
  test("defaults, and false turns retries off", () => {
    expect(retryPolicy(undefined)).toEqual({ retries: 3, baseDelayMs: 100, maxDelayMs: 2000 });
    expect(retryPolicy(false).retries).toBe(0);
  });

  test("delay doubles per attempt within full jitter, capped", () => {
    const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
    expect(retryDelayMs(0, policy, null, () => 1)).toBe(100);
    expect(retryDelayMs(2, policy, null, () => 1)).toBe(400);
    expect(retryDelayMs(2, policy, null, () => 0.5)).toBe(200);
    expect(retryDelayMs(6, policy, null, () => 1)).toBe(1000);
    expect(retryDelayMs(3, policy, null, () => 0)).toBe(0);
  });

  test("Retry-After wins over the back-off, still capped", () => {
    const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1500 });
    expect(retryDelayMs(0, policy, "1", () => 1)).toBe(1000);
    expect(retryDelayMs(0, policy, "30", () => 1)).toBe(1500);
  });

  test("Retry-After as seconds or an HTTP date; garbage is ignored", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter("soon")).toBeNull();
    const inFuture = new Date(Date.now() + 60_000).toUTCString();
    expect(parseRetryAfter(inFuture)).toBeGreaterThan(50_000);
  });

  test("sleep rejects with the signal's reason when aborted", async () => {
    const controller = new AbortController();
    const waiting = sleep(10_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
  });
});
