/**
 * Episodes: a list of spoken commands, each with the effect it should have on a simulated world,
 * played through a real rtool-server. Every step sends one request built from the world as it is
 * now (its tools, system prompt, `environment()` and `history()`), judges the reply without
 * trusting the server, hands the world only a call that is valid, lets world time pass, and checks
 * the world's state. The loop is bounded: one request per step, each under a deadline.
 */
import type {
  CallOptions,
  FunctionCallInput,
  FunctionCallReply,
  RouteVersion,
  FunctionTool as WireTool,
} from "@rtool/client";
import type { RejectionCode, ScenarioTool, World, WorldEvent } from "@rtool/sim";
import { checkReply, formatCall, type ReplyVerdict } from "./reply-check";

/** What the runner needs from a client; `RtoolClient` is one. */
export interface CallTransport {
  functionCall(input: FunctionCallInput, options?: CallOptions): Promise<FunctionCallReply>;
}

/** A condition on a world's state, with the words a report shows for it. */
export interface StateExpectation<S> {
  description: string;
  check(state: S): boolean;
}

/** One spoken command and the effect it should have. */
export interface EpisodeStep<S> {
  /** Short name for reports, e.g. "grip (medium)". */
  name: string;
  /** The command as the user says it (the request's query). */
  command: string;
  /** The state the world should be in after the call and `settleS` of world time. */
  expect: StateExpectation<S>;
  /** World seconds to run after the call (a move finishing, a bullet flying); default 0. */
  settleS?: number;
}

/** A scenario's multi-step task. */
export interface Episode<S> {
  name: string;
  /** The scenario file it belongs to, e.g. "robotic_arm". */
  scenario: string;
  /** A fresh world in the episode's starting state. */
  createWorld(): World<S>;
  steps: EpisodeStep<S>[];
  /** What the whole episode should leave behind, e.g. "the gear is in the tray". */
  outcome: StateExpectation<S>;
}

/** What became of one step's request. */
export type StepOutcome =
  /** The reply was a valid call and the world accepted it. */
  | "applied"
  /** The reply was a valid call and the world refused it with a typed reason. */
  | "rejected"
  /** The server reported a validation error; nothing reached the world. */
  | "invalid"
  /** The reply broke the contract (see {@link checkReply}); nothing reached the world. */
  | "malformed"
  /** No reply: timeout, network or HTTP error; nothing reached the world. */
  | "transport_error";

/** The record of one step. */
export interface StepRecord<S> {
  /** 1-based. */
  index: number;
  name: string;
  command: string;
  /** The environment and history the request carried. */
  environment: string[];
  history: string[];
  outcome: StepOutcome;
  /** The reply's call as `name(args)`, when there was a reply. */
  call: string | null;
  /** The server's verdict, the world's rejection, or the transport error. */
  verdict: ReplyVerdict | null;
  rejection: { code: RejectionCode; reason: string; field?: string } | null;
  transportError: { name: string; message: string } | null;
  /** Server-side latency and timings, when there was a reply. */
  latencyMs: number | null;
  /** Request to reply, as this process saw it. */
  clientMs: number;
  /** Events from the call and from the settle time. */
  events: WorldEvent[];
  expectationMet: boolean;
  state: S;
}

/** The record of one episode. */
export interface EpisodeResult<S> {
  episode: string;
  scenario: string;
  version: RouteVersion;
  /** Every step met its expectation and the outcome holds. */
  completed: boolean;
  /** 1-based index of the first step whose expectation failed; null when none did. */
  failedStep: number | null;
  /** Why it failed, in words; null when it completed. */
  failure: string | null;
  outcomeMet: boolean;
  steps: StepRecord<S>[];
  /** Requests sent; never more than the episode's steps. */
  requests: number;
  finalState: S;
  history: string[];
}

/** Options of {@link runEpisode}. */
export interface RunEpisodeOptions {
  /** Prompt format / route; default "v2". */
  version?: RouteVersion;
  /** Deadline of each request in ms, enforced here whatever the transport does; default 60 000. */
  callTimeoutMs?: number;
  /** Tokens per head; default the server's. */
  maxTokens?: number;
  /** Keep going after a failed step (to see every step's reply); default false. */
  continueAfterFailure?: boolean;
}

/** A request that did not answer within {@link RunEpisodeOptions.callTimeoutMs}. */
export class EpisodeCallTimeoutError extends Error {
  readonly step: number;
  readonly timeoutMs: number;
  constructor(step: number, timeoutMs: number) {
    super(`step ${step}: no reply within ${timeoutMs} ms`);
    this.name = "EpisodeCallTimeoutError";
    this.step = step;
    this.timeoutMs = timeoutMs;
  }
}

/** A world's tools as the client sends them: a scenario tool is a contract function tool, so a copy of the list. */
export function wireTools(tools: readonly ScenarioTool[]): WireTool[] {
  return [...tools];
}

