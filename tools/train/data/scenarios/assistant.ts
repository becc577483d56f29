import type { Phrasing } from "../phrasing";
import type { TargetCall } from "../types";
import {
  ALARM_EN_MORE,
  ALARM_ZH_MORE,
  CALC_EN_MORE,
  CALC_ZH_MORE,
  EVENT_EN_MORE,
  EVENT_ZH_MORE,
  WEATHER_EN_MORE,
  WEATHER_ZH_MORE,
} from "./assistant-phrasings";
import type { Draw } from "./draw";

const CITIES_EN = [
  "Zibo",
  "Paris",
  "London",
  "Tokyo",
  "Berlin",
  "Madrid",
  "Boston",
  "Seattle",
  "Denver",
  "Lagos",
  "Nairobi",
  "Lima",
  "Oslo",
  "Kyoto",
  "Hangzhou",
  "Shenzhen",
  "Chengdu",
  "Munich",
  "Lyon",
  "Porto",
  "Austin",
  "Toronto",
  "Sydney",
  "Perth",
  "Cairo",
  "Dubai",
  "Mumbai",
  "Hanoi",
  "Seoul",
  "Busan",
  "Reykjavik",
  "Quito",
  "San Diego",
  "New York",
  "Hong Kong",
  "Cape Town",
  "Rio de Janeiro",
  "Salt Lake City",
];
const CITIES_ZH = [
  "淄博",
  "北京",
  "上海",
  "广州",
  "深圳",
  "杭州",
  "成都",
  "重庆",
  "武汉",
  "西安",
  "南京",
  "苏州",
  "青岛",
  "济南",
  "厦门",
  "昆明",
  "大连",
  "哈尔滨",
  "长沙",
  "天津",
  "郑州",
  "东京",
  "巴黎",
  "伦敦",
  "纽约",
  "乌鲁木齐",
  "拉萨",
];
const EVENTS_EN = [
  "dentist appointment",
  "team meeting",
  "Lunch with Sam",
  "yoga class",
  "project review",
  "Mom's birthday dinner",
  "flight to Paris",
  "parent-teacher meeting",
  "car service",
  "Book club",
  "doctor visit",
  "Standup",
];
const EVENTS_ZH = [
  "看牙医",
  "团队会议",
  "和小王吃午饭",
  "瑜伽课",
  "项目评审",
  "妈妈生日晚宴",
  "飞巴黎的航班",
  "家长会",
  "汽车保养",
  "读书会",
  "体检",
  "周会",
];
const PEOPLE_EN = [
  "Sam",
  "Bob",
  "Dr. Chen",
  "Anna",
  "the landlord",
  "Priya",
  "Marco",
  "Grandma",
  "the design team",
  "Lee",
];
const PEOPLE_ZH = ["小王", "老李", "陈医生", "张总", "房东", "奶奶", "设计组", "小美"];

