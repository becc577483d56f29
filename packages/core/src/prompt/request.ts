import type { PromptFormat } from "@rtool/contract";
import type { ToolInput, ToolSpec } from "./tools";

/** Prompt format: `v1` (head instructions in the system turn) or `v2` (domain system prompt); the call contract's type. */
export type { PromptFormat };

/** What a prompt is built from. */
export interface PromptRequest {
  /** The user's command. */
  query: string;
  /** Raw OpenAI-style tools (validated on the way) or tools from `normalizeTools`. */
  tools: readonly (ToolInput | ToolSpec)[];
  /** Lines describing the world right now. */
  environment?: readonly string[];
  /** Earlier calls, oldest first, e.g. `"move(up)"`; only the last 6 reach the prompt. */
  history?: readonly string[];
  /** v2 domain system prompt; v1 ignores it. */
  system?: string;
}

/** The part of a request the system turn depends on (the prefix-cache key). */
export type SystemRequest = Pick<PromptRequest, "tools" | "system">;
