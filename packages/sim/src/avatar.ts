/**
 * A digital live-stream host: facial expression with intensity, a speech queue whose lines last
 * as long as their text takes to say, body gestures that play and blend back to idle, a gaze
 * target, and a timeline of every timed event. The tools are digital_human.json's.
 *
 * Rules:
 * - `set_expression` holds until replaced; intensity outside 0..1 is `out_of_range`.
 * - `speak` starts at once when the host is silent, otherwise queues behind the current line;
 *   a line lasts max(0.5 s, CJK characters / 4 per s + other non-space characters / 15 per s);
 *   blank text is `empty_text`.
 * - `gesture` plays for its type's duration ({@link GESTURE_DURATIONS_S}) and then returns to the
 *   idle pose; a new gesture interrupts the one playing.
 * - `look_at` turns the gaze at once.
 * - `idle` stops the gesture and the speech (clearing the queue), sets a neutral face (intensity
 *   0) and looks at the camera.
 */
import { dispatchCall, type ValidArgs } from "./call-dispatch";
import { scenarioWorld } from "./scenario-world";
import { scenarioTools } from "./scenarios";
import { type ApplyResult, accept, reject, type ToolCall, type World, type WorldEvent } from "./world";

export type Emotion = "happy" | "sad" | "surprised" | "angry" | "neutral" | "thinking";
export type Tone = "cheerful" | "calm" | "serious" | "excited";
export type GestureType = "wave" | "nod" | "shake_head" | "bow" | "point" | "thumbs_up" | "clap";
export type GazeTarget = "camera" | "left" | "right" | "up" | "down";

/** How long each gesture plays before the host blends back to idle, in seconds. */
export const GESTURE_DURATIONS_S: Readonly<Record<GestureType, number>> = {
  wave: 1.5,
  nod: 0.8,
  shake_head: 1,
  bow: 1.6,
  point: 1.2,
  thumbs_up: 1,
  clap: 1.4,
};

export interface SpeechRates {
  /** Characters per second for CJK scripts (each character is about one syllable). */
  cjkCharsPerS: number;
  /** Characters per second for everything else, whitespace not counted. */
  otherCharsPerS: number;
}

const DEFAULT_RATES: SpeechRates = { cjkCharsPerS: 4, otherCharsPerS: 15 };
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * How long a line takes to say.
 *
 * @example
 * speechDurationS("Welcome everyone!"); // 1.07 (16 letters at 15 per second)
 * speechDurationS("欢迎大家"); // 1 (4 characters at 4 per second)
 */
export function speechDurationS(text: string, rates: SpeechRates = DEFAULT_RATES): number {
  let cjk = 0;
  let other = 0;
  for (const char of text) {
    if (CJK.test(char)) cjk += 1;
    else if (char.trim() !== "") other += 1;
  }
  return Math.max(0.5, cjk / rates.cjkCharsPerS + other / rates.otherCharsPerS);
}

export interface AvatarOptions {
  /** A first environment line describing the stream, e.g. "Stream just started". */
  scene?: string;
  /** Chat messages already shown; the last three appear in the environment. */
  chat?: string[];
  rates?: SpeechRates;
}

export interface SpeechLine {
  text: string;
  tone: Tone;
  durationS: number;
}

export interface AvatarState {
  t: number;
  expression: { emotion: Emotion; intensity: number };
  speaking: (SpeechLine & { startS: number; endS: number }) | null;
  speechQueue: SpeechLine[];
  gesture: { type: GestureType; startS: number; endS: number } | null;
  pose: "idle" | "gesture";
  gaze: GazeTarget;
}

export interface AvatarWorld extends World<AvatarState> {
  /** Every event so far, in time order: what a test asserts a performance on. */
  timeline(): WorldEvent[];
  /** Adds a chat message for the environment. */
  pushChat(message: string): void;
  /** Replaces the scene line of the environment. */
  setScene(scene: string): void;
}

/**
 * Creates a digital human world.
 *
 * @example
 * const host = createAvatar({ scene: "Stream just started" });
 * host.apply({ function: "speak", args: { text: "Welcome everyone!", tone: "cheerful" } });
 * host.apply({ function: "gesture", args: { type: "wave" } });
 * host.step(2);
 * host.timeline().map((e) => e.type);
 * // ["speech_started", "gesture_started", "speech_ended", "gesture_ended"]
 */
