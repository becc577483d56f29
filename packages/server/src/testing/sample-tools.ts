/**
 * Request bodies for tests and the benchmark. The robot-arm tools are `@rtool/contract/testing`'s
 * (re-exported here); the fixture-sized tools are the server's own.
 */
import { ROBOT_TOOLS } from "@rtool/contract/testing";

export { ROBOT_TOOLS };

/** A request body a reference client would send. */
export function sampleBody(query = "move to x 300 y 150 z 50 slowly"): Record<string, unknown> {
  return {
    messages: [{ role: "user", content: query }],
    tools: ROBOT_TOOLS,
    environment: ["gripper: open", "tip: (0, 0, 200)"],
    history: ["home()"],
  };
}

/**
 * Tools small enough for the fixture models (byte-level vocabularies, 512-token context): the
 * v1 prompt with these stays under ~480 tokens.
 */
export const FIXTURE_TOOLS = [
  {
    type: "function",
    function: {
      name: "move",
      parameters: {
        type: "object",
        properties: { dir: { type: "string", enum: ["up", "down"] }, n: { type: "integer" } },
        required: ["dir"],
      },
    },
  },
  { type: "function", function: { name: "stop" } },
];

/** A fixture-sized request body. */
export function fixtureBody(query = "go up 2", extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { messages: [{ role: "user", content: query }], tools: FIXTURE_TOOLS, max_tokens: 6, ...extra };
}
