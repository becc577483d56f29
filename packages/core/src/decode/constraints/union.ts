/**
 * Union of constraints: an arg head before the function is known must allow the parameter
 * at its position of every tool (and "not given" when some tool has no such parameter).
 */
import type { HeadConstraint } from "./types";

/** Text allowed by any member; forced only when every member that accepts forces the same rest. */
export function unionConstraint(members: readonly HeadConstraint[], allowsNull: boolean): HeadConstraint {
  if (members.length === 1 && members[0]!.allowsNull === allowsNull) return members[0]!;
  return {
    kind: "union",
    allowsNull: allowsNull || members.some((m) => m.allowsNull),
    accepts: (text) => members.some((m) => m.accepts(text)),
    isComplete: (text) => members.some((m) => m.isComplete(text)),
    forcedContinuation(text) {
      const open = members.filter((m) => m.accepts(text));
      if (open.length === 0) return null;
      const rests = new Set(open.map((m) => m.forcedContinuation(text)));
      return rests.size === 1 ? [...rests][0]! : null;
    },
  };
}
