/**
 * Property tests: a constraint never rejects text that is (a prefix of) a valid value,
 * agrees with the call mapping on what is complete, and only forces continuations that
 * keep the value every valid completion would have had.
 */
import { describe, expect, test } from "bun:test";
import { foldCase, headValueText, parseParameterValue } from "../../calls/head-value";
import { normalizeTools, type ToolParameter } from "../../prompt/tools";
import { buildHeadConstraints, parameterConstraint } from "./build";
import type { HeadConstraint } from "./types";

/** mulberry32: a small seeded generator, so failures reproduce. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seeded(20260421);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const digits = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () =>
    pick("0123456789".split("")),
  ).join("");
const randomCase = (text: string) => [...text].map((c) => (random() < 0.5 ? c.toUpperCase() : c)).join("");
const spaced = (value: string) => `${random() < 0.3 ? " " : ""}${value}${random() < 0.3 ? " " : ""}`;

const parameters: ToolParameter[] = [
  { name: "n", type: "number", required: true },
  { name: "i", type: "integer", required: false },
  { name: "b", type: "boolean", required: true },
  { name: "e", type: "string", enum: ["up", "Upper", "down", "thumbs_up", "u"], required: true },
  { name: "k", type: "number", enum: [1, 10, 2.5, -3], required: false },
  { name: "s", type: "string", required: true },
];

function validValue(parameter: ToolParameter): string {
  if (parameter.enum) {
    const value = pick(parameter.enum);
    return typeof value === "string" ? randomCase(value) : String(value);
  }
  switch (parameter.type) {
    case "number": {
      const fraction = random() < 0.5 ? `.${digits(1, 3)}` : "";
      const exponent = random() < 0.3 ? `${pick(["e", "E"])}${pick(["", "+", "-"])}${digits(1, 2)}` : "";
      return `${random() < 0.3 ? "-" : ""}${digits(1, 4)}${fraction}${exponent}`;
    }
    case "integer":
      return `${random() < 0.3 ? "-" : ""}${digits(1, 6)}`;
    case "boolean":
      return randomCase(pick(["true", "false"]));
    case "string":
      return (
        Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(["a", "B", " ", "中", ",", "!"]))
          .join("")
          .trim() || "x"
      );
  }
}

const ALPHABET = [..."0123456789-+.eE ", ..."uUpPdDoOwWnNtTrRfFaAlLsS_x中", "<|null|>"];
const randomText = () => Array.from({ length: Math.floor(random() * 8) }, () => pick(ALPHABET)).join("");

function mapped(parameter: ToolParameter, text: string): { ok: boolean; value?: unknown } {
  const value = headValueText(text);
  if (value === null) return { ok: false };
  const parsed = parseParameterValue(parameter, value);
  return parsed.ok ? { ok: true, value: parsed.value } : { ok: false };
}

/** Every prefix of a valid text is accepted, and forced continuations keep its value. */
function checkValidText(
  constraint: HeadConstraint,
  text: string,
  mappedValue: (text: string) => unknown,
): void {
  expect(constraint.isComplete(text)).toBe(true);
  for (let end = 0; end <= text.length; end++) {
    const prefix = text.slice(0, end);
    if (!constraint.accepts(prefix))
      throw new Error(`rejected prefix ${JSON.stringify(prefix)} of ${JSON.stringify(text)}`);
    const rest = constraint.forcedContinuation(prefix);
    if (rest !== null) {
      const completed = prefix + rest;
      if (!constraint.isComplete(completed) || mappedValue(completed) !== mappedValue(text)) {
        throw new Error(
          `forced ${JSON.stringify(rest)} after ${JSON.stringify(prefix)} but ${JSON.stringify(text)} is valid`,
        );
      }
    }
  }
}

describe("constraint properties", () => {
  for (const parameter of parameters) {
    const constraint = parameterConstraint(parameter);
    const mappedValue = (text: string) => mapped(parameter, text).value;

    test(`${parameter.enum ? "enum" : parameter.type}: valid values and all their prefixes are accepted`, () => {
      for (let i = 0; i < 400; i++) checkValidText(constraint, spaced(validValue(parameter)), mappedValue);
    });

    test(`${parameter.enum ? "enum" : parameter.type}: complete exactly when the call mapping accepts`, () => {
      for (let i = 0; i < 3000; i++) {
        const text = randomText();
        const ok = mapped(parameter, text).ok;
        if (constraint.isComplete(text) !== ok) {
          throw new Error(`${JSON.stringify(text)}: isComplete ${!ok}, mapping ${ok}`);
        }
        if (ok) checkValidText(constraint, text, mappedValue);
      }
    });
  }

  test("function head: every tool name and its prefixes, forced rests land on the same name", () => {
    const names = ["move", "move_to", "use_skill", "retreat", "retreat_all", "pass", "p"];
    const tools = normalizeTools(names.map((name) => ({ name })));
    const { function: fn } = buildHeadConstraints(tools, null);
    const mappedValue = (text: string) => headValueText(text);
    for (const name of names) {
      for (const text of [name, ` ${name}`, `${name} `, ` ${name} `]) checkValidText(fn, text, mappedValue);
    }
    for (let i = 0; i < 2000; i++) {
      const text = randomText();
      expect(fn.isComplete(text)).toBe(names.includes(headValueText(text) ?? ""));
    }
  });

  test("union arg heads accept every tool's valid values at their position", () => {
    const tools = normalizeTools(
      parameters.map((parameter, i) => ({
        name: `tool${i}`,
        parameters: {
          type: "object",
          properties: {
            [parameter.name]: { type: parameter.type, ...(parameter.enum ? { enum: parameter.enum } : {}) },
          },
        },
      })),
    );
    const withoutString = tools.filter((t) => t.parameters[0]!.type !== "string" || t.parameters[0]!.enum);
    const { arg1 } = buildHeadConstraints(withoutString, null);
    expect(arg1!.kind).toBe("union");
    for (const tool of withoutString) {
      const parameter = tool.parameters[0]!;
      for (let i = 0; i < 200; i++) {
        const text = spaced(validValue(parameter));
        expect(arg1!.isComplete(text)).toBe(true);
        for (let end = 0; end <= text.length; end++) {
          const prefix = text.slice(0, end);
          expect(arg1!.accepts(prefix)).toBe(true);
          const rest = arg1!.forcedContinuation(prefix);
          if (rest !== null)
            expect(foldCase(headValueText(prefix + rest) ?? "")).toBe(foldCase(headValueText(text) ?? ""));
        }
      }
    }
  });
});
