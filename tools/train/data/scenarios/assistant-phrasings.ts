/**
 * Extra phrasings for the assistant requests in `assistant.ts`. They are appended after each
 * list's original entries (never interleaved), so `Phrasing.choose`'s held-out reservation of
 * every fourth entry keeps the original entries at their indices.
 */

/** `get_weather(city, date?)`, English: {c} city, {w} "", "today", "tomorrow" or "on <date>". */
export const WEATHER_EN_MORE: readonly string[] = [
  "How's the weather in {c} {w}?",
  "could you check the weather in {c} {w}?",
  "I'd like the forecast for {c} {w}",
  "what's the temperature in {c} {w}",
  "any chance of snow in {c} {w}?",
  "Is it windy in {c} {w}?",
  "{c} weather {w}",
  "give me the {c} forecast {w}",
  "hey, what's the weather doing in {c} {w}?",
  "should I bring a jacket in {c} {w}?",
];

/** `get_weather(city, date?)`, Chinese: {c} city, {w} "", 今天, 明天 or a date. */
export const WEATHER_ZH_MORE: readonly string[] = [
  "{c}{w}天气如何",
  "{c}{w}多少度",
  "{w}{c}会不会下雪",
  "帮我看看{c}{w}的天气",
  "{c}{w}气温怎么样",
  "我想知道{c}{w}的天气",
  "{c}{w}是晴天吗",
  "能查下{c}{w}的天气吗",
  "{w}{c}的天气预报是什么",
  "请问{c}{w}天气怎样",
  "{c}{w}下不下雨",
  "{w}{c}天气咋样",
];

/** `set_alarm(time, repeat?)`, English: {t} time, {r} "" or a repeat phrase. */
export const ALARM_EN_MORE: readonly string[] = [
  "can you wake me at {t} {r}?",
  "I want to wake up at {t} {r}",
  "get me up at {t} {r}",
  "put an alarm on for {t} {r}",
  "could you set a {t} alarm {r}",
  "ring me at {t} {r}",
  "set a wake-up alarm for {t} {r}",
  "I'd like an alarm at {t} {r}",
  "add an alarm for {t} {r}",
  "alarm me at {t} {r}",
];

/** `set_alarm(time, repeat?)`, Chinese: {t} time, {r} "" or a repeat phrase. */
export const ALARM_ZH_MORE: readonly string[] = [
  "{r}{t}叫醒我",
  "帮我定个{t}的闹钟{r}",
  "设置{r}{t}的闹钟",
  "给我设个{r}{t}的闹钟",
  "我要{r}{t}起床",
  "{r}{t}把我叫醒",
  "麻烦设一个{t}的闹钟{r}",
  "加个闹钟，{r}{t}",
  "能帮我定{r}{t}的闹钟吗",
  "{r}{t}喊我起来",
  "闹钟：{r}{t}",
];

/** `add_event(title, date, time?)`, English: {e} title, {d} date, {at} "" or " at <time>". */
export const EVENT_EN_MORE: readonly string[] = [
  "add {e} to my calendar on {d}{at}",
  "can you schedule {e} for {d}{at}?",
  "calendar: {e} on {d}{at}",
  "please add {e} for {d}{at}",
  "make a calendar entry for {e} on {d}{at}",
  "I'd like to add {e} on {d}{at}",
  "pencil in {e} for {d}{at}",
  "set up {e} on {d}{at}",
  "there's {e} on {d}{at}, can you save it?",
  "add an event called {e} on {d}{at}",
  "new calendar event {e} on {d}{at}",
];

/** `add_event(title, date, time?)`, Chinese: {e} title, {d} date, {at} "" or the time. */
export const EVENT_ZH_MORE: readonly string[] = [
  "帮我在日历上加{d}{at}的{e}",
  "{d}{at}有个{e}，帮我加到日历",
  "记一下：{d}{at}{e}",
  "添加日程{e}，时间{d}{at}",
  "日历里加上{e}，{d}{at}",
  "能不能在{d}{at}加个{e}",
  "新增一个日程：{d}{at}{e}",
  "帮我把{d}{at}的{e}记进日历",
  "{d}{at}给我安排{e}",
  "请在日历中添加{e}，日期{d}{at}",
  "把{e}排在{d}{at}",
  "在{d}{at}建个日程叫{e}",
];

/** `calculate(expression)`, English: {x} spoken expression. */
export const CALC_EN_MORE: readonly string[] = [
  "what does {x} come to",
  "can you calculate {x}?",
  "solve {x}",
  "{x} = ?",
  "I need the answer to {x}",
  "figure out {x} for me",
  "evaluate {x}",
  "what's the result of {x}",
  "do the math on {x}",
  "tell me what {x} is",
];

/** `calculate(expression)`, Chinese: {x} spoken expression. */
export const CALC_ZH_MORE: readonly string[] = [
  "{x}等于几",
  "{x}=?",
  "帮我算算{x}",
  "{x}的结果是多少",
  "请计算{x}",
  "算算{x}是多少",
  "你算一下{x}",
  "求{x}的值",
  "能帮我算下{x}吗",
  "{x}等于啥",
  "计算一下{x}等于多少",
  "{x}，结果多少",
];
