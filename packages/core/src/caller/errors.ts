/** Typed errors of the realtime caller; each names the request field it concerns. */

/** A request the caller cannot serve; `path` names the field, e.g. `maxTokens`. */
export class CallerInputError extends Error {
  override readonly name: string = "CallerInputError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** The prompt and the heads' tokens would not fit in the model's context. */
export class PromptTooLongError extends CallerInputError {
  override readonly name = "PromptTooLongError";
  constructor(
    /** Tokens of the prompt. */
    readonly promptTokens: number,
    /** Positions the heads need after the prompt (tag + generated tokens). */
    readonly headTokens: number,
    /** The model's `maxPositionEmbeddings`. */
    readonly limit: number,
  ) {
    super(
      "query",
      `the prompt is ${promptTokens} tokens and the heads need ${headTokens} more, over the model context of ${limit}; shorten the query, environment, history or tools, or lower maxTokens`,
    );
  }
}
