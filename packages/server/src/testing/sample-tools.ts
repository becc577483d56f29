/** Small tool sets for tests and the benchmark (shapes of the reference robot-arm scenario). */

export const ROBOT_TOOLS = [
  {
    type: "function",
    function: {
      name: "move_to",
      description: "Move the tool tip to a point.",
      parameters: {
        type: "object",
        properties: {
          x: { type: "number" },
          y: { type: "number" },
          z: { type: "number" },
          speed: { type: "string", enum: ["slow", "normal", "fast"] },
        },
        required: ["x", "y", "z"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "grip",
      description: "Close the gripper.",
      parameters: { type: "object", properties: { force: { type: "number" } }, required: ["force"] },
    },
  },
  {
    type: "function",
    function: {
      name: "release",
      description: "Open the gripper.",
      parameters: { type: "object", properties: {} },
    },
  },
];

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
