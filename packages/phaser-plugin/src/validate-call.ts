/**
 * Checks a call against the registered tool's schema before any handler runs: the server has
 * its own checks, but a game must never act on a call its own schema would refuse (a server
 * from another version, a different tool set, a proxy that rewrote the body).
 */
import { type CallCheckCode, checkCall, type FunctionTool } from "@rtool/contract/calls";

/** Arguments that passed validation: given values only, typed by the schema. */
export type CallArgs = Record<string, string | number | boolean>;

/**
 * Why a call was refused before its handler ran: the contract validator's codes (a non-object
 * `args` counts as `bad_type`), the server's verdict, or the game's handler.
 */
export type CallRejectionCode = Exclude<CallCheckCode, "bad_args"> | "server_invalid" | "handler";

/** A refused call: the code, a sentence, and the argument concerned when there is one. */
export interface CallRejection {
  ok: false;
  code: CallRejectionCode;
  reason: string;
  field?: string;
}

/** A call that passed validation. */
export interface ValidCall {
  ok: true;
  function: string;
  args: CallArgs;
}

/**
 * Validates `args` for `functionName` against the registered tools with the call contract's
 * `checkCall` (the validator core's executor and the simulated worlds use too), refusing on its
 * first issue. `null` and `undefined` values mean "not given" and are dropped; nothing is coerced
 * (`"50"` is not a number).
 *
 * @example
 * validateCall(tools, "move", { direction: "up" }); // { ok: true, function: "move", args: { direction: "up" } }
 * validateCall(tools, "move", { direction: "north" }); // { ok: false, code: "bad_enum", field: "direction", ... }
 */
export function validateCall(
  tools: ReadonlyMap<string, FunctionTool>,
  functionName: string | null | undefined,
  args: Record<string, unknown> | null | undefined,
): ValidCall | CallRejection {
  const checked = checkCall(tools, functionName, args);
  if (checked.ok) return { ok: true, function: checked.tool.function.name, args: { ...checked.args } };
  const [first] = checked.issues;
  const code: CallRejectionCode = first.code === "bad_args" ? "bad_type" : first.code;
  const rejection: CallRejection = { ok: false, code, reason: first.message };
  // A problem with an argument names it; one with the function or the whole args object does not.
  return first.path.startsWith("args.") ? { ...rejection, field: first.field } : rejection;
}
