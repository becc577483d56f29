/**
 * Typed errors of the graph builder.
 */

/** The config asks for something the Qwen graph builder cannot compute exactly. */
export class UnsupportedGraphFeatureError extends Error {
  override name = "UnsupportedGraphFeatureError";
  constructor(
    /** The config.json field concerned, e.g. `rope_scaling`. */
    readonly field: string,
    message: string,
  ) {
    super(`config.json ${field}: ${message}`);
  }
}