async function callWithDeadline(
  transport: CallTransport,
  input: FunctionCallInput,
  options: CallOptions,
  step: number,
  timeoutMs: number,
): Promise<FunctionCallReply> {
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Settle first, so the deadline wins the race over the transport's own abort error.
      reject(new EpisodeCallTimeoutError(step, timeoutMs));
      abort.abort();
    }, timeoutMs);
  });
  try {
    return await Promise.race([
      transport.functionCall(input, { ...options, signal: abort.signal, timeoutMs }),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Plays an episode against a server through `transport`.
 *
 * @example
 * ```ts
 * const rtool = new RtoolClient({ baseUrl: url });
 * const result = await runEpisode(armPickAndPlace, rtool);
 * result.completed; // true when the gear ended in the tray, step by step as planned
 * result.steps.map((s) => `${s.call} -> ${s.outcome}`);
 * ```
 */
export async function runEpisode<S>(
  episode: Episode<S>,
  transport: CallTransport,
  options: RunEpisodeOptions = {},
): Promise<EpisodeResult<S>> {
  const version = options.version ?? "v2";
  const timeoutMs = options.callTimeoutMs ?? 60_000;
  const world = episode.createWorld();
  const steps: StepRecord<S>[] = [];
  let failedStep: number | null = null;
  let failure: string | null = null;
  let requests = 0;

  for (const [i, step] of episode.steps.entries()) {
    const index = i + 1;
    const environment = world.environment();
    const history = world.history();
    const input: FunctionCallInput = {
      query: step.command,
      tools: wireTools(world.tools),
      environment,
      history,
      ...(version === "v2" ? { system: world.system } : {}),
      ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
    };
    const started = performance.now();
    let reply: FunctionCallReply | null = null;
    let transportError: StepRecord<S>["transportError"] = null;
    requests += 1;
    try {
      reply = await callWithDeadline(transport, input, { version }, index, timeoutMs);
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      transportError = { name: e.name, message: e.message };
    }
    const clientMs = performance.now() - started;

    const verdict = reply ? checkReply(world.tools, reply) : null;
    const events: WorldEvent[] = [];
    let rejection: StepRecord<S>["rejection"] = null;
    let outcome: StepOutcome;
    if (!verdict) outcome = "transport_error";
    else if (verdict.kind === "reported_error") outcome = "invalid";
    else if (verdict.kind === "malformed") outcome = "malformed";
    else {
      const applied = world.apply(verdict.call);
      if (applied.ok) {
        outcome = "applied";
        events.push(...applied.events);
      } else {
        outcome = "rejected";
        rejection = applied.field
          ? { code: applied.code, reason: applied.reason, field: applied.field }
          : { code: applied.code, reason: applied.reason };
      }
    }
    if (step.settleS) events.push(...world.step(step.settleS));
    const state = world.state();
    const expectationMet = step.expect.check(state);
    const call = reply ? formatCall({ function: reply.function, args: reply.args }) : null;
    steps.push({
      index,
      name: step.name,
      command: step.command,
      environment,
      history,
      outcome,
      call,
      verdict,
      rejection,
      transportError,
      latencyMs: reply?.latency_ms ?? null,
      clientMs,
      events,
      expectationMet,
      state,
    });
    if (!expectationMet && failedStep === null) {
      failedStep = index;
      failure = describeFailure(index, step, outcome, call, rejection, transportError, verdict);
      if (!options.continueAfterFailure) break;
    }
  }

  const finalState = world.state();
  const outcomeMet = episode.outcome.check(finalState);
  if (failure === null && !outcomeMet) failure = `outcome not reached: ${episode.outcome.description}`;
  return {
    episode: episode.name,
    scenario: episode.scenario,
    version,
    completed: failedStep === null && outcomeMet,
    failedStep,
    failure,
    outcomeMet,
    steps,
    requests,
    finalState,
    history: world.history(),
  };
}

function describeFailure<S>(
  index: number,
  step: EpisodeStep<S>,
  outcome: StepOutcome,
  call: string | null,
  rejection: StepRecord<S>["rejection"],
  transportError: StepRecord<S>["transportError"],
  verdict: ReplyVerdict | null,
): string {
  const head = `step ${index} (${step.name}): wanted ${step.expect.description}`;
  switch (outcome) {
    case "transport_error":
      return `${head}; no reply (${transportError?.name}: ${transportError?.message})`;
    case "invalid": {
      const errors =
        verdict?.kind === "reported_error" ? verdict.errors.map((e) => e.message).join("; ") : "";
      return `${head}; the model's call ${call} failed validation (${errors})`;
    }
    case "malformed":
      return `${head}; malformed reply ${call} (${verdict?.kind === "malformed" ? verdict.reason : ""})`;
    case "rejected":
      return `${head}; the world refused ${call} (${rejection?.code}: ${rejection?.reason})`;
    default:
      return `${head}; the model called ${call}, which the world accepted, but the state differs`;
  }
}
