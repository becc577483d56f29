/**
 * Early dispatch: with heads streamed as they finish, the handler can start as soon as the
 * function head and the argument heads it cannot do without (the required ones) are final,
 * while other heads (optional arguments, the free-text content head) are still decoding. The
 * head-start is the time from the handler's start to the arrival of the complete call.
 */
import { headValueText } from "../calls/head-value";
import { mapHeadsToCall } from "../calls/map-heads";
import type { HeadName } from "../prompt/heads";
import {
  type CallToExecute,
  type ErrorInfo,
  type ExecutionFailure,
  type ExecutionResult,
  errorInfo,
} from "./execution-result";
import type { ToolRegistry } from "./registry";

/** A streamed event: a finished head (`text` null or `<|null|>` when unused), or the call. */
export type StreamEvent = { head: string; text: string | null; done?: boolean } | { call: CallToExecute };

/** Options of early dispatch. */
export interface EarlyDispatchOptions {
  /**
   * Also wait for the chosen tool's optional argument heads (default false: the handler starts
   * without them, and values they bring later are listed in `lateArgs`).
   */
  waitForOptional?: boolean;
}

/** What early dispatch did. */
export interface EarlyDispatchResult {
  result: ExecutionResult;
  /** The complete call the stream ended with; null when it ended (or failed) without one. */
  call: CallToExecute | null;
  /** The handler started before the complete call arrived. */
  early: boolean;
  /** How much sooner (ms) the handler started than the complete call arrived; 0 when not early. */
  headStartMs: number;
  /** Arguments of the complete call the handler did not get (optional heads that finished later). */
  lateArgs: string[];
  /**
   * False when the complete call disagrees with what was dispatched (another function, another
   * value for a dispatched argument, or invalid): the handler acted on a call the decoder did not confirm.
   */
  consistent: boolean;
  /** The stream's failure, when it threw. */
  streamError?: ErrorInfo;
}

interface Dispatched {
  function: string;
  args: Record<string, unknown>;
  at: number;
  result: Promise<ExecutionResult>;
}

/**
 * Reads `events`, runs the call through `run` as early as the heads allow, and reports the head-start.
 *
 * @example
 * ```ts
 * const early = await dispatchEarly(registry, caller.stream(request), (call) => executor.execute(call));
 * early.headStartMs; // e.g. 38.2: the handler started while the content head was still decoding
 * ```
 */
export async function dispatchEarly(
  registry: ToolRegistry,
  events: AsyncIterable<StreamEvent>,
  run: (call: CallToExecute) => Promise<ExecutionResult>,
  options: EarlyDispatchOptions = {},
): Promise<EarlyDispatchResult> {
  const heads: Partial<Record<HeadName, string | null>> = {};
  let dispatched: Dispatched | null = null;
  let call: CallToExecute | null = null;
  let callAt = 0;
  let streamError: ErrorInfo | undefined;
  try {
    for await (const event of events) {
      if ("call" in event) {
        call = event.call;
        callAt = performance.now();
        break;
      }
      if (event.done === false) continue;
      heads[event.head as HeadName] = event.text;
      dispatched ??= tryDispatch(registry, heads, run, options);
    }
  } catch (error) {
    streamError = errorInfo(error);
  }

  if (dispatched) {
    const result = await dispatched.result;
    const early = call !== null;
    return {
      result,
      call,
      early,
      headStartMs: early ? Math.max(0, callAt - dispatched.at) : 0,
      lateArgs: call ? Object.keys(call.args ?? {}).filter((name) => !(name in dispatched!.args)) : [],
      consistent: call ? agrees(dispatched, call) : true,
      ...(streamError ? { streamError } : {}),
    };
  }
  const result = call ? await run(call) : noCall(streamError);
  return {
    result,
    call,
    early: false,
    headStartMs: 0,
    lateArgs: [],
    consistent: true,
    ...(streamError ? { streamError } : {}),
  };
}

function tryDispatch(
  registry: ToolRegistry,
  heads: Partial<Record<HeadName, string | null>>,
  run: (call: CallToExecute) => Promise<ExecutionResult>,
  options: EarlyDispatchOptions,
): Dispatched | null {
  const name = headValueText(heads.function);
  const tool = name === null ? undefined : registry.get(name);
  if (!tool) return null;
  const needed = tool.spec.parameters.filter((p) => p.required || options.waitForOptional);
  const ready = needed.every((p) => `arg${tool.spec.parameters.indexOf(p) + 1}` in heads);
  if (!ready) return null;
  // Heads not yet finished read as "not given"; only optional ones can be among them here.
  const mapped = mapHeadsToCall(heads, [tool.spec]);
  if (!mapped.valid || mapped.function === null) return null;
  const args = mapped.args;
  return {
    function: mapped.function,
    args,
    at: performance.now(),
    result: run({ function: mapped.function, args }),
  };
}

function agrees(dispatched: Dispatched, call: CallToExecute): boolean {
  if (call.valid === false || call.function !== dispatched.function) return false;
  const finalArgs = call.args ?? {};
  return Object.entries(dispatched.args).every(([name, value]) => Object.is(finalArgs[name], value));
}

function noCall(streamError: ErrorInfo | undefined): ExecutionFailure {
  const now = Date.now();
  return {
    ok: false,
    status: "no_call",
    message: streamError
      ? `the head stream failed before its call: ${streamError.message}`
      : "the head stream ended without a call",
    callId: crypto.randomUUID(),
    tool: null,
    args: {},
    isolated: false,
    timings: { startedAt: now, queuedMs: 0, handlerMs: 0, totalMs: 0 },
  };
}
