import { describe, expect, test } from "bun:test";
import { buildPrompt, PromptFormatError, systemPrefix } from "./build";
import { renderHistory, renderToolJson, renderToolsBlock } from "./render";
import { normalizeTools } from "./tools";
import { buildPromptV1 } from "./v1";
import { buildPromptV2, V2_DEFAULT_SYSTEM } from "./v2";

const fire = {
  type: "function",
  function: {
    name: "fire",
    description: "Shoot.",
    parameters: {
      type: "object",
      properties: { direction: { type: "string", enum: ["up", "down"] } },
      required: ["direction"],
    },
  },
};
const pass = { type: "function", function: { name: "pass", parameters: { type: "object", properties: {} } } };
const toolLines =
  '{"type": "function", "function": {"name": "fire", "description": "Shoot.", "parameters": {"type": "object", ' +
  '"properties": {"direction": {"type": "string", "enum": ["up", "down"]}}, "required": ["direction"]}}}\n' +
  '{"type": "function", "function": {"name": "pass", "parameters": {"type": "object", "properties": {}}}}';

const v1System =
  "<|im_start|>system\nYou are a multi-head parallel function calling model. \n## Output Heads\n\n" +
  "**Head 0 - <content>**: Natural language response\n- Format: <content>response text</content>\n\n" +
  "**Head 1 - <function>**: Function names to call\n- Format: <function>name</function>\n\n" +
  "**Head 2-7 - <arg1>-<arg6>**: Function arguments by position\n- Format: <argN>value</argN> \n" +
  "- If Unnecessary: <argN><|null|></argN>\n\n" +
  `## Available Tools:\n\n${toolLines}\n<|im_end|>\n`;

const history = ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8"];

describe("tool rendering", () => {
  test("one Python-style JSON line per tool, in order", () => {
    expect(renderToolsBlock([fire, pass])).toBe(toolLines);
  });

  test("a normalised tool renders as its original JSON", () => {
    expect(renderToolJson(normalizeTools([fire])[0]!)).toBe(renderToolJson(fire));
  });

  test("the fields every tool has are written in the OpenAI order, whatever order they came in", () => {
    const shuffled = {
      function: {
        parameters: {
          required: ["direction"],
          properties: { direction: { enum: ["up", "down"], type: "string" } },
          type: "object",
        },
        description: "Shoot.",
        name: "fire",
      },
      type: "function",
    };
    expect(renderToolJson(shuffled)).toBe(renderToolJson(fire));
    expect(renderToolJson(normalizeTools([shuffled])[0]!)).toBe(renderToolJson(fire));
  });

  test("other fields follow the known ones as given, and the argument order is kept", () => {
    const tool = {
      type: "function",
      function: {
        strict: true,
        parameters: {
          additionalProperties: false,
          type: "object",
          properties: { b: { minimum: 0, type: "integer" }, a: { type: "string" } },
        },
        name: "t",
      },
    };
    expect(renderToolJson(tool)).toBe(
      '{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": ' +
        '{"b": {"type": "integer", "minimum": 0}, "a": {"type": "string"}}, "additionalProperties": false}, ' +
        '"strict": true}}',
    );
  });

  test("the bare form is wrapped as an OpenAI function tool", () => {
    expect(renderToolJson({ name: "pass" })).toBe('{"type": "function", "function": {"name": "pass"}}');
  });

  test("history keeps the last 6 entries joined by comma-space", () => {
    expect(renderHistory(history)).toBe("h3, h4, h5, h6, h7, h8");
    expect(renderHistory([])).toBe("");
    expect(renderHistory(undefined)).toBe("");
  });
});

describe("buildPromptV1", () => {
  test("full prompt with environment and capped history", () => {
    const prompt = buildPromptV1({
      query: "shoot up",
      tools: [fire, pass],
      environment: ["hp: 3", 'enemy "boss" at 北'],
      history,
    });
    expect(prompt).toBe(
      `${v1System}<|im_start|>user\nenvironment: ["hp: 3", "enemy \\"boss\\" at 北"]\n` +
        "history: [h3, h4, h5, h6, h7, h8]\n\nshoot up<|im_end|>\n<|im_start|>assistant\n",
    );
  });

  test("empty environment and history, and v1 ignores a system prompt", () => {
    const prompt = buildPromptV1({
      query: "wait",
      tools: [fire, pass],
      environment: [],
      history: [],
      system: "ignored",
    });
    expect(prompt).toBe(
      `${v1System}<|im_start|>user\nenvironment: []\nhistory: []\n\nwait<|im_end|>\n<|im_start|>assistant\n`,
    );
    expect(buildPromptV1({ query: "wait", tools: [fire, pass] })).toBe(prompt);
  });
});

describe("buildPromptV2", () => {
  const v2System = (system: string) =>
    `<|im_start|>system\n${system}\n\n## Available Tools:\n\n${toolLines}\n<|im_end|>\n`;

  test("environment folds into the query as its first line", () => {
    const prompt = buildPromptV2({
      query: "shoot up",
      tools: [fire, pass],
      environment: ["hp: 3", "enemy: up"],
      history,
      system: "You pilot a ship.",
    });
    expect(prompt).toBe(
      `${v2System("You pilot a ship.")}<|im_start|>user\nhistory: [h3, h4, h5, h6, h7, h8]\n\n` +
        'environment: ["hp: 3", "enemy: up"]\nshoot up<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  test("no environment line when it is empty; default system when none or empty", () => {
    const expected = `${v2System(V2_DEFAULT_SYSTEM)}<|im_start|>user\nhistory: []\n\nwait<|im_end|>\n<|im_start|>assistant\n`;
    expect(buildPromptV2({ query: "wait", tools: [fire, pass], environment: [] })).toBe(expected);
    expect(buildPromptV2({ query: "wait", tools: [fire, pass], system: "" })).toBe(expected);
    expect(V2_DEFAULT_SYSTEM).toBe(
      "You are a real-time function calling assistant. Convert user commands into function calls using the available tools.",
    );
  });
});

describe("buildPrompt and systemPrefix", () => {
  const req = { query: "shoot", tools: [fire, pass], environment: ["e"], history: ["move(up)"], system: "S" };

  test("dispatch on the format", () => {
    expect(buildPrompt("v1", req)).toBe(buildPromptV1(req));
    expect(buildPrompt("v2", req)).toBe(buildPromptV2(req));
    expect(() => buildPrompt("v3" as "v1", req)).toThrow(PromptFormatError);
  });

  test("the system prefix is the system turn and starts every prompt", () => {
    expect(systemPrefix("v1", req)).toBe(v1System);
    expect(systemPrefix("v2", req)).toBe(
      `<|im_start|>system\nS\n\n## Available Tools:\n\n${toolLines}\n<|im_end|>\n`,
    );
    for (const format of ["v1", "v2"] as const) {
      expect(buildPrompt(format, req).startsWith(systemPrefix(format, req))).toBe(true);
      expect(systemPrefix(format, { ...req, query: "other" } as typeof req)).toBe(systemPrefix(format, req));
    }
  });

  test("invalid tools fail before any text is built", () => {
    expect(() => buildPrompt("v2", { query: "x", tools: [] })).toThrow(
      "tools: must contain at least one tool",
    );
  });
});
