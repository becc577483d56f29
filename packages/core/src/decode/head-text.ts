/**
 * The text state of one head: where its value ends, whether a stop marker has been written (whole
 * or in part), and whether the head's constraint still holds. Works on decoded text, so stop
 * markers may be single added tokens or several text tokens alike.
 */

import type { ValueFormat } from "./said-times";

/**
 * A text-level constraint on one head's value (the stop marker is never part of the text).
 * The prompt engineer's constraints in `./constraints/` have this shape.
 */
export interface TextConstraint {
  /** `text` can still be extended to a valid value (prefix-closed). */
  accepts(text: string): boolean;
  /** `text` is a complete valid value, so a stop marker may follow. */
  isComplete(text: string): boolean;
  /** The unique rest of the value when only one completion remains, else null. */
  forcedContinuation(text: string): string | null;
  /** `<|null|>` (no value) is acceptable. */
  readonly allowsNull: boolean;
  /** `"null"` marks a head that may only be absent (it is then forced to `<|null|>`). */
  readonly kind?: string;
  /** The fixed strings a choice allows (the function head's tool names), where the constraint tells them. */
  readonly choices?: readonly string[];
  /** The parameters an arg head may be filling, where the constraint tells them. */
  readonly parameters?: readonly string[];
  /** Parameters this head is not filling, where the constraint tells them: values the order gives them by name are not this head's. */
  readonly otherParameters?: readonly string[];
  /** The time or date form a string parameter asks for (`HH:MM`, `YYYY-MM-DD`), once the function is known. */
  readonly format?: ValueFormat;
}

/** The markers that end one head. */
export interface HeadStops {
  /** Markers that end a value: the head's closing tag and `<|im_end|>`. */
  value: readonly string[];
  /** Markers that mean "no value": `<|null|>`. */
  null: readonly string[];
}

/** A head's text has not ended; `value` is the text without a partly written stop marker. */
export interface OpenText {
  kind: "open";
  value: string;
  /** The only stop marker the partly written suffix can still become, when the value cannot go on. */
  forcedMarker: string | null;
}

/** A head's text has ended at a stop marker (anything after it is ignored). */
export interface DoneText {
  kind: "done";
  value: string;
  marker: string;
  isNull: boolean;
}

export interface RejectedText {
  kind: "rejected";
}

export type HeadTextState = OpenText | DoneText | RejectedText;

const REJECTED: RejectedText = { kind: "rejected" };

function markerAllowed(constraint: TextConstraint | null, value: string, isNullMarker: boolean): boolean {
  if (!constraint) return true;
  if (isNullMarker) return constraint.allowsNull && value.trim() === "";
  return constraint.isComplete(value);
}

/**
 * Classifies a head's whole text. With a constraint, a text is open when the constraint accepts
 * it, or when it is a complete value followed by the beginning of a stop marker; a stop marker is
 * only allowed after a complete value, `<|null|>` only after nothing when the constraint allows
 * null. Rejection is prefix-closed: no extension of a rejected text is ever accepted.
 *
 * Under a constraint the first two characters of a stop marker (`</`, `<|`) only ever begin a
 * stop marker, so a value never contains them (free text included): once a head writes `</`, the
 * rest of its marker is known and is emitted without the model spelling it out token by token
 * (with tags as text, e.g. the Qwen3 vocabulary, that saves 3-4 forward passes per head).
 *
 * @example
 * ```ts
 * const stops = { value: ["</function>", "<|im_end|>"], null: ["<|null|>"] };
 * classifyHeadText("move</func", null, stops); // { kind: "open", value: "move", ... }
 * classifyHeadText("move</function>", null, stops); // { kind: "done", value: "move", ... }
 * ```
 */
