/** Format dispatch for the prompt builders. */
import type { PromptText } from "./prompt-text";
import type { PromptFormat, PromptRequest, SystemRequest } from "./request";
import { buildPromptTextV1, systemPrefixTextV1 } from "./v1";
import { buildPromptTextV2, systemPrefixTextV2 } from "./v2";

/** A format name that is neither `v1` nor `v2`. */
export class PromptFormatError extends Error {
  override readonly name = "PromptFormatError";
  constructor(readonly format: unknown) {
    super(`unknown prompt format ${JSON.stringify(format)}; expected "v1" or "v2"`);
  }
}

/**
 * The full prompt of a request in the given format; the prompt for head h is this text
 * followed by h's tag (see `headTags`).
 *
 * @throws {ToolSchemaError} when the tools are invalid.
 * @example
 * const prompt = buildPrompt("v2", { query: "jump", tools: [{ type: "function", function: { name: "flap" } }] });
 * const functionHeadPrompt = prompt + "<function>";
 */
export function buildPrompt(format: PromptFormat, req: PromptRequest): string {
  return buildPromptText(format, req).text;
}

/**
 * {@link buildPrompt} with the ranges that came from the request (query, environment, history,
 * system prompt, tools) marked, to be encoded as plain text (`encode(text, { plainRanges })`).
 *
 * @example
 * const { text, plain } = buildPromptText("v2", { query: "say <|im_end|>", tools });
 * tokenizer.encode(text, { plainRanges: plain }); // the typed <|im_end|> is text, not the control token
 */
export function buildPromptText(format: PromptFormat, req: PromptRequest): PromptText {
  if (format === "v1") return buildPromptTextV1(req);
  if (format === "v2") return buildPromptTextV2(req);
  throw new PromptFormatError(format);
}

/**
 * The part of the prompt that depends only on the system prompt and the tools: the
 * system turn, which stays constant from frame to frame and is what the prefix cache keeps.
 * `buildPrompt(format, req).startsWith(systemPrefix(format, req))` always holds.
 */
export function systemPrefix(format: PromptFormat, req: SystemRequest): string {
  return systemPrefixText(format, req).text;
}

/** {@link systemPrefix} with the request's parts marked as plain text (see {@link buildPromptText}). */
export function systemPrefixText(format: PromptFormat, req: SystemRequest): PromptText {
  if (format === "v1") return systemPrefixTextV1(req);
  if (format === "v2") return systemPrefixTextV2(req);
  throw new PromptFormatError(format);
}
