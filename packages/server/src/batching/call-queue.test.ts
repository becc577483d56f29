import { describe, expect, test } from "bun:test";
import { CallQueue, QueueClosedError, QueueFullError } from "./call-queue";

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
};

describe("CallQueue", () => {
  test("runs at most `concurrency` tasks, in FIFO order", async () => {
    const queue = new CallQueue({ concurrency: 2, maxWaiting: 10 });
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const runs = gates.map((g, i) =>
      queue.run(async () => {
        started.push(i);
        await g.opened;
        return i;
      }),
    );
    await Bun.sleep(0);
    expect(started).toEqual([0, 1]);
    expect(queue.running).toBe(2);
    expect(queue.waiting).toBe(3);
    gates[1]!.open();
    await Bun.sleep(0);
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(queue.running).toBe(0);
  });

  test("refuses at once when the waiting line is full", async () => {
    const queue = new CallQueue({ concurrency: 1, maxWaiting: 1 });
    const g = gate();
    const a = queue.run(() => g.opened);
    const b = queue.run(() => g.opened);
    await expect(queue.run(() => g.opened)).rejects.toBeInstanceOf(QueueFullError);
    g.open();
    await Promise.all([a, b]);
  });

  test("an aborted waiter leaves the line; a running task is not interrupted", async () => {
    const queue = new CallQueue({ concurrency: 1, maxWaiting: 4 });
    const g = gate();
    const running = queue.run(() => g.opened.then(() => "done"));
    const controller = new AbortController();
    const waiting = queue.run(async () => "never", controller.signal);
    await Bun.sleep(0);
    expect(queue.waiting).toBe(1);
    controller.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
    expect(queue.waiting).toBe(0);
    g.open();
    expect(await running).toBe("done");
  });

  test("close refuses new tasks and resolves when the running ones finish", async () => {
    const queue = new CallQueue({ concurrency: 1, maxWaiting: 4 });
    const g = gate();
    let finished = 0;
    const a = queue.run(() => g.opened.then(() => finished++));
    const b = queue.run(() => g.opened.then(() => finished++));
    const closed = queue.close();
    await expect(queue.run(async () => 0)).rejects.toBeInstanceOf(QueueClosedError);
    g.open();
    await closed;
    expect(finished).toBe(2);
    await Promise.all([a, b]);
  });

  test("onChange reports running and waiting counts", async () => {
    const seen: [number, number][] = [];
    const queue = new CallQueue({ concurrency: 1, maxWaiting: 2, onChange: (r, w) => seen.push([r, w]) });
    await Promise.all([queue.run(async () => 1), queue.run(async () => 2)]);
    expect(seen[0]).toEqual([1, 0]);
    expect(seen.at(-1)).toEqual([0, 0]);
  });
});
