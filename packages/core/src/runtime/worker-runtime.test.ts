import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadModel } from "../load-model";
import type { Model } from "../model";
import type { RtoolTokenizer } from "../tokenizer";
import { loadModelInWorker } from "./worker-runtime";

const RT_TINY = join(import.meta.dir, "..", "..", "..", "model-rt-tiny", "model");
const hasModel = existsSync(join(RT_TINY, "config.json"));

let here: Model<RtoolTokenizer>;
let there: Model<RtoolTokenizer>;

describe.skipIf(!hasModel)("the session in a worker thread", () => {
  beforeAll(async () => {
    here = await loadModel(RT_TINY, { threads: 1 });
    there = await loadModelInWorker(RT_TINY, { threads: 1 });
  }, 120_000);
  afterAll(async () => {
    await here?.dispose();
    await there?.dispose();
  });

  test("gives the same logits and present KV as the session on this thread, prefill then a step on its past", async () => {
    const ids = there.tokenizer.encode("<|im_start|>user\nmove up<|im_end|>\n");
    const first = { tokenIds: ids, positions: ids.map((_, i) => i), past: here.runtime.emptyKv() };
    const [a, b] = [await here.runtime.step(first), await there.runtime.step(first)];
    expect(b.present.length).toBe(ids.length);
    expect(Array.from(b.logits)).toEqual(Array.from(a.logits));
    const next = { tokenIds: [ids[0]!], positions: [ids.length], past: b.present };
    const [c, d] = [await here.runtime.step({ ...next, past: a.present }), await there.runtime.step(next)];
    expect(Array.from(d.logits)).toEqual(Array.from(c.logits));
    expect(Array.from(d.present.keys[0]!)).toEqual(Array.from(c.present.keys[0]!));
  });

  test("a bad step is refused with the worker's error, and the worker goes on serving", async () => {
    const bad = there.runtime.step({ tokenIds: [1, 2], positions: [0], past: there.runtime.emptyKv() });
    await expect(bad).rejects.toThrow(/positions/);
    const ok = await there.runtime.step({ tokenIds: [1], positions: [0], past: there.runtime.emptyKv() });
    expect(ok.logits.length).toBe(there.config.vocabSize);
  });

  test("the main thread's timers fire while a pass runs in the worker", async () => {
    // On this thread a pass holds the event loop, so a 1 ms timer set beside it fires after it.
    const ids = Array.from({ length: 200 }, (_, i) => 10 + (i % 50));
    const pass = there.runtime
      .step({ tokenIds: ids, positions: ids.map((_, j) => j), past: there.runtime.emptyKv() })
      .then(() => "pass");
    const timer = new Promise((resolve) => setTimeout(resolve, 1)).then(() => "timer");
    expect(await Promise.race([pass, timer])).toBe("timer");
    await pass;
  });
});
