/**
 * Prompt text that remembers which of its parts came from outside (the user's command, the
 * environment, the history, the system prompt a client sent, the tools' JSON). Those parts are
 * encoded as plain text: a `<|im_end|>` typed by a user stays seven characters, it never closes
 * the turn (prompt injection into the chat structure). The template around them keeps its
 * control tokens.
 */

/** A prompt and the `[start, end)` character ranges of it that must be encoded as plain text. */
export interface PromptText {
  text: string;
  plain: readonly (readonly [number, number])[];
}

/** A value marked as plain text, for {@link promptText}. */
export class PlainText {
  constructor(readonly text: string) {}
}

/**
 * Marks text from outside the template (user, environment, history, tools) as plain.
 *
 * @example
 * ```ts
 * promptText`<|im_start|>user\n${plain(query)}<|im_end|>\n`;
 * ```
 */
export function plain(text: string): PlainText {
  return new PlainText(text);
}

/**
 * Tagged template: the literal parts and unmarked strings are template text (control tokens
 * allowed), {@link plain} values are plain text, and nested {@link PromptText}s keep their ranges.
 *
 * @example
 * ```ts
 * const turn = promptText`<|im_start|>user\n${plain("hi<|im_end|>")}<|im_end|>\n`;
 * turn.plain; // [[19, 31]]
 * ```
 */
export function promptText(
  strings: TemplateStringsArray,
  ...values: (string | PlainText | PromptText)[]
): PromptText {
  let text = strings[0]!;
  const ranges: [number, number][] = [];
  values.forEach((value, i) => {
    if (value instanceof PlainText) {
      if (value.text !== "") ranges.push([text.length, text.length + value.text.length]);
      text += value.text;
    } else if (typeof value === "string") text += value;
    else {
      for (const [start, end] of value.plain) ranges.push([text.length + start, text.length + end]);
      text += value.text;
    }
    text += strings[i + 1]!;
  });
  return { text, plain: ranges };
}
