/** These constraints plug into the decoder's text state machine (`../head-text.ts`) as they are. */
import { describe, expect, test } from "bun:test";
import { normalizeTools } from "../../prompt/tools";
import { classifyHeadText, forcedEnding, type TextConstraint } from "../head-text";
import { buildHeadConstraints } from "./build";

const tools = normalizeTools([
  {
    name: "fire",
    parameters: {
      type: "object",
      properties: { direction: { enum: ["up", "down"] } },
      required: ["direction"],
    },
  },
  { name: "pass" },
]);
const stopsOf = (head: string) => ({ value: [`</${head}>`, "<|im_end|>"], null: ["<|null|>"] });

describe("constraints in the decoder's head-text state", () => {
  test("a unique tool name prefix is completed and closed without the model", () => {
    const fn: TextConstraint = buildHeadConstraints(tools, null).function;
    const state = classifyHeadText("f", fn, stopsOf("function"));
    expect(state.kind).toBe("open");
    if (state.kind !== "open") return;
    expect(forcedEnding(state, fn, stopsOf("function"))).toEqual({
      kind: "done",
      value: "fire",
      marker: "</function>",
      isNull: false,
    });
  });

  test("an arg head the chosen tool lacks is forced to <|null|>", () => {
    const arg1: TextConstraint = buildHeadConstraints(tools, "pass").arg1!;
    const state = classifyHeadText("", arg1, stopsOf("arg1"));
    if (state.kind !== "open") throw new Error("expected an open head");
    expect(forcedEnding(state, arg1, stopsOf("arg1"))).toEqual({
      kind: "done",
      value: "",
      marker: "<|null|>",
      isNull: true,
    });
  });

  test("a required enum rejects <|null|> and a value outside the enum", () => {
    const arg1: TextConstraint = buildHeadConstraints(tools, "fire").arg1!;
    expect(classifyHeadText("<|null|>", arg1, stopsOf("arg1")).kind).toBe("rejected");
    expect(classifyHeadText("left", arg1, stopsOf("arg1")).kind).toBe("rejected");
    expect(classifyHeadText("DOWN</arg1>", arg1, stopsOf("arg1"))).toEqual({
      kind: "done",
      value: "DOWN",
      marker: "</arg1>",
      isNull: false,
    });
  });
});