export function createAvatar(options: AvatarOptions = {}): AvatarWorld {
  const tools = scenarioTools("digital_human");
  const rates = options.rates ?? DEFAULT_RATES;
  let scene = options.scene ?? null;
  const chat = [...(options.chat ?? [])];
  let t = 0;
  let expression: AvatarState["expression"] = { emotion: "neutral", intensity: 0 };
  let speaking: AvatarState["speaking"] = null;
  let queue: SpeechLine[] = [];
  let gesture: AvatarState["gesture"] = null;
  let gaze: GazeTarget = "camera";
  const calls: string[] = [];
  const events: WorldEvent[] = [];

  const emit = (at: number, type: string, detail?: Record<string, unknown>): WorldEvent => {
    const entry = detail ? { t: at, type, detail } : { t: at, type };
    events.push(entry);
    return entry;
  };

  const startLine = (line: SpeechLine, at: number): WorldEvent => {
    speaking = { ...line, startS: at, endS: at + line.durationS };
    return emit(at, "speech_started", { text: line.text, tone: line.tone, durationS: line.durationS });
  };

  const handlers = {
    set_expression(args: ValidArgs): ApplyResult {
      const intensity = args.intensity as number;
      if (intensity < 0 || intensity > 1) {
        return reject("out_of_range", `intensity must be in 0..1, got ${intensity}`, "intensity");
      }
      expression = { emotion: args.emotion as Emotion, intensity };
      return accept([emit(t, "expression", { ...expression })]);
    },
    speak(args: ValidArgs): ApplyResult {
      const text = (args.text as string).trim();
      if (text === "") return reject("empty_text", "speak needs something to say", "text");
      const line = { text, tone: args.tone as Tone, durationS: speechDurationS(text, rates) };
      if (!speaking) return accept([startLine(line, t)]);
      queue.push(line);
      return accept([emit(t, "speech_queued", { text, tone: line.tone, position: queue.length })]);
    },
    gesture(args: ValidArgs): ApplyResult {
      const type = args.type as GestureType;
      const out: WorldEvent[] = [];
      if (gesture) out.push(emit(t, "gesture_ended", { type: gesture.type, interrupted: true }));
      gesture = { type, startS: t, endS: t + GESTURE_DURATIONS_S[type] };
      out.push(emit(t, "gesture_started", { type, durationS: GESTURE_DURATIONS_S[type] }));
      return accept(out);
    },
    look_at(args: ValidArgs): ApplyResult {
      gaze = args.target as GazeTarget;
      return accept([emit(t, "gaze", { target: gaze })]);
    },
    idle(): ApplyResult {
      const out: WorldEvent[] = [];
      if (gesture) out.push(emit(t, "gesture_ended", { type: gesture.type, interrupted: true }));
      if (speaking) out.push(emit(t, "speech_ended", { text: speaking.text, interrupted: true }));
      gesture = null;
      speaking = null;
      queue = [];
      expression = { emotion: "neutral", intensity: 0 };
      gaze = "camera";
      out.push(emit(t, "idle"));
      return accept(out);
    },
  };

  function advance(dt: number): WorldEvent[] {
    const end = t + dt;
    const out: WorldEvent[] = [];
    for (;;) {
      const speechEnd = speaking?.endS ?? Number.POSITIVE_INFINITY;
      const gestureEnd = gesture?.endS ?? Number.POSITIVE_INFINITY;
      const next = Math.min(speechEnd, gestureEnd);
      if (next > end) break;
      t = next;
      if (speaking && speechEnd === next) {
        out.push(emit(t, "speech_ended", { text: speaking.text, interrupted: false }));
        speaking = null;
        const following = queue.shift();
        if (following) out.push(startLine(following, t));
      } else if (gesture) {
        out.push(emit(t, "gesture_ended", { type: gesture.type, interrupted: false }));
        gesture = null;
      }
    }
    t = end;
    return out;
  }

  function environment(): string[] {
    const lines: string[] = [];
    if (scene) lines.push(scene);
    if (chat.length > 0)
      lines.push(
        `Chat: ${chat
          .slice(-3)
          .map((m) => JSON.stringify(m))
          .join(" ")}`,
      );
    const face =
      expression.intensity === 0
        ? `${expression.emotion} face`
        : `${expression.emotion} ${expression.intensity}`;
    const voice = speaking ? `speaking${queue.length > 0 ? ` (${queue.length} more queued)` : ""}` : "silent";
    const body = gesture ? `doing ${gesture.type}` : "idle pose";
    lines.push(`Host: ${face}, ${voice}, ${body}, looking at ${gaze}`);
    return lines;
  }

  return {
    ...scenarioWorld("digital_human", tools, environment, advance),
    apply: (call: ToolCall) => dispatchCall(tools, handlers, call, calls),
    history: () => [...calls],
    state: (): AvatarState => ({
      t,
      expression: { ...expression },
      speaking: speaking ? { ...speaking } : null,
      speechQueue: queue.map((line) => ({ ...line })),
      gesture: gesture ? { ...gesture } : null,
      pose: gesture ? "gesture" : "idle",
      gaze,
    }),
    timeline: () => events.map((entry) => structuredClone(entry)),
    pushChat(message: string): void {
      chat.push(message);
    },
    setScene(line: string): void {
      scene = line;
    },
  };
}
