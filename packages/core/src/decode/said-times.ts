/**
 * Times and dates an order says, in the form a parameter asks for: a `time` parameter described
 * as `HH:MM, 24-hour` gets "23:00" for "11 pm" and "22:45" for "晚上10点45分", a `date` one
 * described as `YYYY-MM-DD` gets "2026-06-18" for "June 18, 2026" and "2026-08-02" for
 * "2026年8月2日". The conversion is arithmetic a tiny model gets wrong though it copies the
 * digits right: rt-tiny answered "SET AN ALARM FOR 11 pm" with `11:00` and "2:40a.m." with
 * `21:40`. The arg head gets these values' tokens nudged as it gets the values the order gives a
 * parameter by name (`said-values.ts`); the model still decides whether the parameter is given.
 *
 * rt-tiny's held-out requests through rtool: assistant 79.9 -> 86.1% (families 76.5 -> 86.5%),
 * all 70.7 -> 71.4%; no scenario lower.
 */

/** What a string parameter's value looks like, read from its schema. */
export interface ValueFormat {
  kind: "time" | "date";
  /** The parameter also takes a day as a word (`today`, `tomorrow`): relative days are left to the model. */
  dayWords: boolean;
}

/**
 * The format a parameter asks for: JSON Schema's `format: "time"` / `"date"`, or its
 * description naming the pattern (`HH:MM`, `YYYY-MM-DD`); null for any other.
 */
export function valueFormatOf(parameter: { description?: string; format?: string }): ValueFormat | null {
  const description = parameter.description ?? "";
  const dayWords = /\b(today|tomorrow)\b/i.test(description);
  if (parameter.format === "time" || /\bHH:MM\b/.test(description)) return { kind: "time", dayWords };
  if (parameter.format === "date" || /\bYYYY-MM-DD\b/.test(description)) return { kind: "date", dayWords };
  return null;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `h:m` as HH:MM, or null when it is no time of day. */
function clock(hour: number, minute: number): string | null {
  if (!(hour >= 0 && hour <= 24 && minute >= 0 && minute < 60)) return null;
  return `${pad(hour % 24)}:${pad(minute)}`;
}

/** Hours by their English and Chinese number words (one..twelve, 一..十二). */
const HOUR_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  零: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
  十一: 11,
  十二: 12,
};

function hourOf(text: string): number {
  return /^\d+$/.test(text) ? Number(text) : (HOUR_WORDS[text.toLowerCase()] ?? Number.NaN);
}

/** `hour` in the half of the day a word after or before the time says ("in the evening", "下午"). */
function inHalfOfDay(hour: number, afternoon: boolean | null): number {
  if (afternoon === true && hour < 12) return hour + 12;
  if (afternoon === false && hour === 12) return 0;
  return hour;
}

const EN_PM = /^\s*(?:in the (?:afternoon|evening)|at night|tonight)/i;
const EN_AM = /^\s*in the morning/i;
const ZH_PM = /(下午|傍晚|晚上|夜里|夜间|今晚)$/;
const ZH_AM = /(凌晨|早上|早晨|上午|清晨)$/;

/** The half of the day the words right after an English time, or right before a Chinese one, say. */
function halfOfDay(after: string, before: string): boolean | null {
  if (EN_PM.test(after) || ZH_PM.test(before)) return true;
  if (EN_AM.test(after) || ZH_AM.test(before)) return false;
  if (/中午$/.test(before)) return true;
  return null;
}

