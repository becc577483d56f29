/**
 * Prompt format v1: a generic description of the output heads in the system turn, and
 * environment + history + query in the user turn. The wording (including the space before
 * two of its newlines) is the reference server's, which its v1 models were trained on.
 */
import { type PromptText, plain, promptText } from "./prompt-text";
import { renderEnvironment, renderHistory, renderToolsBlock } from "./render";
import type { PromptRequest, SystemRequest } from "./request";
import { toToolSpecs } from "./tools";

/** The v1 system text between `<|im_start|>system\n` and the tool list. */
export const V1_HEADS_DESCRIPTION =
  "You are a multi-head parallel function calling model. \n" +
  "## Output Heads\n\n" +
  "**Head 0 - <content>**: Natural language response\n" +
  "- Format: <content>response text</content>\n\n" +
  "**Head 1 - <function>**: Function names to call\n" +
  "- Format: <function>name</function>\n\n" +
  "**Head 2-7 - <arg1>-<arg6>**: Function arguments by position\n" +
  "- Format: <argN>value</argN> \n" +
  "- If Unnecessary: <argN><|null|></argN>\n\n";

/** The v1 system turn: head description and tools; depends on the tools only. */
export function systemPrefixV1(req: SystemRequest): string {
  return systemPrefixTextV1(req).text;
}

/** {@link systemPrefixV1} with the tools' JSON marked as plain text. */
export function systemPrefixTextV1(req: SystemRequest): PromptText {
  const tools = plain(renderToolsBlock(toToolSpecs(req.tools)));
  return promptText`<|im_start|>system\n${V1_HEADS_DESCRIPTION}## Available Tools:\n\n${tools}\n<|im_end|>\n`;
}

/**
 * The whole v1 prompt, ending with `<|im_start|>assistant\n` (a head tag follows).
 *
 * @example
 * buildPromptV1({ query: "fire left", tools, environment: ["hp: 3"], history: ["move(up)"] });
 * // ...'<|im_start|>user\nenvironment: ["hp: 3"]\nhistory: [move(up)]\n\nfire left<|im_end|>\n<|im_start|>assistant\n'
 */
export function buildPromptV1(req: PromptRequest): string {
  return buildPromptTextV1(req).text;
}

/** {@link buildPromptV1} with the user's parts (tools, environment, history, query) marked as plain text. */
export function buildPromptTextV1(req: PromptRequest): PromptText {
  const env = plain(renderEnvironment(req.environment));
  const hist = plain(renderHistory(req.history));
  const query = plain(req.query);
  return promptText`${systemPrefixTextV1(req)}<|im_start|>user\nenvironment: ${env}\nhistory: [${hist}]\n\n${query}<|im_end|>\n<|im_start|>assistant\n`;
}
