import { expect, test } from "bun:test";
import { Backoff } from "./backoff";
import { RateMeter } from "./rate-meter";

test("delays double from the initial one up to the cap, and a success resets them", () => {
  const backoff = new Backoff({ initialMs: 100, maxMs: 500, jitter: 0 });
  expect(backoff.canTry(0)).toBe(true);
  expect(backoff.fail(0)).toBe(100);
  expect(backoff.canTry(99)).toBe(false);
  expect(backoff.canTry(100)).toBe(true);
  expect([backoff.fail(100), backoff.fail(300), backoff.fail(700), backoff.fail(1200)]).toEqual([
    200, 400, 500, 500,
  ]);
  expect(backoff.failureCount).toBe(5);
  backoff.succeed();
  expect(backoff.canTry(1200)).toBe(true);
  expect(backoff.fail(2000)).toBe(100);
});

test("jitter shortens delays by up to its fraction, and Retry-After sets a floor", () => {
  const backoff = new Backoff({ initialMs: 1000, jitter: 0.5, random: () => 1 });
  expect(backoff.fail(0)).toBe(500);
  expect(new Backoff({ initialMs: 100, jitter: 0 }).fail(0, 3000)).toBe(3000);
});

test("the rate meter counts events in its window", () => {
  const meter = new RateMeter(1000);
  for (let t = 0; t < 1000; t += 62.5) meter.mark(t);
  expect(meter.hz(999)).toBe(16);
  expect(meter.hz(1500)).toBe(7); // marks in (500, 1500]: 562.5 .. 937.5
  expect(meter.hz(5000)).toBe(0);
});
