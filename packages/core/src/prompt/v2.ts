/**
 * Prompt format v2: a domain system prompt and the tools in the system turn, and a lean
 * user turn (history + query). An environment, when given, is folded into the query as a
 * first line `environment: [...]`, as the reference server does for older clients.
 */
import { type PromptText, plain, promptText } from "./prompt-text";
import { renderEnvironment, renderHistory, renderToolsBlock } from "./render";
import type { PromptRequest, SystemRequest } from "./request";
import { toToolSpecs } from "./tools";

/** The reference server's system prompt when a request brings none. */
export const V2_DEFAULT_SYSTEM =
  "You are a real-time function calling assistant. Convert user commands into function calls using the available tools.";

/** The v2 system turn; an empty or missing `system` falls back to {@link V2_DEFAULT_SYSTEM}. */
export function systemPrefixV2(req: SystemRequest): string {
  return systemPrefixTextV2(req).text;
}

/** {@link systemPrefixV2} with a client's system prompt and the tools' JSON marked as plain text. */
export function systemPrefixTextV2(req: SystemRequest): PromptText {
  const system = req.system ? plain(req.system) : V2_DEFAULT_SYSTEM;
  const tools = plain(renderToolsBlock(toToolSpecs(req.tools)));
  return promptText`<|im_start|>system\n${system}\n\n## Available Tools:\n\n${tools}\n<|im_end|>\n`;
}

/**
 * The whole v2 prompt, ending with `<|im_start|>assistant\n` (a head tag follows).
 *
 * @example
 * buildPromptV2({ query: "fire left", tools, environment: ["hp: 3"], system: "You steer a ship." });
 * // ...'<|im_start|>user\nhistory: []\n\nenvironment: ["hp: 3"]\nfire left<|im_end|>\n<|im_start|>assistant\n'
 */
export function buildPromptV2(req: PromptRequest): string {
  return buildPromptTextV2(req).text;
}

/** {@link buildPromptV2} with the user's parts (system, tools, history, environment, query) marked as plain text. */
export function buildPromptTextV2(req: PromptRequest): PromptText {
  const hist = plain(renderHistory(req.history));
  const env =
    req.environment && req.environment.length > 0
      ? promptText`environment: ${plain(renderEnvironment(req.environment))}\n`
      : "";
  const query = plain(req.query);
  return promptText`${systemPrefixTextV2(req)}<|im_start|>user\nhistory: [${hist}]\n\n${env}${query}<|im_end|>\n<|im_start|>assistant\n`;
}
