/**
 * The tools a client knows, by scope (the squad's `move` is not a ship's `move`), each with the
 * handler that runs its validated calls; and {@link runCall}, which turns a server reply into
 * exactly one outcome: accepted (the handler ran and agreed), rejected (schema, server or game
 * refused it) or failed (the handler threw).
 */
import type { RequestSource } from "./agent";
import { type AgentToolDefinition, type FunctionTool, normalizeTool } from "./tool-schema";
import type { CallReply } from "./transport";
import { type CallArgs, type CallRejection, validateCall } from "./validate-call";

/** What a handler learns about the call besides its arguments. */
export interface AgentToolContext {
  agent: string;
  source: RequestSource;
  heads: Record<string, string>;
}

/**
 * What a handler may return: nothing or `true` accepts; `false` or `{ ok: false, reason }` refuses
 * (a game rule said no), which emits `rejected` instead of `call`.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing accepts the call.
export type HandlerResult = void | boolean | { ok: boolean; reason?: string; code?: string };

/** Runs a validated call in the game. */
export type AgentToolHandler = (args: CallArgs, context: AgentToolContext) => HandlerResult;

/** Options of `tool(def, handler, options)`. */
export interface ToolOptions {
  /** The tool set it belongs to; agents pick one scope. Default "default". */
  scope?: string;
}

/** A registered tool. */
export interface RegisteredTool {
  tool: FunctionTool;
  handler: AgentToolHandler;
}

/** How one reply ended. */
export type CallOutcome =
  | { kind: "accepted"; function: string; args: CallArgs; entry: RegisteredTool }
  | { kind: "rejected"; rejection: CallRejection }
  | { kind: "failed"; error: Error };

/**
 * @example
 * const registry = new ToolRegistry();
 * registry.register({ name: "flap" }, () => bird.flap());
 * registry.tools("default"); // [{ type: "function", function: { name: "flap", ... } }]
 */
export class ToolRegistry {
  private readonly scopes = new Map<string, Map<string, RegisteredTool>>();

  /** Checks and registers a tool (a later one of the same name and scope replaces it). */
  register(
    definition: AgentToolDefinition,
    handler: AgentToolHandler,
    options: ToolOptions = {},
  ): FunctionTool {
    const tool = normalizeTool(definition);
    const scope = options.scope ?? "default";
    let tools = this.scopes.get(scope);
    if (!tools) {
      tools = new Map();
      this.scopes.set(scope, tools);
    }
    tools.set(tool.function.name, { tool, handler });
    return tool;
  }

  /** The tools of a scope, in registration order, as sent to the server. */
  tools(scope: string): FunctionTool[] {
    return [...(this.scopes.get(scope)?.values() ?? [])].map((entry) => entry.tool);
  }

  /** The registered tools of a scope by name. */
  scope(scope: string): ReadonlyMap<string, RegisteredTool> {
    return this.scopes.get(scope) ?? new Map();
  }

  clear(): void {
    this.scopes.clear();
  }
}

/**
 * Validates a reply against a scope's tools and, when valid, runs its handler. The server's own
 * verdict counts first (`valid: false` or `success: false` is a rejection with its reasons).
 *
 * @example
 * const outcome = runCall(registry.scope("ship"), reply, { agent: "enemy-1", source: "tick", heads: reply.heads });
 * if (outcome.kind === "rejected") console.log(outcome.rejection.reason);
 */
export function runCall(
  tools: ReadonlyMap<string, RegisteredTool>,
  reply: CallReply,
  context: AgentToolContext,
): CallOutcome {
  if (reply.valid === false || !reply.success) {
    const reason =
      reply.errors?.map((issue) => `${issue.path}: ${issue.message}`).join("; ") ||
      reply.error ||
      "the server reported an invalid call";
    return { kind: "rejected", rejection: { ok: false, code: "server_invalid", reason } };
  }
  const schemas = new Map([...tools].map(([name, entry]) => [name, entry.tool]));
  const checked = validateCall(schemas, reply.function, reply.args);
  if (!checked.ok) return { kind: "rejected", rejection: checked };
  const entry = tools.get(checked.function)!;
  let result: HandlerResult;
  try {
    result = entry.handler(checked.args, context);
  } catch (error) {
    return { kind: "failed", error: error instanceof Error ? error : new Error(String(error)) };
  }
  if (result === false || (typeof result === "object" && result !== null && result.ok === false)) {
    const detail = typeof result === "object" ? result : { reason: undefined, code: undefined };
    const reason = detail.reason ?? `${checked.function} was refused by the game`;
    return {
      kind: "rejected",
      rejection: { ok: false, code: "handler", reason: detail.code ? `${detail.code}: ${reason}` : reason },
    };
  }
  return { kind: "accepted", function: checked.function, args: checked.args, entry };
}
