/**
 * Prompt format v2: a domain system prompt and the tools in the system turn, and a lean
 * user turn (history + query). An environment, when given, is folded into the query as a
 * first line `environment: [...]`, as the reference server does for older clients.
 */
import { renderEnvironment, renderHistory, renderToolsBlock } from "./render";
import type { PromptRequest, SystemRequest } from "./request";
import { toToolSpecs } from "./tools";

/** The reference server's system prompt when a request brings none. */
export const V2_DEFAULT_SYSTEM =
  "You are a real-time function calling assistant. Convert user commands into function calls using the available tools.";

/** The v2 system turn; an empty or missing `system` falls back to {@link V2_DEFAULT_SYSTEM}. */
export function systemPrefixV2(req: SystemRequest): string {
  const system = req.system || V2_DEFAULT_SYSTEM;
  const tools = renderToolsBlock(toToolSpecs(req.tools));
  return `<|im_start|>system\n${system}\n\n## Available Tools:\n\n${tools}\n<|im_end|>\n`;
}

/**
 * The whole v2 prompt, ending with `<|im_start|>assistant\n` (a head tag follows).
 *
 * @example
 * buildPromptV2({ query: "fire left", tools, environment: ["hp: 3"], system: "You steer a ship." });
 * // ...'<|im_start|>user\nhistory: []\n\nenvironment: ["hp: 3"]\nfire left<|im_end|>\n<|im_start|>assistant\n'
 */
export function buildPromptV2(req: PromptRequest): string {
  const hist = renderHistory(req.history);
  const env =
    req.environment && req.environment.length > 0
      ? `environment: ${renderEnvironment(req.environment)}\n`
      : "";
  return (
    systemPrefixV2(req) +
    `<|im_start|>user\nhistory: [${hist}]\n\n${env}${req.query}<|im_end|>\n<|im_start|>assistant\n`
  );
}
