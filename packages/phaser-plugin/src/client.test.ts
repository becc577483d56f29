import { describe, expect, test } from "bun:test";
import { AgentClient } from "./client";
import type { RtoolEvents } from "./events";
import {
  type CallReply,
  RequestRejectedError,
  type SendOptions,
  ServerUnavailableError,
  type Transport,
  type TransportRequest,
} from "./transport";

/** A transport whose replies the test resolves by hand, one pending request at a time. */
class ScriptedTransport implements Transport {
  readonly requests: Array<{
    request: TransportRequest;
    options: SendOptions;
    resolve: (reply: CallReply) => void;
    reject: (error: unknown) => void;
  }> = [];

  send(request: TransportRequest, options: SendOptions = {}): Promise<CallReply> {
    return new Promise((resolve, reject) => {
      options.signal?.addEventListener("abort", () =>
        reject(Object.assign(new Error("aborted"), { name: "AbortError" })),
      );
      this.requests.push({ request, options, resolve, reject });
    });
  }

  get last() {
    return this.requests[this.requests.length - 1]!;
  }
}

const reply = (fn: string | null, args: Record<string, unknown> = {}): CallReply => ({
  success: fn !== null,
  function: fn,
  args,
  heads: { function: fn ?? "<|null|>" },
  latency_ms: 5,
  valid: fn !== null,
  errors: [],
});

const moveTool = {
  name: "move",
  parameters: {
    type: "object" as const,
    properties: { direction: { type: "string" as const, enum: ["up", "down", "left", "right"] } },
    required: ["direction"],
  },
};

