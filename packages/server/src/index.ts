/**
 * @rtool/server: the Hono HTTP server in front of the @rtool/core real-time caller.
 * @packageDocumentation
 */
export { VERSION } from "@rtool/core";
