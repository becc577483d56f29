/**
 * Sample tools for tests, benchmarks and examples, written once for every package: the reference
 * robot arm's, a ship's four-way move, and a timer with every parameter type. Import them from
 * `@rtool/contract/testing`; they are fixtures, not part of the wire contract. Treat them as
 * read-only (`structuredClone` one to change it).
 */
import type { FunctionTool, ParameterSchema, ParameterType } from "../tools";

/** The robot arm's `move_to`: three required numbers and an optional speed enum. */
export const MOVE_TO_TOOL: FunctionTool = {
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
};

/** The reference robot-arm scenario's tools: `move_to`, `grip` and `release`. */
export const ROBOT_TOOLS: FunctionTool[] = [
  MOVE_TO_TOOL,
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

/** A ship's `move`: one required direction out of up, down, left and right. */
export const SHIP_MOVE_TOOL: FunctionTool = {
  type: "function",
  function: {
    name: "move",
    parameters: {
      type: "object",
      properties: { direction: { type: "string", enum: ["up", "down", "left", "right"] } },
      required: ["direction"],
    },
  },
};

/**
 * `set_timer`, a tool with every parameter type (string, integer, boolean, string enum), only
 * `minutes` required; every optional field is present, as in the scenario files.
 */
export const TIMER_TOOL = {
  type: "function",
  function: {
    name: "set_timer",
    description: "A tool with every parameter type.",
    parameters: {
      type: "object",
      properties: {
        label: { type: "string" },
        minutes: { type: "integer" },
        loud: { type: "boolean" },
        mode: { type: "string", enum: ["once", "daily"] },
      } satisfies Record<string, ParameterSchema & { type: ParameterType }>,
      required: ["minutes"],
    },
  },
} satisfies FunctionTool;
