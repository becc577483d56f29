/**
 * What a server reply means for a world, judged without trusting the server: a call the world
 * may receive (the server said valid and the world's own schema check agrees), an error the
 * server reported (valid: false with its issues), or a malformed reply that breaks the pipeline's
 * contract. The runner hands the world only the first kind.
 */
import type { FunctionCallReply } from "@rtool/client";
import { type Rejection, type ScenarioTool, type ToolCall, validateWorldCall } from "@rtool/sim";

/** The verdict on one reply. */
export type ReplyVerdict =
  | { kind: "call"; call: ToolCall }
  | { kind: "reported_error"; function: string | null; errors: { path: string; message: string }[] }
  | { kind: "malformed"; reason: string; rejection?: Rejection };

/**
 * Judges a reply against the world's tools.
 *
 * - `valid: true` must name one of the tools and carry arguments that pass the world's schema
 *   check (known names, required present, types, enums); otherwise the reply is malformed.
 * - `valid: false` must say why: at least one issue in `errors` (or an `error` text).
 *
 * @example
 * const verdict = checkReply(arm.tools, reply);
 * if (verdict.kind === "call") arm.apply(verdict.call);
 */
export function checkReply(tools: readonly ScenarioTool[], reply: FunctionCallReply): ReplyVerdict {
  if (reply === null || typeof reply !== "object")
    return { kind: "malformed", reason: "reply is not an object" };
  if (typeof reply.valid !== "boolean") return { kind: "malformed", reason: "reply has no boolean `valid`" };
  if (!reply.valid) {
    const errors = Array.isArray(reply.errors) ? reply.errors : [];
    if (errors.length === 0 && !reply.error) {
      return { kind: "malformed", reason: "valid: false without errors or an error text" };
    }
    const reported = errors.length > 0 ? errors : [{ path: "", message: String(reply.error) }];
    return { kind: "reported_error", function: reply.function ?? null, errors: reported };
  }
  if (typeof reply.function !== "string") {
    return { kind: "malformed", reason: "valid: true without a function name" };
  }
  const call: ToolCall = { function: reply.function, args: reply.args ?? {} };
  const checked = validateWorldCall(tools, call);
  if (!checked.ok) {
    return {
      kind: "malformed",
      reason: `valid: true but the world's schema check refuses it (${checked.code}: ${checked.reason})`,
      rejection: checked,
    };
  }
  return { kind: "call", call };
}

/** Rejection codes that come from argument validation rather than from a world's rules. */
export const SCHEMA_REJECTION_CODES: ReadonlySet<string> = new Set([
  "unknown_tool",
  "unknown_arg",
  "missing_arg",
  "bad_type",
  "bad_enum",
]);

/** A call as `name(arg,..)` with JSON values, for reports and failure messages. */
export function formatCall(call: { function: string | null; args?: Record<string, unknown> }): string {
  const values = Object.values(call.args ?? {})
    .filter((value) => value !== null && value !== undefined)
    .map((value) => (typeof value === "string" ? value : JSON.stringify(value)));
  return `${call.function ?? "(no function)"}(${values.join(",")})`;
}
