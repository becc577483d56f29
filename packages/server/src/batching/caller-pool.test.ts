import { describe, expect, test } from "bun:test";
import { ROBOT_TOOLS } from "../testing/sample-tools";
import { createScriptedCaller } from "../testing/scripted-caller";
import { CallerPool } from "./caller-pool";

const request = (query: string, system?: string) => ({ query, tools: ROBOT_TOOLS, system });

describe("CallerPool", () => {
  test("concurrent calls go to different lanes", async () => {
    const lanes: ReturnType<typeof createScriptedCaller>[] = [];
    const pool = new CallerPool(() => {
      lanes.push(createScriptedCaller({ delayMs: 20 }));
      return lanes.at(-1)!;
    }, 3);
    await pool.call(request("first"));
    expect(lanes).toHaveLength(1); // one client at a time needs one lane
    await Promise.all(["a", "b", "c", "d"].map((q) => pool.call(request(q))));
    expect(lanes.map((l) => l.calls)).toEqual([3, 1, 1]);
    expect(pool.load).toEqual([0, 0, 0]);
  });

  test("an idle pool sends a prompt back to the lane that served it", async () => {
    const lanes = [0, 1].map(() => createScriptedCaller());
    let made = 0;
    const pool = new CallerPool(() => lanes[made++]!, 2);
    await Promise.all([pool.call(request("x", "A")), pool.call(request("y", "B"))]);
    await pool.call(request("z", "B"));
    await pool.call(request("w", "B"));
    expect(lanes.map((l) => l.calls)).toEqual([1, 3]);
  });

  test("the format is part of the prompt a lane remembers: v1 and v2 of one tool set are apart", async () => {
    const lanes = [0, 1].map(() => createScriptedCaller());
    let made = 0;
    const pool = new CallerPool(() => lanes[made++]!, 2);
    const as = (format: "v1" | "v2", query: string) => ({ ...request(query, "A"), format }) as const;
    await Promise.all([pool.call(as("v1", "x")), pool.call(as("v2", "y"))]);
    await pool.call(as("v2", "z"));
    await pool.call(as("v2", "w"));
    await pool.call(as("v1", "v"));
    expect(lanes.map((l) => l.calls)).toEqual([2, 3]);
  });

  test("streams hold their lane until they end; cache counters are summed", async () => {
    const lanes = [0, 1].map(() => createScriptedCaller());
    let made = 0;
    const pool = new CallerPool(() => lanes[made++]!, 2);
    const events = [];
    for await (const event of pool.stream(request("grip"))) {
      expect(pool.load).toEqual([1]);
      events.push(event);
    }
    expect(events.at(-1)).toHaveProperty("call");
    expect(pool.load).toEqual([0]);
    await pool.call(request("a"));
    expect(pool.cacheStats().hits).toBe(1);
  });
});
