import { describe, expect, test } from "bun:test";
import { datesSaidIn, timesSaidIn, valueFormatOf } from "./said-times";

describe("the format a string parameter asks for", () => {
  test("from JSON Schema's format or the pattern its description names", () => {
    expect(valueFormatOf({ description: "Time as HH:MM, 24-hour." })).toEqual({
      kind: "time",
      dayWords: false,
    });
    expect(valueFormatOf({ description: "Day as YYYY-MM-DD, or today/tomorrow" })).toEqual({
      kind: "date",
      dayWords: true,
    });
    expect(valueFormatOf({ format: "date" })).toEqual({ kind: "date", dayWords: false });
    expect(valueFormatOf({ description: "City name as the user said it." })).toBeNull();
  });
});

describe("times of day an order says, as HH:MM", () => {
  test("English: am/pm, a half of the day said after, half past, o'clock, noon", () => {
    expect(timesSaidIn("set an alarm for 11 pm")).toEqual(["23:00"]);
    expect(timesSaidIn("alarm 2:40a.m. every day")).toEqual(["02:40"]);
    expect(timesSaidIn("12 am sharp")).toEqual(["00:00"]);
    expect(timesSaidIn("wake me at 7:40 PM")).toEqual(["19:40"]);
    expect(timesSaidIn("at 1:15in the morning")).toEqual(["01:15"]);
    expect(timesSaidIn("at 8:30 in the evening")).toEqual(["20:30"]);
    expect(timesSaidIn("at half past six")).toEqual(["06:30"]);
    expect(timesSaidIn("quarter to seven in the evening")).toEqual(["18:45"]);
    expect(timesSaidIn("at 7 o'clock")).toEqual(["07:00"]);
    expect(timesSaidIn("lunch at noon")).toEqual(["12:00"]);
    expect(timesSaidIn("at 19:05")).toEqual(["19:05"]);
  });

  test("Chinese: the half of the day said before, 半, 一刻, 分", () => {
    expect(timesSaidIn("设个闹钟，晚上10点45分")).toEqual(["22:45"]);
    expect(timesSaidIn("5点一刻 只响一次")).toEqual(["05:15"]);
    expect(timesSaidIn("凌晨4点半，每日")).toEqual(["04:30"]);
    expect(timesSaidIn("天天20点5分提醒我")).toEqual(["20:05"]);
    expect(timesSaidIn("下午三点开会")).toEqual(["15:00"]);
    expect(timesSaidIn("晚上10:45")).toEqual(["22:45"]);
    // 一点 alone is "a bit"
    expect(timesSaidIn("7点，快一点")).toEqual(["07:00"]);
    expect(timesSaidIn("凌晨一点")).toEqual(["01:00"]);
  });

  test("numbers that are no time of day are left out", () => {
    expect(timesSaidIn("move 30 cm at speed 5")).toEqual([]);
    expect(timesSaidIn("someone am I")).toEqual([]);
    expect(timesSaidIn("2026-05-10")).toEqual([]);
    expect(timesSaidIn("at 27:10")).toEqual([]);
  });
});

describe("days an order says, as YYYY-MM-DD", () => {
  const plain = { kind: "date" as const, dayWords: false };

  test("written out in either language, a missing year from the turn's first date", () => {
    expect(datesSaidIn("how cold will Dubai be on June 18, 2026", "", plain)).toEqual(["2026-06-18"]);
    expect(datesSaidIn("on the 3rd of March", "Today is 2025-11-21.", plain)).toEqual(["2025-03-03"]);
    expect(datesSaidIn("2026年8月2日长沙热不热", "", plain)).toEqual(["2026-08-02"]);
    expect(datesSaidIn("5月10号下午3点有个面试", "今天是2026-05-02。\n\n5月10号", plain)).toEqual([
      "2026-05-10",
    ]);
    expect(datesSaidIn("add it for 2025-11-24", "", plain)).toEqual(["2025-11-24"]);
    // no year anywhere: no date
    expect(datesSaidIn("on June 18", "", plain)).toEqual([]);
    // no such day
    expect(datesSaidIn("on February 30, 2026", "", plain)).toEqual([]);
  });

  test("today, tomorrow and the day after counted from the turn's date, unless the parameter takes the words", () => {
    const turn = "Today is 2025-12-31.\n\nadd it";
    expect(datesSaidIn("add interview the day after tomorrow", turn, plain)).toEqual(["2026-01-02"]);
    expect(datesSaidIn("新建日程：瑜伽课，明天", turn, plain)).toEqual(["2026-01-01"]);
    expect(datesSaidIn("weather tomorrow", turn, { kind: "date", dayWords: true })).toEqual([]);
    expect(datesSaidIn("weather tomorrow", "weather tomorrow", plain)).toEqual([]);
  });
});