/** Every time of day `order` says, as HH:MM (24-hour). */
export function timesSaidIn(order: string): string[] {
  const found = new Set<string>();
  const add = (t: string | null) => t !== null && found.add(t);
  const hour = "(\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)";
  // 11 pm, 2:40a.m., 5:10 AM
  for (const m of order.matchAll(
    new RegExp(`(?<![\\w:])${hour}(?::(\\d{2}))?\\s*([ap])\\.?\\s?m\\b\\.?`, "gi"),
  )) {
    const h = hourOf(m[1]!);
    if (h >= 1 && h <= 12) add(clock((h % 12) + (m[3]!.toLowerCase() === "p" ? 12 : 0), Number(m[2] ?? 0)));
  }
  // 19:40, 1:15 in the morning, 晚上10:45 (no am/pm after it)
  for (const m of order.matchAll(/(?<![\d:])(\d{1,2}):(\d{2})(?!\d|\s*[ap]\.?\s?m\b)/gi)) {
    const at = m.index! + m[0].length;
    add(clock(inHalfOfDay(Number(m[1]), halfOfDay(order.slice(at), order.slice(0, m.index))), Number(m[2])));
  }
  // half past six, quarter to seven, 7 o'clock
  for (const m of order.matchAll(new RegExp(`\\b(half|quarter) (past|to) ${hour}\\b`, "gi"))) {
    const h = hourOf(m[3]!);
    const past = m[2]!.toLowerCase() === "past";
    const minutes = m[1]!.toLowerCase() === "half" ? 30 : past ? 15 : 45;
    const at = m.index! + m[0].length;
    const h24 = inHalfOfDay(past ? h : h - 1, halfOfDay(order.slice(at), ""));
    add(clock(h24, minutes));
  }
  for (const m of order.matchAll(new RegExp(`\\b${hour} o'?clock\\b`, "gi"))) {
    const at = m.index! + m[0].length;
    add(clock(inHalfOfDay(hourOf(m[1]!), halfOfDay(order.slice(at), "")), 0));
  }
  if (/\bnoon\b/i.test(order)) add("12:00");
  if (/\bmidnight\b/i.test(order)) add("00:00");
  // 晚上10点45分, 5点一刻, 凌晨4点半, 下午3点
  const zh =
    /((?:凌晨|早上|早晨|上午|清晨|中午|下午|傍晚|晚上|夜里|夜间|今晚)?)\s*(\d{1,2}|十[一二]?|[零一二两三四五六七八九十])点(?:(\d{1,2})分?|(半)|(一刻)|(三刻))?/g;
  for (const m of order.matchAll(zh)) {
    const h = hourOf(m[2]!);
    const exact = m[3] !== undefined || m[4] || m[5] || m[6];
    // 一点 alone is mostly "a bit" (快一点, 慢一点), a time only with its half of the day or minutes
    if (m[2] === "一" && !m[1] && !exact) continue;
    const minute = m[3] !== undefined ? Number(m[3]) : m[4] ? 30 : m[5] ? 15 : m[6] ? 45 : 0;
    add(clock(inHalfOfDay(h, halfOfDay("", m[1]!)), minute));
  }
  return [...found];
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";

function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, "0")}-${pad(month)}-${pad(day)}`;
}

/** The first YYYY-MM-DD date of `turn` (the "Today is ..." line a client sends), as numbers. */
function todayIn(turn: string): Date | null {
  const m = /(\d{4})-(\d{2})-(\d{2})/.exec(turn);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

/**
 * Every day `order` says, as YYYY-MM-DD: written out (`2026-05-10`, `June 18, 2026`,
 * `18 June`, `2026年8月2日`, `5月10号`), a year left out taken from the first date of `turn`
 * (the "Today is" line), and unless `format.dayWords`, today, tomorrow and the day after
 * (今天, 明天, 后天) counted from that date.
 */
export function datesSaidIn(order: string, turn: string, format: ValueFormat): string[] {
  const found = new Set<string>();
  const today = todayIn(turn);
  const year = (y: string | undefined) => (y !== undefined ? Number(y) : today?.getUTCFullYear());
  const add = (y: number | undefined, month: number, day: number) => {
    const date = y === undefined ? null : isoDate(y, month, day);
    if (date) found.add(date);
  };
  for (const m of order.matchAll(/(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)/g))
    add(Number(m[1]), Number(m[2]), Number(m[3]));
  for (const m of order.matchAll(/(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]/g))
    add(year(m[1]), Number(m[2]), Number(m[3]));
  const monthOf = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
  const monthFirst = new RegExp(`\\b${MONTH}\\.? (\\d{1,2})(?:st|nd|rd|th)?\\b(?:,? (\\d{4}))?`, "gi");
  for (const m of order.matchAll(monthFirst)) add(year(m[3]), monthOf(m[1]!), Number(m[2]));
  const dayFirst = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH}\\b(?:,? (\\d{4}))?`, "gi");
  for (const m of order.matchAll(dayFirst)) add(year(m[3]), monthOf(m[2]!), Number(m[1]));
  if (today && !format.dayWords) {
    const after = (days: number) => {
      const d = new Date(today.getTime() + days * 86_400_000);
      add(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
    };
    if (/\bday after tomorrow\b|后天/i.test(order)) after(2);
    else if (/\btomorrow\b|明天/i.test(order)) after(1);
    else if (/\btoday\b|今天/i.test(order)) after(0);
  }
  return [...found];
}
