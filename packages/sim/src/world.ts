/**
 * The shape every simulated world shares: the scenario's tools and system prompt, the state as
 * prompt text, calls applied as validated commands (or typed rejections), a call history in the
 * reference's `name(arg1,arg2)` form, a deterministic clock, and a JSON snapshot.
 */

import type { FunctionTool, ParameterSchema, ParameterType } from "@rtool/contract/calls";

/** A JSON Schema property of a tool parameter, as the scenario files write them (a contract parameter schema). */
export interface ToolParameterSchema extends ParameterSchema {
  type: ParameterType;
  description?: string;
  enum?: ReadonlyArray<string | number | boolean>;
}

/** An OpenAI-style function tool, exactly as in the scenario files: a contract `FunctionTool` with every field present. */
export interface ScenarioTool extends FunctionTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: {
      type: "object";
      properties: Record<string, ToolParameterSchema>;
      required: string[];
    };
  };
}

/** A call as the model (or a test) produces it. `null` or `undefined` args mean "not given". */
export interface ToolCall {
  function: string;
  args: Record<string, unknown>;
}

/** Something that happened in a world, stamped with the world clock in seconds. */
export interface WorldEvent {
  t: number;
  type: string;
  detail?: Record<string, unknown>;
}

/**
 * Why a call was refused. Schema codes come from argument validation, the others from a world's
 * rules; `field` names the argument concerned when there is one.
 */
export type RejectionCode =
  // schema
  | "unknown_tool"
  | "unknown_arg"
  | "missing_arg"
  | "bad_type"
  | "bad_enum"
  | "out_of_range"
  // robot arm
  | "unreachable"
  | "collision"
  | "in_motion"
  | "nothing_to_grip"
  | "already_holding"
  | "nothing_held"
  // avatar
  | "empty_text"
  // tower defense
  | "unknown_operator"
  | "not_deployed"
  | "nothing_deployed"
  | "unknown_position"
  | "already_there"
  | "unknown_stance"
  | "already_in_stance"
  | "unknown_skill"
  | "skill_on_cooldown"
  // arena, pong, flappy
  | "unknown_ship"
  | "destroyed"
  | "blocked_by_wall"
  | "fire_on_cooldown"
  | "at_bound"
  | "game_over";

/** A refused call: the world state is unchanged and the call is not added to the history. */
export interface Rejection {
  ok: false;
  code: RejectionCode;
  reason: string;
  field?: string;
}

/** An accepted call and the events it caused at once (later effects arrive from `step`). */
export interface Acceptance {
  ok: true;
  events: WorldEvent[];
}

export type ApplyResult = Acceptance | Rejection;

/**
 * A deterministic simulated world driven by tool calls.
 *
 * @example
 * const arm = createArm();
 * const result = arm.apply({ function: "move_to", args: { x: 300, y: 150, z: 50, speed: "slow" } });
 * if (!result.ok) throw new Error(result.reason);
 * arm.step(10);
 * arm.state().tip; // { x: 300, y: 150, z: 50 }
 */
export interface World<State> {
  /** The scenario's name, e.g. "robotic_arm". */
  readonly name: string;
  /** The scenario's tools, exactly as in the scenario file. */
  readonly tools: ScenarioTool[];
  /** The scenario's v2 system prompt. */
  readonly system: string;
  /** The state as the scenario examples' environment lines. */
  environment(): string[];
  /** The state as prompt text (the environment lines, one per line). */
  describe(): string;
  /** Validates and applies one call. */
  apply(call: ToolCall): ApplyResult;
  /** Accepted calls, oldest first, as `name(arg1,arg2)`. */
  history(): string[];
  /** Advances the world clock by `dtSeconds` and returns what happened meanwhile. */
  step(dtSeconds: number): WorldEvent[];
  /** A JSON-serialisable snapshot of the state. */
  state(): State;
}

/** Thrown when `step` gets a time that is negative, infinite or not a number. */
export class InvalidStepError extends RangeError {
  readonly dtSeconds: number;
  constructor(dtSeconds: number) {
    super(`step(dtSeconds) needs a finite time >= 0, got ${dtSeconds}`);
    this.name = "InvalidStepError";
    this.dtSeconds = dtSeconds;
  }
}

/** Throws {@link InvalidStepError} unless `dtSeconds` is a usable time step. */
export function checkStep(dtSeconds: number): void {
  if (!Number.isFinite(dtSeconds) || dtSeconds < 0) throw new InvalidStepError(dtSeconds);
}

/** Builds a rejection; a small helper so world rules read as one line each. */
export function reject(code: RejectionCode, reason: string, field?: string): Rejection {
  return field === undefined ? { ok: false, code, reason } : { ok: false, code, reason, field };
}

/** Builds an acceptance carrying the given events. */
export function accept(events: WorldEvent[] = []): Acceptance {
  return { ok: true, events };
}
