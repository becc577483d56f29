/**
 * The headless arena behind `bun run bench:arena`: its report's shape from made-up samples, and
 * a few seconds of the real agents against rtool-server with rt-tiny (skipped without the model).
 * No timing thresholds: what a loaded machine achieves is the benchmark's business, not a test's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ENEMY_IDS } from "../src/arena-agents";
import {
  type ArenaReport,
  formatArenaTable,
  STAGE_NOTES,
  STAGES,
  summarizeAgent,
} from "../src/headless/arena-report";
import { runHeadlessArena } from "../src/headless/headless-arena";
import type { RequestSample } from "../src/headless/recording-transport";
import { type RtoolProcess, startRtoolServer } from "../src/server/rtool-process";

const MODEL_DIR = join(import.meta.dir, "..", "..", "..", "packages", "model-rt-tiny", "model");
const hasModel = existsSync(join(MODEL_DIR, "config.json"));

function sample(sentAt: number, roundTripMs: number, serverMs: number): RequestSample {
  return {
    sentAt,
    roundTripMs,
    serverMs,
    timings: {
      prefill_ms: 10,
      decode_ms: 5,
      steps: 2,
      cached_prefix_tokens: 200,
      total_ms: serverMs - 2,
      queue_ms: 0.5,
      prepare_ms: 1,
      lane_wait_ms: 0,
      batch_wait_ms: 3,
      forward_ms: 12,
      shared_steps: 1,
      prompt_tokens: 250,
      prefilled_tokens: 50,
      fed_tokens: 54,
      answer_cached: false,
    },
  };
}

describe("arena report", () => {
  test("a row covers the measured window: rate, round trip, stages, the cold first call", () => {
    const samples = [
      sample(100, 300, 290),
      ...Array.from({ length: 20 }, (_, i) => sample(1000 + i * 50, 30 + i, 20)),
    ];
    const counts = { accepted: 18, rejected: 2, dropped: 0, errors: 0, restedMs: 0 };
    const row = summarizeAgent("enemy-1", 16, samples, counts, { fromMs: 1000, toMs: 2000 });
    expect(row.replies).toBe(20);
    expect(row.achievedHz).toBe(20);
    // A ship that rested half the window (wrecked until the next round) ran at twice that rate.
    const rested = summarizeAgent(
      "enemy-1",
      16,
      samples,
      { ...counts, restedMs: 500 },
      { fromMs: 1000, toMs: 2000 },
    );
    expect(rested.achievedHz).toBe(40);
    expect(rested.restedSeconds).toBe(0.5);
    expect(row.firstMs).toBe(300);
    expect(row.latencyMs.p50).toBeLessThanOrEqual(row.latencyMs.p99);
    expect(Object.keys(row.stagesMs).sort()).toEqual([...STAGES].sort());
    expect(row.stagesMs.batch_wait.p50).toBe(3);
    expect(row.stagesMs.server.p50).toBe(20);
    expect(row.stagesMs.transport.p50).toBe(row.latencyMs.p50 - 20);
    expect(row.promptTokens).toBe(250);
    expect(row.cachedPrefixTokens).toBe(200);
    expect(row.prefilledTokens).toBe(50);
    expect(row.tokens).toEqual({
      prompt: { p50: 250, mean: 250 },
      reused: { p50: 200, mean: 200 },
      prefilled: { p50: 50, mean: 50 },
      fed: { p50: 54, mean: 54 },
    });
    expect(row.answerCachedShare).toBe(0);
  });

  test("the table has a header and one line per agent", () => {
    const row = summarizeAgent(
      "squad",
      0,
      [sample(0, 50, 40)],
      { accepted: 1, rejected: 0, dropped: 0, errors: 0, restedMs: 0 },
      {
        fromMs: 0,
        toMs: 1000,
      },
    );
    const report = { agents: [row, { ...row, agent: "enemy-1", targetHz: 16 }] } as ArenaReport;
    const lines = formatArenaTable(report).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain("batch_wait");
    expect(lines[1]).toContain("cmd");
    expect(lines[2]).toContain("enemy-1");
  });
});

let rtool: RtoolProcess;

describe.skipIf(!hasModel)("headless arena against rtool-server with rt-tiny", () => {
  beforeAll(async () => {
    rtool = await startRtoolServer({ model: "rt-tiny", port: 0 });
    await rtool.ready(300_000);
  }, 320_000);
  afterAll(() => rtool?.stop(), 60_000);

  test("a few seconds give every agent a row with rates, round trips and the server's stages", async () => {
    const run = await runHeadlessArena({
      serverUrl: rtool.url,
      seconds: 4,
      warmupSeconds: 1,
      probeUrl: rtool.url,
    });
    expect(run.agents.map((a) => a.agent)).toEqual(["squad", ...ENEMY_IDS]);
    expect(run.frameHz).toBeGreaterThan(0);
    for (const row of run.agents) {
      expect(row.replies).toBeGreaterThan(0);
      expect(row.achievedHz).toBeGreaterThan(0);
      expect(row.latencyMs.p50).toBeLessThanOrEqual(row.latencyMs.p99);
      for (const stage of STAGES) expect(Number.isFinite(row.stagesMs[stage].p50)).toBe(true);
      expect(row.promptTokens).toBeGreaterThan(0);
      // The model's stages sit inside the server's time, which sits inside the round trip.
      expect(row.stagesMs.model.p50).toBeLessThanOrEqual(row.stagesMs.server.p50);
      expect(row.stagesMs.server.p50).toBeLessThanOrEqual(row.latencyMs.p99);
    }
    expect(Object.keys(STAGE_NOTES)).toEqual([...STAGES]);
    // The server probes: /health answered during the run, the cache was looked up and holds KV.
    expect(run.server!.healthMs.samples).toBeGreaterThan(0);
    expect(run.server!.healthMs.p50).toBeLessThanOrEqual(run.server!.healthMs.p99);
    expect(run.server!.prefixCache!.hits).toBeGreaterThan(0);
    expect(run.server!.prefixCache!.bytes).toBeGreaterThan(0);
  }, 120_000);
});
