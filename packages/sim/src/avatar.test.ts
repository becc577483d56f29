import { describe, expect, test } from "bun:test";
import { type AvatarWorld, createAvatar, GESTURE_DURATIONS_S, speechDurationS } from "./avatar";
import type { ApplyResult, ToolCall } from "./world";

function ok(result: ApplyResult): void {
  if (!result.ok) throw new Error(`expected acceptance, got ${result.code}: ${result.reason}`);
}

const speak = (text: string, tone = "cheerful"): ToolCall => ({ function: "speak", args: { text, tone } });

describe("speechDurationS", () => {
  test("counts CJK per character and other scripts per letter, ignoring spaces", () => {
    expect(speechDurationS("欢迎大家")).toBe(1);
    expect(speechDurationS("hello world, hi")).toBe(13 / 15);
    expect(speechDurationS("hi")).toBe(0.5);
    expect(speechDurationS("大家好 everyone")).toBe(3 / 4 + 8 / 15);
  });
});

describe("createAvatar", () => {
  test("greet, wave, look at the camera, idle: the timeline holds them in time order", () => {
    const host = createAvatar({
      scene: "Stream just started, chat is filling up",
      chat: ["hi!", "good evening"],
    });
    ok(host.apply(speak("Welcome everyone, great to see you!")));
    ok(host.apply({ function: "gesture", args: { type: "wave" } }));
    host.step(1);
    ok(host.apply({ function: "look_at", args: { target: "left" } }));
    ok(host.apply({ function: "look_at", args: { target: "camera" } }));
    host.step(2);
    ok(host.apply({ function: "idle", args: {} }));
    const lineS = speechDurationS("Welcome everyone, great to see you!");
    expect(host.timeline()).toEqual([
      {
        t: 0,
        type: "speech_started",
        detail: { text: "Welcome everyone, great to see you!", tone: "cheerful", durationS: lineS },
      },
      { t: 0, type: "gesture_started", detail: { type: "wave", durationS: 1.5 } },
      { t: 1, type: "gaze", detail: { target: "left" } },
      { t: 1, type: "gaze", detail: { target: "camera" } },
      { t: 1.5, type: "gesture_ended", detail: { type: "wave", interrupted: false } },
      {
        t: lineS,
        type: "speech_ended",
        detail: { text: "Welcome everyone, great to see you!", interrupted: false },
      },
      { t: 3, type: "idle" },
    ]);
    expect(host.history()).toEqual([
      "speak(Welcome everyone, great to see you!,cheerful)",
      "gesture(wave)",
      "look_at(left)",
      "look_at(camera)",
      "idle()",
    ]);
  });

  test("lines queue behind the one being said and start when it ends", () => {
    const host = createAvatar();
    ok(host.apply(speak("你好")));
    const queued = host.apply(speak("Second line", "calm"));
    expect(queued.ok && queued.events[0]).toMatchObject({ type: "speech_queued", detail: { position: 1 } });
    expect(host.state().speechQueue).toHaveLength(1);
    const events = host.step(0.6);
    expect(events.map((e) => [e.t, e.type])).toEqual([
      [0.5, "speech_ended"],
      [0.5, "speech_started"],
    ]);
    expect(host.state().speaking).toMatchObject({ text: "Second line", tone: "calm", startS: 0.5 });
    host.step(5);
    expect(host.state().speaking).toBeNull();
  });

  test("a gesture returns to the idle pose after its duration; a new one interrupts it", () => {
    const host = createAvatar();
    ok(host.apply({ function: "gesture", args: { type: "bow" } }));
    expect(host.state().pose).toBe("gesture");
    host.step(1);
    const next = host.apply({ function: "gesture", args: { type: "nod" } });
    expect(next.ok && next.events.map((e) => e.detail)).toEqual([
      { type: "bow", interrupted: true },
      { type: "nod", durationS: GESTURE_DURATIONS_S.nod },
    ]);
    host.step(GESTURE_DURATIONS_S.nod);
    expect(host.state()).toMatchObject({ pose: "idle", gesture: null });
  });

  test("expression holds until replaced; idle resets face, gaze, gesture and speech", () => {
    const host = createAvatar();
    ok(host.apply({ function: "set_expression", args: { emotion: "happy", intensity: 0.8 } }));
    ok(host.apply({ function: "look_at", args: { target: "up" } }));
    ok(host.apply({ function: "gesture", args: { type: "clap" } }));
    ok(host.apply(speak("One")));
    ok(host.apply(speak("Two")));
    host.step(0.2);
    expect(host.environment()).toEqual([
      "Host: happy 0.8, speaking (1 more queued), doing clap, looking at up",
    ]);
    const idle = host.apply({ function: "idle", args: {} });
    expect(idle.ok && idle.events.map((e) => e.type)).toEqual(["gesture_ended", "speech_ended", "idle"]);
    expect(host.state()).toEqual({
      t: 0.2,
      expression: { emotion: "neutral", intensity: 0 },
      speaking: null,
      speechQueue: [],
      gesture: null,
      pose: "idle",
      gaze: "camera",
    });
    expect(host.environment()).toEqual(["Host: neutral face, silent, idle pose, looking at camera"]);
  });

  test("environment shows the scene and the last three chat messages", () => {
    const host = createAvatar({ scene: "Stream just started, chat is filling up", chat: ["hi!"] });
    host.pushChat("good evening");
    expect(host.environment().slice(0, 2)).toEqual([
      "Stream just started, chat is filling up",
      'Chat: "hi!" "good evening"',
    ]);
    host.setScene("Giveaway in five minutes");
    for (const message of ["a", "b", "c"]) host.pushChat(message);
    expect(host.environment().slice(0, 2)).toEqual(["Giveaway in five minutes", 'Chat: "a" "b" "c"']);
  });

  describe("rejections", () => {
    const cases: Array<[string, ToolCall, string, string]> = [
      [
        "intensity above 1",
        { function: "set_expression", args: { emotion: "sad", intensity: 1.5 } },
        "out_of_range",
        "intensity",
      ],
      [
        "negative intensity",
        { function: "set_expression", args: { emotion: "sad", intensity: -0.1 } },
        "out_of_range",
        "intensity",
      ],
      [
        "unknown emotion",
        { function: "set_expression", args: { emotion: "bored", intensity: 0.5 } },
        "bad_enum",
        "emotion",
      ],
      ["blank text", speak("   "), "empty_text", "text"],
      ["unknown tone", speak("hello", "sarcastic"), "bad_enum", "tone"],
      ["speak without a tone", { function: "speak", args: { text: "hello" } }, "missing_arg", "tone"],
      ["unknown gesture", { function: "gesture", args: { type: "dance" } }, "bad_enum", "type"],
      ["unknown gaze target", { function: "look_at", args: { target: "chat" } }, "bad_enum", "target"],
      ["unknown tool", { function: "sing", args: {} }, "unknown_tool", "function"],
    ];
    for (const [name, call, code, field] of cases) {
      test(name, () => {
        const host: AvatarWorld = createAvatar();
        const result = host.apply(call);
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect([result.code, result.field]).toEqual([code as typeof result.code, field]);
        expect(host.timeline()).toEqual([]);
        expect(host.history()).toEqual([]);
      });
    }
  });
});
