/**
 * How one head's text becomes one typed value. Shared by the call mapping and by the
 * decoder's text constraints, so that a constraint accepts exactly what the mapping accepts.
 *
 * Rules (rtool's, stricter and more exact than the reference server, which strips all
 * whitespace and lower-cases every string):
 * - At most one leading and one trailing space (U+0020) are removed: a BPE tokenizer may glue
 *   a space to the first or last token. Everything else, case included, is kept.
 * - What remains is absent ("not given") when it is empty or the literal `<|null|>`.
 * - number: `-?\d+(\.\d+)?([eE][+-]?\d+)?` with a finite value; integer: `-?\d+` within the
 *   safe range; boolean: `true`/`false` in any case; string enum: the exact value, else a
 *   match ignoring ASCII case, mapped to the canonical value; number enum: the value as
 *   JavaScript writes it (`String(v)`, e.g. `0.5`, `3`).
 * Case folding is ASCII-only so that folding never changes a string's length, which the
 * text constraints rely on when they complete a value from a folded prefix.
 */
import type { ParameterType, ToolParameter } from "../prompt/tools";

/** The null marker as a head value. */
const NULL_VALUE = "<|null|>";

export const NUMBER_PATTERN = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
export const INTEGER_PATTERN = /^-?\d+$/;
const BOOLEAN_VALUES = ["true", "false"] as const;

/** Removes at most one leading and one trailing U+0020 (tokenizer spacing). */
export function stripTokenizerSpace(text: string): string {
  const start = text.startsWith(" ") ? 1 : 0;
  const end = text.length > start && text.endsWith(" ") ? text.length - 1 : text.length;
  return text.slice(start, end);
}

/** The value text of a head, or null when the head says "not given". */
export function headValueText(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const value = stripTokenizerSpace(text);
  return value === "" || value === NULL_VALUE ? null : value;
}

/** A parsed head value, or why the text is not a value of the parameter. */
export type ParsedValue = { ok: true; value: string | number | boolean } | { ok: false; message: string };

/**
 * Parses a head's value text (already through {@link headValueText}) for a parameter.
 *
 * @example
 * parseParameterValue({ name: "n", type: "integer", required: true }, "42"); // { ok: true, value: 42 }
 */
export function parseParameterValue(parameter: ToolParameter, text: string): ParsedValue {
  if (parameter.enum) return parseEnumValue(parameter.enum, text);
  return parseTypedValue(parameter.type, text);
}

function parseTypedValue(type: ParameterType, text: string): ParsedValue {
  switch (type) {
    case "string":
      return { ok: true, value: text };
    case "number": {
      const value = Number(text);
      if (!NUMBER_PATTERN.test(text))
        return { ok: false, message: `expected a number, got ${JSON.stringify(text)}` };
      if (!Number.isFinite(value)) return { ok: false, message: `number ${text} is out of range` };
      return { ok: true, value };
    }
    case "integer":
      if (INTEGER_PATTERN.test(text)) {
        const value = Number(text);
        if (Number.isSafeInteger(value)) return { ok: true, value };
        return { ok: false, message: `integer ${text} is outside the safe integer range` };
      }
      return { ok: false, message: `expected an integer, got ${JSON.stringify(text)}` };
    case "boolean": {
      const lower = foldCase(text);
      if ((BOOLEAN_VALUES as readonly string[]).includes(lower)) return { ok: true, value: lower === "true" };
      return { ok: false, message: `expected true or false, got ${JSON.stringify(text)}` };
    }
  }
}

function parseEnumValue(values: readonly (string | number)[], text: string): ParsedValue {
  const exact = values.find((v) => enumText(v) === text);
  if (exact !== undefined) return { ok: true, value: exact };
  const folded = foldCase(text);
  const loose = values.find((v) => typeof v === "string" && foldCase(v) === folded);
  if (loose !== undefined) return { ok: true, value: loose };
  return {
    ok: false,
    message: `${JSON.stringify(text)} is not one of ${values.map((v) => JSON.stringify(v)).join(", ")}`,
  };
}

/** How an enum value is written in a head. */
export function enumText(value: string | number): string {
  return typeof value === "string" ? value : String(value);
}

/** Lower-cases ASCII letters only (length-preserving, unlike `toLowerCase`). */
export function foldCase(text: string): string {
  return HAS_ASCII_UPPER.test(text) ? text.replace(ASCII_UPPER, (c) => c.toLowerCase()) : text;
}

const HAS_ASCII_UPPER = /[A-Z]/;
const ASCII_UPPER = /[A-Z]/g;
