/**
 * Head tags and stop markers of multi-head decoding, spelled as the reference server
 * spells them. The prompt for head h is the shared prompt followed by h's tag.
 */

/** Marker a head emits for "no value" (an unused or omitted argument). */
export const NULL_MARKER = "<|null|>";
/** End-of-turn marker; ends any head. */
export const END_OF_TURN = "<|im_end|>";

/** Name of a head: the function, a positional argument, or free content. */
export type HeadName = "function" | `arg${1 | 2 | 3 | 4 | 5 | 6}` | "content";

/** Opening tag of a head, e.g. `<arg2>`. */
export function headTag(head: HeadName): string {
  return `<${head}>`;
}

/** Closing tag of a head, e.g. `</arg2>`. */
export function headCloseTag(head: HeadName): string {
  return `</${head}>`;
}

/**
 * Heads of a request with `argCount` arg heads (the largest parameter count among its tools),
 * in the order `function, arg1..argK`, then `content` when asked for.
 */
export function headNames(argCount: number, includeContent = false): HeadName[] {
  if (!Number.isInteger(argCount) || argCount < 0 || argCount > 6) {
    throw new RangeError(`argCount must be an integer 0..6, got ${argCount}`);
  }
  const names: HeadName[] = ["function"];
  for (let i = 1; i <= argCount; i++) names.push(`arg${i}` as HeadName);
  if (includeContent) names.push("content");
  return names;
}

/**
 * Opening tags of the heads: `["<function>", "<arg1>", ..., "<argK>", "<content>"?]`.
 *
 * @example
 * headTags(2, true); // ["<function>", "<arg1>", "<arg2>", "<content>"]
 */
export function headTags(argCount: number, includeContent = false): string[] {
  return headNames(argCount, includeContent).map(headTag);
}

/**
 * Texts that end a head: its own closing tag, the null marker and end of turn.
 * The reference model ends an unused argument as `<|null|>`, sometimes followed by the
 * closing tag, so `<|null|>` alone already ends the head.
 *
 * @example
 * stopMarkers("arg1"); // ["</arg1>", "<|null|>", "<|im_end|>"]
 */
export function stopMarkers(head: HeadName): string[] {
  return [headCloseTag(head), NULL_MARKER, END_OF_TURN];
}