/** A client on a hand-driven clock, recording every event. */
function setup(options: { dispatch?: "reply" | "update" } = {}) {
  const clock = { t: 1000 };
  const transport = new ScriptedTransport();
  const client = new AgentClient({
    transport,
    now: () => clock.t,
    backoff: { initialMs: 100, maxMs: 1000, jitter: 0 },
    dispatch: options.dispatch,
  });
  const log: Array<{ type: keyof RtoolEvents; payload: unknown }> = [];
  for (const type of ["call", "head", "rejected", "error", "latency", "status", "dropped"] as const) {
    client.on(type, (payload) => log.push({ type, payload }));
  }
  const moves: string[] = [];
  client.tool(moveTool, ({ direction }) => {
    moves.push(direction as string);
  });
  const events = (type: keyof RtoolEvents) =>
    log.filter((entry) => entry.type === type).map((e) => e.payload);
  return { clock, transport, client, moves, events };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("scheduling", () => {
  test("an agent sends at most rateHz requests a second and one at a time", async () => {
    const { clock, transport, client } = setup();
    client.agent({ name: "ship", rateHz: 16, environment: () => ["pos=1,1"] });
    client.update();
    expect(transport.requests.length).toBe(1);
    // Still in flight: frames pass, no second request.
    for (let i = 0; i < 10; i++) {
      clock.t += 16;
      client.update();
    }
    expect(transport.requests.length).toBe(1);
    transport.last.resolve(reply("move", { direction: "up" }));
    await settle();
    // The reply came after the period, so the next request goes at once.
    expect(transport.requests.length).toBe(2);
    transport.last.resolve(reply("move", { direction: "up" }));
    await settle();
    // A fast reply: the next request waits for the 62.5 ms period.
    expect(transport.requests.length).toBe(2);
    clock.t += 30;
    client.update();
    expect(transport.requests.length).toBe(2);
    clock.t += 33;
    client.update();
    expect(transport.requests.length).toBe(3);
  });

  test("over one simulated second at 60 fps with instant replies, a 16 Hz agent sends 16 requests", async () => {
    const { clock, transport, client } = setup();
    client.agent({ name: "ship", rateHz: 16 });
    for (let frame = 0; frame < 60; frame++) {
      client.update();
      while (transport.requests.some((r) => !("done" in r))) {
        const pending = transport.requests.find((r) => !("done" in r))!;
        Object.assign(pending, { done: true });
        pending.resolve(reply("move", { direction: "left" }));
        await settle();
      }
      clock.t += 1000 / 60;
    }
    expect(transport.requests.length).toBe(16);
  });

  test("each request reads the environment when it is sent, so the newest state wins", async () => {
    const { clock, transport, client } = setup();
    let x = 0;
    client.agent({ name: "ship", rateHz: 10, environment: () => [`x=${x}`], query: "Fire if aligned." });
    client.update();
    x = 5; // changes while the first request is out: that request keeps its snapshot
    clock.t += 500;
    client.update();
    expect(transport.requests.length).toBe(1);
    x = 9;
    transport.last.resolve(reply("move", { direction: "up" }));
    await settle();
    expect(transport.requests.map((r) => r.request.environment)).toEqual([["x=0"], ["x=9"]]);
    expect(transport.last.request.query).toBe("Fire if aligned.");
  });

  test("rateHz 0 agents never send on their own; stop() pauses a loop and start() resumes it", async () => {
    const { clock, transport, client } = setup();
    client.agent({ name: "squad", rateHz: 0 });
    const ship = client.agent({ name: "ship", rateHz: 16, autoStart: false });
    client.update();
    clock.t += 1000;
    client.update();
    expect(transport.requests.length).toBe(0);
    ship.start();
    client.update();
    expect(transport.requests.map((r) => r.request.query)).toEqual(["Act now."]);
  });
});

describe("stale replies", () => {
  test("a loop reply slower than staleAfterMs is dropped, not dispatched", async () => {
    const { clock, transport, client, moves, events } = setup();
    client.agent({ name: "ship", rateHz: 16, staleAfterMs: 200 });
    client.update();
    clock.t += 250;
    transport.last.resolve(reply("move", { direction: "up" }));
    await settle();
    expect(moves).toEqual([]);
    expect(events("dropped")).toEqual([{ agent: "ship", source: "tick", reason: "stale" }]);
    expect(client.getAgent("ship")!.stats().dropped).toBe(1);
  });

  test("invalidate() aborts the request in flight and a reply still arriving is ignored", async () => {
    const { transport, client, moves, events } = setup();
    const ship = client.agent({ name: "ship", rateHz: 16 });
    client.update();
    const first = transport.last;
    ship.invalidate();
    expect(first.options.signal!.aborted).toBe(true);
    first.resolve(reply("move", { direction: "up" }));
    await settle();
    expect(moves).toEqual([]);
    expect(events("dropped")).toEqual([{ agent: "ship", source: "tick", reason: "invalidated" }]);
  });

  test("a reply for a stopped loop is dropped", async () => {
    const { transport, client, moves, events } = setup();
    const ship = client.agent({ name: "ship", rateHz: 16 });
    client.update();
    ship.stop();
    transport.last.resolve(reply("move", { direction: "up" }));
    await settle();
    expect(moves).toEqual([]);
    expect(events("dropped")).toMatchObject([{ reason: "stopped" }]);
  });

  test("a player command preempts the agent's loop request in flight", async () => {
    const { transport, client, moves, events } = setup();
    client.agent({ name: "ship", rateHz: 16 });
    client.update();
    const tick = transport.last;
    const outcome = client.command("go down");
    expect(tick.options.signal!.aborted).toBe(true);
    expect(transport.requests.length).toBe(2);
    expect(transport.last.request.query).toBe("go down");
    tick.resolve(reply("move", { direction: "up" }));
    transport.last.resolve(reply("move", { direction: "down" }));
    expect(await outcome).toEqual({ ok: true, function: "move", args: { direction: "down" } });
    expect(moves).toEqual(["down"]);
    expect(events("dropped")).toMatchObject([{ reason: "superseded", source: "tick" }]);
  });

  test("commands queue and run in order, one at a time", async () => {
    const { transport, client, moves } = setup();
    client.agent({ name: "squad", rateHz: 0 });
    const a = client.command("left");
    const b = client.command("right");
    expect(transport.requests.length).toBe(1);
    transport.last.resolve(reply("move", { direction: "left" }));
    await a;
    expect(transport.requests.length).toBe(2);
    transport.last.resolve(reply("move", { direction: "right" }));
    await b;
    expect(moves).toEqual(["left", "right"]);
  });
});

describe("validation and dispatch", () => {
  test("a call that breaks the registered schema is rejected and its handler never runs", async () => {
    const { transport, client, moves, events } = setup();
    const outcome = client.command("go north");
    transport.last.resolve(reply("move", { direction: "north" }));
    expect(await outcome).toMatchObject({ ok: false, code: "bad_enum", field: "direction" });
    expect(moves).toEqual([]);
    expect(events("rejected")).toMatchObject([
      { agent: "player", source: "command", query: "go north", function: "move", code: "bad_enum" },
    ]);
  });

  test("unknown functions, server-flagged invalid calls and game refusals are rejected with reasons", async () => {
    const { transport, client, events } = setup();
    client.tool({ name: "fire", parameters: { type: "object", properties: {} } }, () => ({
      ok: false,
      code: "fire_on_cooldown",
      reason: "wait 0.3 s",
    }));
    const unknown = client.command("jump");
    transport.last.resolve(reply("jump"));
    expect(await unknown).toMatchObject({ ok: false, code: "unknown_tool" });
    const invalid = client.command("move");
    transport.last.resolve({
      ...reply("move", {}),
      success: false,
      valid: false,
      errors: [{ path: "args.direction", message: "required" }],
    });
    expect(await invalid).toMatchObject({
      ok: false,
      code: "server_invalid",
      reason: "args.direction: required",
    });
    const refused = client.command("fire");
    transport.last.resolve(reply("fire"));
    expect(await refused).toMatchObject({
      ok: false,
      code: "handler",
      reason: "fire_on_cooldown: wait 0.3 s",
    });
    expect(events("rejected").length).toBe(3);
    expect(events("call").length).toBe(0);
  });

  test("accepted calls emit call with heads and latency and feed the agent's history", async () => {
    const { clock, transport, client, events } = setup();
    client.agent({ name: "ship", rateHz: 16 });
    client.update();
    clock.t += 40;
    transport.last.resolve(reply("move", { direction: "up" }));
    await settle();
    expect(events("call")).toEqual([
      {
        agent: "ship",
        source: "tick",
        query: "Act now.",
        function: "move",
        args: { direction: "up" },
        heads: { function: "move" },
        latencyMs: 40,
        serverLatencyMs: 5,
        // the fake server sends no stage timings
        timings: null,
      },
    ]);
    expect(events("latency")).toMatchObject([{ agent: "ship", ms: 40 }]);
    clock.t += 100;
    client.update();
    expect(transport.last.request.history).toEqual(["move(up)"]);
  });

  test("streamed heads are emitted as head events before the call", async () => {
    const { transport, client, events } = setup();
    const outcome = client.command("up");
    transport.last.options.onHead!({ head: "function", text: "move", done: true });
    expect(events("head")).toEqual([
      { agent: "player", source: "command", head: "function", text: "move", done: true },
    ]);
    transport.last.resolve(reply("move", { direction: "up" }));
    await outcome;
  });

  test("in update mode handlers run inside update(), and the next request follows the applied call", async () => {
    const { clock, transport, client, moves } = setup({ dispatch: "update" });
    let applied = 0;
    client.agent({ name: "ship", rateHz: 16, environment: () => [`applied=${applied}`] });
    client.on("call", () => {
      applied += 1;
    });
    client.update();
    clock.t += 100;
    transport.last.resolve(reply("move", { direction: "up" }));
    await settle();
    expect(moves).toEqual([]);
    expect(transport.requests.length).toBe(1);
    client.update();
    expect(moves).toEqual(["up"]);
    expect(transport.last.request.environment).toEqual(["applied=1"]);
  });

  test("a throwing handler is reported as an error and does not stop the client", async () => {
    const { transport, client, events } = setup();
    client.tool({ name: "boom", parameters: { type: "object", properties: {} } }, () => {
      throw new Error("kaput");
    });
    const outcome = client.command("boom");
    transport.last.resolve(reply("boom"));
    expect(await outcome).toMatchObject({ ok: false, code: "handler_error", reason: "kaput" });
    expect((events("error")[0] as { error: Error }).error.message).toBe("kaput");
  });
});

describe("server down", () => {
  test("failures back off exponentially with one probe at a time, then recover to online", async () => {
    const { clock, transport, client, events, moves } = setup();
    client.agent({ name: "a", rateHz: 16 });
    client.agent({ name: "b", rateHz: 16 });
    client.update();
    expect(transport.requests.length).toBe(2);
    expect(client.status).toBe("connecting");
    transport.requests[0]!.reject(new ServerUnavailableError("connection refused", null));
    transport.requests[1]!.reject(new ServerUnavailableError("connection refused", null));
    await settle();
    expect(client.status).toBe("offline");
    expect(events("status")).toMatchObject([
      { status: "offline", retryInMs: 100, failures: 1 },
      { status: "offline", retryInMs: 200, failures: 2 },
    ]);
    clock.t += 150;
    client.update();
    expect(transport.requests.length).toBe(2); // still backing off (200 ms)
    clock.t += 60;
    client.update();
    expect(transport.requests.length).toBe(3); // one probe, not one per agent
    clock.t += 500;
    client.update();
    expect(transport.requests.length).toBe(3);
    transport.last.reject(new ServerUnavailableError("server answered 503", 503));
    await settle();
    expect(client.retryInMs()).toBe(400);
    clock.t += 400;
    client.update();
    expect(transport.requests.length).toBe(4);
    transport.last.resolve(reply("move", { direction: "up" }));
    await settle();
    expect(client.status).toBe("online");
    expect(events("status").at(-1)).toMatchObject({ status: "online", failures: 0 });
    expect(moves).toEqual(["up"]);
    clock.t += 100;
    client.update();
    expect(transport.requests.length).toBe(6); // both agents run again
  });

  test("Retry-After sets the least wait, and a command is retried then given up", async () => {
    const { clock, transport, client } = setup();
    const outcome = client.command("up");
    transport.last.reject(new ServerUnavailableError("429", 429, 2000));
    await settle();
    expect(client.retryInMs()).toBe(2000);
    clock.t += 2000;
    client.update();
    transport.last.reject(new ServerUnavailableError("503", 503));
    await settle();
    clock.t += 5000;
    client.update();
    transport.last.reject(new ServerUnavailableError("503", 503));
    expect(await outcome).toMatchObject({ ok: false, code: "unavailable" });
    expect(transport.requests.length).toBe(3);
  });

  test("a refused request pauses only its agent and is not retried", async () => {
    const { clock, transport, client } = setup();
    client.agent({ name: "ship", rateHz: 16 });
    client.update();
    transport.last.reject(new RequestRejectedError("422 bad tools", 422, "unsupported_tools", "tools"));
    await settle();
    expect(client.status).toBe("connecting");
    clock.t += 500;
    client.update();
    expect(transport.requests.length).toBe(1);
    clock.t += 600;
    client.update();
    expect(transport.requests.length).toBe(2);
  });

  test("a request with no reply within requestTimeoutMs counts as the server being down", async () => {
    const transport = new ScriptedTransport();
    const client = new AgentClient({ transport, requestTimeoutMs: 5 });
    client.tool(moveTool, () => {});
    const outcome = client.command("up", {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.status).toBe("offline");
    client.destroy();
    expect(await outcome).toMatchObject({ ok: false });
  });
});
