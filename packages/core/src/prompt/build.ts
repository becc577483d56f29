/** Format dispatch for the prompt builders. */
import type { PromptFormat, PromptRequest, SystemRequest } from "./request";
import { buildPromptV1, systemPrefixV1 } from "./v1";
import { buildPromptV2, systemPrefixV2 } from "./v2";

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
  if (format === "v1") return buildPromptV1(req);
  if (format === "v2") return buildPromptV2(req);
  throw new PromptFormatError(format);
}

/**
 * The part of the prompt that depends only on the system prompt and the tools: the
 * system turn, which stays constant from frame to frame and is what the prefix cache keeps.
 * `buildPrompt(format, req).startsWith(systemPrefix(format, req))` always holds.
 */
export function systemPrefix(format: PromptFormat, req: SystemRequest): string {
  if (format === "v1") return systemPrefixV1(req);
  if (format === "v2") return systemPrefixV2(req);
  throw new PromptFormatError(format);
}