export function classifyHeadText(
  text: string,
  constraint: TextConstraint | null,
  stops: HeadStops,
): HeadTextState {
  let first = -1;
  let firstMarker = "";
  let firstIsNull = false;
  const consider = (marker: string, isNull: boolean) => {
    const at = text.indexOf(marker);
    if (at >= 0 && (first < 0 || at < first)) {
      first = at;
      firstMarker = marker;
      firstIsNull = isNull;
    }
  };
  for (const marker of stops.value) consider(marker, false);
  for (const marker of stops.null) consider(marker, true);
  const start = constraint ? markerStartIn(text, stops) : -1;
  if (first >= 0) {
    const value = text.slice(0, first);
    if (!markerAllowed(constraint, value, firstIsNull) || (start >= 0 && start < first)) return REJECTED;
    return { kind: "done", value, marker: firstMarker, isNull: firstIsNull };
  }
  if (!constraint) return { kind: "open", value: text, forcedMarker: null };
  if (start >= 0) return committedToMarker(text, start, constraint, stops);
  if (constraint.accepts(text)) return { kind: "open", value: text, forcedMarker: null };
  // Not a value prefix: the only way on is a complete value followed by a partial marker.
  let open: OpenText | null = null;
  let viable = 0;
  const tryPartial = (marker: string, isNull: boolean) => {
    for (let k = Math.min(marker.length - 1, text.length); k >= 1; k--) {
      if (!text.endsWith(marker.slice(0, k))) continue;
      const value = text.slice(0, text.length - k);
      if (!markerAllowed(constraint, value, isNull)) continue;
      viable++;
      if (!open) open = { kind: "open", value, forcedMarker: marker };
    }
  };
  for (const marker of stops.value) tryPartial(marker, false);
  for (const marker of stops.null) tryPartial(marker, true);
  if (!open) return REJECTED;
  if (viable > 1) (open as OpenText).forcedMarker = null;
  return open;
}

/** The distinct marker starts of each stops object (asked for every candidate token: cached). */
const markerStartsOf = new WeakMap<HeadStops, string[]>();

/** Index of the first marker start (the first two characters of a stop marker) in `text`, or -1. */
function markerStartIn(text: string, stops: HeadStops): number {
  let starts = markerStartsOf.get(stops);
  if (!starts) {
    const all = [...stops.value, ...stops.null].filter((m) => m.length >= 2).map((m) => m.slice(0, 2));
    starts = [...new Set(all)];
    markerStartsOf.set(stops, starts);
  }
  let first = -1;
  for (const start of starts) {
    const at = text.indexOf(start);
    if (at >= 0 && (first < 0 || at < first)) first = at;
  }
  return first;
}

/** A text whose tail from `start` must become a stop marker: which markers it still can become. */
function committedToMarker(
  text: string,
  start: number,
  constraint: TextConstraint,
  stops: HeadStops,
): HeadTextState {
  const value = text.slice(0, start);
  const tail = text.slice(start);
  let forced: string | null = null;
  let viable = 0;
  const consider = (marker: string, isNull: boolean) => {
    if (!marker.startsWith(tail) || !markerAllowed(constraint, value, isNull)) return;
    viable++;
    forced = marker;
  };
  for (const marker of stops.value) consider(marker, false);
  for (const marker of stops.null) consider(marker, true);
  if (viable === 0) return REJECTED;
  return { kind: "open", value, forcedMarker: viable === 1 ? forced : null };
}

/**
 * What a constraint forces from an open text without running the model: the rest of the value
 * and its stop marker (`<|null|>` for an arg head that can only be absent), or null when the model
 * must choose.
 */
export function forcedEnding(
  state: OpenText,
  constraint: TextConstraint | null,
  stops: HeadStops,
): DoneText | null {
  if (!constraint) return null;
  if (state.forcedMarker !== null) {
    return {
      kind: "done",
      value: state.value,
      marker: state.forcedMarker,
      isNull: stops.null.includes(state.forcedMarker),
    };
  }
  if (state.value === "" && constraint.allowsNull) {
    // Absent is possible; only when nothing else is can null be forced.
    const onlyNull = constraint.kind === "null" || !constraint.accepts("");
    if (!onlyNull || stops.null.length === 0) return null;
    return { kind: "done", value: "", marker: stops.null[0], isNull: true };
  }
  const rest = constraint.forcedContinuation(state.value);
  if (rest === null || stops.value.length === 0) return null;
  const value = state.value + rest;
  if (!constraint.isComplete(value)) return null;
  return { kind: "done", value, marker: stops.value[0], isNull: false };
}