/** An event title: a stock one or one composed with a person the model must copy. */
function eventTitle(ph: Phrasing): string {
  const r = ph.rng;
  if (r.chance(0.5)) return r.pick(ph.lang === "en" ? EVENTS_EN : EVENTS_ZH);
  const who = r.pick(ph.lang === "en" ? PEOPLE_EN : PEOPLE_ZH);
  return r.pick(
    ph.lang === "en"
      ? [
          `meeting with ${who}`,
          `lunch with ${who}`,
          `call with ${who}`,
          `coffee with ${who}`,
          `dinner with ${who}`,
          `interview with ${who}`,
        ]
      : [`和${who}开会`, `和${who}吃饭`, `给${who}打电话`, `跟${who}喝咖啡`, `见${who}`],
  );
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

function isoDate(ph: Phrasing): [string, number, number, number] {
  const y = ph.rng.pick([2025, 2026, 2026, 2027]);
  const m = ph.rng.int(1, 12);
  const d = ph.rng.int(1, 28);
  return [`${y}-${pad(m)}-${pad(d)}`, y, m, d];
}

/** A spoken date with the YYYY-MM-DD it means. */
function spokenDate(ph: Phrasing): [string, string] {
  const [iso, y, m, d] = isoDate(ph);
  if (ph.lang === "zh") return [ph.rng.pick([`${y}年${m}月${d}日`, iso, `${y}年${m}月${d}号`]), iso];
  return [ph.rng.pick([iso, `${MONTHS[m - 1]} ${d}, ${y}`, `${d} ${MONTHS[m - 1]} ${y}`, iso]), iso];
}

/** `YYYY-MM-DD` plus `days`, in UTC so no time zone moves the date. */
function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A spoken time with the 24-hour HH:MM it means. */
function spokenTime(ph: Phrasing): [string, string] {
  const r = ph.rng;
  const h = r.chance(0.08) ? r.pick([0, 12]) : r.int(0, 23);
  const m = r.pick([0, 0, 0, 15, 30, 45, 5, 10, 20, 40, 50]);
  const hhmm = `${pad(h)}:${pad(m)}`;
  if (ph.lang === "en" && m === 0 && (h === 0 || h === 12) && r.chance(0.6))
    return [h === 0 ? "midnight" : "noon", hhmm];
  if (ph.lang === "zh") {
    const part = h < 6 ? "凌晨" : h < 12 ? "早上" : h < 13 ? "中午" : h < 18 ? "下午" : "晚上";
    const h12 = h > 12 ? h - 12 : h;
    const mins = m === 0 ? "" : m === 30 ? "半" : m === 15 ? "一刻" : `${m}分`;
    return [r.pick([`${part}${h12}点${mins}`, hhmm, `${h}点${mins}`]), hhmm];
  }
  const h12 = h % 12 === 0 ? 12 : h % 12;
  const ampm =
    h < 12
      ? r.pick(["am", "AM", "a.m.", "in the morning"])
      : r.pick(["pm", "PM", "p.m.", h >= 18 ? "in the evening" : "in the afternoon"]);
  const minText = m === 0 ? r.pick(["", ":00"]) : `:${pad(m)}`;
  return [r.pick([`${h12}${minText} ${ampm}`, hhmm, `${h12}${minText}${ampm}`]), hhmm];
}

/** Local assistant: get_weather, set_alarm, add_event, calculate. */
export function drawAssistant(ph: Phrasing): Draw {
  const r = ph.rng;
  const en = ph.lang === "en";
  const kind = r.pick(["weather", "weather", "alarm", "alarm", "event", "event", "calc", "calc"]);
  let call: TargetCall;
  let query: string;
  const today = isoDate(ph)[0];
  let context = r.chance(0.35) ? (en ? `Today is ${today}.\n\n` : `今天是${today}。\n\n`) : "";
  if (kind === "weather") {
    const city = r.pick(en ? CITIES_EN : CITIES_ZH);
    const when = r.pick(["none", "none", "today", "tomorrow", "date"]);
    let whenText = "";
    const args: Record<string, string> = { city };
    if (when === "today") whenText = en ? r.pick(["today", "right now"]) : r.pick(["今天", "现在"]);
    if (when === "tomorrow") {
      whenText = en ? "tomorrow" : "明天";
      args.date = "tomorrow";
    }
    if (when === "date") {
      const [said, iso] = spokenDate(ph);
      whenText = en ? `on ${said}` : said;
      args.date = iso;
    }
    const t = en
      ? ph.choose([
          "What's the weather like in {c} {w}?",
          "weather in {c} {w}",
          "Will it rain in {c} {w}?",
          "how hot is it in {c} {w}",
          "forecast for {c} {w}",
          "Is it sunny in {c} {w}?",
          "do I need an umbrella in {c} {w}",
          "tell me the weather for {c} {w}",
          "how cold will {c} be {w}",
          ...WEATHER_EN_MORE,
        ])
      : ph.choose([
          "{w}{c}天气怎么样",
          "{c}{w}会下雨吗",
          "查一下{c}{w}的天气",
          "{w}{c}热不热",
          "{c}{w}天气预报",
          "{w}{c}需要带伞吗",
          "告诉我{c}{w}的天气",
          "{c}{w}冷吗",
          ...WEATHER_ZH_MORE,
        ]);
    query = ph.say(t, { w: whenText }, { c: city });
    call = { function: "get_weather", args };
  } else if (kind === "alarm") {
    const [said, hhmm] = spokenTime(ph);
    const rep = r.pick(["none", "none", "once", "daily", "weekly"]);
    const repWord: Record<string, string[]> = en
      ? {
          none: [""],
          once: ["just once", "one time only", "only for tomorrow"],
          daily: ["every day", "daily", "each morning", "every single day"],
          weekly: ["every week", "weekly", "once a week"],
        }
      : {
          none: [""],
          once: ["只响一次", "就一次"],
          daily: ["每天", "天天", "每日"],
          weekly: ["每周", "每个星期", "每星期"],
        };
    const rw = r.pick(repWord[rep]!);
    const t = en
      ? ph.choose([
          "set an alarm for {t} {r}",
          "wake me up at {t} {r}",
          "alarm at {t} {r}",
          "{r} wake me at {t}",
          "I need an alarm {r} at {t}",
          "remind me to get up at {t} {r}",
          "set my alarm to {t} {r}",
          "alarm {t} {r}",
          ...ALARM_EN_MORE,
        ])
      : ph.choose([
          "{r}{t}叫我起床",
          "定一个{t}的闹钟{r}",
          "{r}{t}提醒我起床",
          "设个闹钟，{t}，{r}",
          "{t}的闹钟{r}",
          "叫我{r}{t}起床",
          "帮我设{r}{t}的闹铃",
          ...ALARM_ZH_MORE,
        ]);
    query = ph.say(t, { r: rw }, { t: said });
    call = { function: "set_alarm", args: rep === "none" ? { time: hhmm } : { time: hhmm, repeat: rep } };
  } else if (kind === "event") {
    const title = eventTitle(ph);
    let [said, iso] = spokenDate(ph);
    if (r.chance(0.3)) {
      // Relative days need today's date, which the query then carries.
      const ahead = r.pick([0, 1, 1, 2]);
      context = en ? `Today is ${today}.\n\n` : `今天是${today}。\n\n`;
      said = en ? ["today", "tomorrow", "the day after tomorrow"][ahead]! : ["今天", "明天", "后天"][ahead]!;
      iso = addDays(today, ahead);
    }
    const withTime = r.chance(0.5);
    const [tSaid, hhmm] = spokenTime(ph);
    const at = withTime ? (en ? ` at ${tSaid}` : /\d$/.test(said) ? ` ${tSaid}` : tSaid) : "";
    const t = en
      ? ph.choose([
          "add {e} on {d}{at}",
          "put {e} in my calendar for {d}{at}",
          "schedule {e} on {d}{at}",
          "new event: {e}, {d}{at}",
          "I have {e} on {d}{at}",
          "create an event {e} for {d}{at}",
          "book {e} {d}{at}",
          ...EVENT_EN_MORE,
        ])
      : ph.choose([
          "{d}{at}加一个{e}",
          "把{e}加到日历，{d}{at}",
          "安排{d}{at}{e}",
          "新建日程：{e}，{d}{at}",
          "{d}{at}有{e}，记一下",
          "在{d}{at}添加{e}",
          ...EVENT_ZH_MORE,
        ]);
    query = ph
      .say(t, {}, { e: title, d: said, at })
      .replace(/\b(on|for) (today|tomorrow|the day after)/g, "$2");
    call = {
      function: "add_event",
      args: withTime ? { title, date: iso, time: hhmm } : { title, date: iso },
    };
  } else {
    const a = r.int(1, 999);
    const b = r.int(1, 99);
    const op = r.pick(["+", "-", "*", "/"]);
    const opEn: Record<string, string[]> = {
      "+": ["plus", "+", "and"],
      "-": ["minus", "-"],
      "*": ["times", "multiplied by", "x", "*"],
      "/": ["divided by", "over", "/"],
    };
    const opZh: Record<string, string[]> = {
      "+": ["加", "加上", "+"],
      "-": ["减", "减去", "-"],
      "*": ["乘以", "乘", "×"],
      "/": ["除以", "/"],
    };
    const paren = r.chance(0.2);
    let expression = `${a}${op}${b}`;
    let spoken = `${a} ${r.pick((en ? opEn : opZh)[op]!)} ${b}`;
    if (paren) {
      const c = r.int(2, 20);
      expression = `(${a}${op}${b})*${c}`;
      spoken = en ? `(${a} ${op} ${b}) * ${c}` : `(${a}${op}${b})×${c}`;
    }
    if (!en) spoken = spoken.replace(/ /g, "");
    const t = en
      ? ph.choose([
          "what is {x}",
          "calculate {x}",
          "what's {x}?",
          "compute {x}",
          "how much is {x}",
          "{x} equals what",
          "work out {x}",
          "quick math: {x}",
          ...CALC_EN_MORE,
        ])
      : ph.choose([
          "{x}等于多少",
          "算一下{x}",
          "{x}是多少",
          "帮我计算{x}",
          "{x}得几",
          "计算{x}",
          ...CALC_ZH_MORE,
        ]);
    query = ph.say(t, {}, { x: spoken });
    call = { function: "calculate", args: { expression } };
  }
  return { query: context + query, history: [], call };
}
