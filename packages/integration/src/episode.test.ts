import { describe, expect, test } from "bun:test";
import type { FunctionCallInput, FunctionCallReply } from "@rtool/client";
import { type ArmState, createArm, type ToolCall, type World } from "@rtool/sim";
import { type CallTransport, type Episode, runEpisode, wireTools } from "./episode";
import { armPickAndPlace } from "./scenario-episodes";

function reply(
  fn: string | null,
  args: Record<string, unknown>,
  valid = true,
  errors: string[] = [],
): FunctionCallReply {
  return {
    success: fn !== null,
    function: fn,
    args,
    heads: {},
    content: null,
    latency_ms: 1,
    error: errors[0] ?? null,
    valid,
    errors: errors.map((message) => ({ path: "args", message })),
    timings: {
      ...STAGES,
      prefill_ms: 0,
      decode_ms: 0,
      steps: 1,
      cached_prefix_tokens: 0,
      total_ms: 1,
      shared_steps: 0,
      prompt_tokens: 0,
      prefilled_tokens: 0,
      fed_tokens: 0,
      answer_cached: false,
    },
  };
}

/** The stage timings of a reply (all zero here). */
const STAGES = { queue_ms: 0, prepare_ms: 0, lane_wait_ms: 0, batch_wait_ms: 0, forward_ms: 0 };

/** A transport answering from a script, one reply per request, recording what it was sent. */
function scripted(replies: FunctionCallReply[]): CallTransport & { inputs: FunctionCallInput[] } {
  const inputs: FunctionCallInput[] = [];
  return {
    inputs,
    async functionCall(input) {
      inputs.push(input);
      const next = replies[inputs.length - 1];
      if (!next) throw new Error("script exhausted");
      return next;
    },
  };
}

/** The arm world with every call it receives recorded. */
function watchedArm(received: ToolCall[]): World<ArmState> {
  const arm = createArm();
  const apply = (call: ToolCall) => {
    received.push(call);
    return arm.apply(call);
  };
  return { ...arm, apply };
}

function armEpisode(received: ToolCall[]): Episode<ArmState> {
  return { ...armPickAndPlace, createWorld: () => watchedArm(received) };
}

const SOLUTION = [
  reply("move_to", { x: 300, y: 150, z: 50, speed: "slow" }),
  reply("grip", { force: 50 }),
  reply("move_to", { x: 300, y: 150, z: 250, speed: null }),
  reply("move_to", { x: 600, y: 0, z: 150 }),
  reply("release", {}),
  reply("home", {}),
];

describe("runEpisode", () => {
  test("plays the calls into the world and asks each step from the world's new state", async () => {
    const transport = scripted(SOLUTION);
    const result = await runEpisode(armPickAndPlace, transport);
    expect(result.completed).toBe(true);
    expect(result.failure).toBeNull();
    expect(result.requests).toBe(6);
    expect(result.steps.map((s) => s.outcome)).toEqual(Array(6).fill("applied"));
    expect(result.finalState.objects[0]).toMatchObject({ name: "red gear", location: "tray" });
    expect(result.history).toEqual([
      "move_to(300,150,50,slow)",
      "grip(50)",
      "move_to(300,150,250)",
      "move_to(600,0,150)",
      "release()",
      "home()",
    ]);
    // Request 2 carries the world after call 1 (tip on the gear, call in the history).
    expect(transport.inputs[1]!.history).toEqual(["move_to(300,150,50,slow)"]);
    expect(transport.inputs[1]!.environment![0]).toBe("Arm above the red gear, gripper open");
    expect(transport.inputs[0]!.system).toBe(createArm().system);
    expect(transport.inputs[0]!.tools).toEqual(wireTools(createArm().tools));
  });

  test("v1 requests carry no system prompt", async () => {
    const transport = scripted(SOLUTION);
    await runEpisode(armPickAndPlace, transport, { version: "v1" });
    expect(transport.inputs[0]!.system).toBeUndefined();
  });

  test("a reported validation error reaches nothing and stops the episode at that step", async () => {
    const received: ToolCall[] = [];
    const transport = scripted([reply("move_to", { x: 300 }, false, ["move_to needs y"])]);
    const result = await runEpisode(armEpisode(received), transport);
    expect(received).toEqual([]);
    expect(result.completed).toBe(false);
    expect(result.failedStep).toBe(1);
    expect(result.steps[0]!.outcome).toBe("invalid");
    expect(result.failure).toContain("step 1 (go to the gear)");
    expect(result.failure).toContain("move_to needs y");
    expect(result.requests).toBe(1);
  });

  test("a reply that claims validity but breaks the schema never reaches the world", async () => {
    const received: ToolCall[] = [];
    const transport = scripted([
      reply("move_to", { x: "300", y: 150, z: 50 }),
      reply("teleport", {}),
      reply("grip", {}),
      reply(null, {}, false, []),
      reply("rotate", { axis: "spin", angle: 5 }),
      reply("home", { force: 1 }),
    ]);
    const result = await runEpisode(armEpisode(received), transport, { continueAfterFailure: true });
    expect(received).toEqual([]);
    expect(result.steps.map((s) => s.outcome)).toEqual(Array(6).fill("malformed"));
    const reasons = result.steps.map((s) =>
      s.verdict?.kind === "malformed" ? s.verdict.rejection?.code : null,
    );
    expect(reasons).toEqual([
      "bad_type",
      "unknown_tool",
      "missing_arg",
      undefined,
      "bad_enum",
      "unknown_arg",
    ]);
  });

  test("a world's refusal is recorded with its typed code and leaves the state alone", async () => {
    const received: ToolCall[] = [];
    const transport = scripted([reply("grip", { force: 50 })]);
    const result = await runEpisode(armEpisode(received), transport);
    expect(received).toEqual([{ function: "grip", args: { force: 50 } }]);
    expect(result.steps[0]!.outcome).toBe("rejected");
    expect(result.steps[0]!.rejection).toMatchObject({ code: "nothing_to_grip" });
    expect(result.finalState.gripper).toBe("open");
    expect(result.history).toEqual([]);
    expect(result.failure).toContain("nothing_to_grip");
  });

  test("an accepted call with the wrong effect fails its step (state, not function name)", async () => {
    // grip(10) is a grip, but below the medium gear's 30 N window: it slips.
    const transport = scripted([SOLUTION[0]!, reply("grip", { force: 10 })]);
    const result = await runEpisode(armPickAndPlace, transport);
    expect(result.steps[1]!.outcome).toBe("applied");
    expect(result.steps[1]!.expectationMet).toBe(false);
    expect(result.failedStep).toBe(2);
    expect(result.failure).toContain("the red gear held");
  });

  test("a server that never answers costs one deadline per step, never more requests than steps", async () => {
    let requests = 0;
    const silent: CallTransport = {
      functionCall: (_input, options) => {
        requests += 1;
        return new Promise((_, reject) =>
          options?.signal?.addEventListener("abort", () => reject(new Error("aborted by the runner"))),
        );
      },
    };
    const stopped = await runEpisode(armPickAndPlace, silent, { callTimeoutMs: 20 });
    expect(stopped.steps[0]!.outcome).toBe("transport_error");
    expect(stopped.steps[0]!.transportError?.name).toBe("EpisodeCallTimeoutError");
    expect(stopped.requests).toBe(1);
    const all = await runEpisode(armPickAndPlace, silent, { callTimeoutMs: 20, continueAfterFailure: true });
    expect(all.requests).toBe(armPickAndPlace.steps.length);
    expect(requests).toBe(1 + armPickAndPlace.steps.length);
  });
});
