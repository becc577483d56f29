/** rtool's version; part of the graph cache key so a new release never reuses an old graph. */
export const VERSION = "0.1.0";
