import type { Phrasing } from "../phrasing";
import type { TargetCall } from "../types";
import {
  EXPR_LEVEL_EN_MORE,
  EXPR_LEVEL_ZH_MORE,
  EXPR_NUM_EN_MORE,
  EXPR_NUM_ZH_MORE,
  IDLE_EN_MORE,
  IDLE_ZH_MORE,
  SPEAK_EN_MORE,
  SPEAK_ZH_MORE,
} from "./digital-human-phrasings";
import { type Draw, placeEnvironment, priorCalls } from "./draw";

const EMOTION: Record<string, { en: string[]; zh: string[] }> = {
  happy: {
    en: ["happy", "joyful", "glad", "pleased", "cheerful", "smiley"],
    zh: ["开心", "高兴", "快乐", "愉快", "微笑"],
  },
  sad: { en: ["sad", "unhappy", "down", "sorrowful", "upset"], zh: ["难过", "伤心", "悲伤", "失落"] },
  surprised: { en: ["surprised", "shocked", "amazed", "astonished"], zh: ["惊讶", "吃惊", "震惊", "意外"] },
  angry: { en: ["angry", "mad", "annoyed", "furious"], zh: ["生气", "愤怒", "恼火"] },
  neutral: { en: ["neutral", "blank", "expressionless", "straight-faced"], zh: ["平静", "面无表情", "中性"] },
  thinking: { en: ["thoughtful", "thinking", "pensive", "puzzled"], zh: ["思考", "沉思", "若有所思"] },
};
const LEVEL: { value: number; en: string[]; zh: string[] }[] = [
  {
    value: 0.3,
    en: ["a little", "slightly", "a bit", "subtly", "mildly"],
    zh: ["有点", "稍微", "略微", "一点点"],
  },
  { value: 0.6, en: ["", "", "moderately", "fairly"], zh: ["", "", "比较"] },
  { value: 0.9, en: ["very", "really", "super", "extremely"], zh: ["非常", "特别", "超级", "十分"] },
  { value: 1, en: ["fully", "completely", "totally, at full intensity,"], zh: ["完全", "满满地", "极其"] },
];
const TONE: Record<string, { en: string[]; zh: string[] }> = {
  cheerful: {
    en: ["cheerfully", "warmly", "happily", "brightly", "with a smile"],
    zh: ["开心地", "热情地", "愉快地", "笑着"],
  },
  calm: {
    en: ["calmly", "gently", "softly", "in a relaxed way", "quietly"],
    zh: ["平静地", "温和地", "轻声地", "淡定地"],
  },
  serious: {
    en: ["seriously", "solemnly", "in a serious tone", "firmly", "earnestly"],
    zh: ["严肃地", "认真地", "郑重地", "正经地"],
  },
  excited: {
    en: ["excitedly", "with lots of energy", "enthusiastically", "hyped up", "loudly and excited"],
    zh: ["兴奋地", "激动地", "充满激情地", "high起来"],
  },
};
const LINES_EN = [
  "Welcome everyone, so glad you're here!",
  "Thanks for the follow!",
  "Let's get started with today's show.",
  "Don't forget to like and subscribe!",
  "We'll be right back after a short break.",
  "That was amazing, thank you all!",
  "Good evening and welcome to the stream.",
  "Today we're trying the new recipe.",
  "Thank you for the gift, you're the best!",
  "Please keep the chat friendly.",
  "Here's the winner of today's giveaway.",
  "Let me read a few comments.",
  "See you all tomorrow night!",
  "Happy birthday, Lily!",
  "The sale ends at midnight.",
  "Hold on, I'll check that for you.",
  "Welcome back, everyone!",
  "Great question, let me explain.",
  "Hello chat, how is everyone doing?",
  "Thanks for watching, good night!",
];
const LINES_ZH = [
  "欢迎大家来到直播间！",
  "谢谢你的关注！",
  "我们开始今天的节目吧。",
  "别忘了点赞关注哦！",
  "休息一下，马上回来。",
  "太精彩了，谢谢大家！",
  "晚上好，欢迎来到直播间。",
  "今天我们来试试新菜谱。",
  "谢谢你的礼物，爱你们！",
  "请大家文明聊天哦。",
  "现在公布今天的中奖者。",
  "我来读几条评论。",
  "明天晚上见！",
  "祝小明生日快乐！",
  "优惠活动今晚十二点结束。",
  "稍等，我帮你看一下。",
  "欢迎回来，大家好！",
  "好问题，我来解释一下。",
  "大家好，今天过得怎么样？",
  "谢谢观看，晚安！",
];
/** Director cues that describe a line without quoting it, with the line the host says. */
const CUES: { tone: string; en: string; enLine: string; zh: string; zhLine: string }[] = [
  {
    tone: "cheerful",
    en: "greet everyone warmly and say welcome",
    enLine: "Hi everyone, welcome to the stream!",
    zh: "热情地跟大家打招呼并说欢迎",
    zhLine: "大家好，欢迎来到直播间！",
  },
  {
    tone: "cheerful",
    en: "thank the viewer for the gift",
    enLine: "Thank you so much for the gift!",
    zh: "感谢观众送的礼物",
    zhLine: "非常感谢你的礼物！",
  },
  {
    tone: "calm",
    en: "tell them we'll take a short break",
    enLine: "Let's take a short break, I'll be right back.",
    zh: "告诉大家休息一下",
    zhLine: "我们休息一下，马上回来。",
  },
  {
    tone: "serious",
    en: "remind chat to be respectful",
    enLine: "Please be respectful to each other in the chat.",
    zh: "提醒弹幕文明发言",
    zhLine: "请大家在弹幕里文明发言。",
  },
  {
    tone: "excited",
    en: "announce the giveaway with lots of hype",
    enLine: "Giveaway time, everyone! Get ready!",
    zh: "激动地宣布抽奖开始",
    zhLine: "抽奖开始啦，大家准备好！",
  },
  {
    tone: "calm",
    en: "say good night to everyone",
    enLine: "Good night everyone, see you next time.",
    zh: "跟大家说晚安",
    zhLine: "大家晚安，下次见。",
  },
  {
    tone: "excited",
    en: "celebrate hitting 10k followers",
    enLine: "We just hit ten thousand followers, thank you!",
    zh: "庆祝粉丝破万",
    zhLine: "我们粉丝破万啦，谢谢大家！",
  },
  {
    tone: "serious",
    en: "explain that the product is out of stock",
    enLine: "Sorry, this product is out of stock right now.",
    zh: "说明商品已经售罄",
    zhLine: "抱歉，这款商品已经售罄了。",
  },
];
const GESTURE: Record<string, { en: string[]; zh: string[] }> = {
  wave: {
    en: ["wave at the audience", "wave hello", "give them a wave", "wave to chat", "wave goodbye"],
    zh: ["向观众挥手", "挥挥手", "跟大家挥手", "挥手打招呼"],
  },
  nod: {
    en: ["nod", "nod your head", "give a nod", "nod in agreement"],
    zh: ["点头", "点点头", "点头表示同意"],
  },
  shake_head: {
    en: ["shake your head", "shake head no", "do a head shake"],
    zh: ["摇头", "摇摇头", "摇头表示不行"],
  },
  bow: {
    en: ["bow", "bow to the audience", "take a bow", "give a little bow"],
    zh: ["鞠躬", "向观众鞠躬", "鞠个躬"],
  },
  point: {
    en: ["point at the screen", "point over there", "point at it", "point to the product"],
    zh: ["指一下", "指向屏幕", "指着商品"],
  },
  thumbs_up: {
    en: ["give a thumbs up", "thumbs up", "show a thumbs-up"],
    zh: ["点赞", "竖大拇指", "比个赞"],
  },
  clap: {
    en: ["clap", "clap your hands", "applaud", "give a round of applause"],
    zh: ["鼓掌", "拍拍手", "为大家鼓掌"],
  },
};
const LOOK: Record<string, { en: string[]; zh: string[] }> = {
  camera: {
    en: ["look at the camera", "eyes on the camera", "face the camera", "look into the lens"],
    zh: ["看镜头", "看着镜头", "面向镜头"],
  },
  left: {
    en: ["look left", "look to your left", "glance left", "turn your head left"],
    zh: ["看左边", "往左看", "向左看"],
  },
  right: {
    en: ["look right", "look to your right", "glance right", "turn your head right"],
    zh: ["看右边", "往右看", "向右看"],
  },
  up: {
    en: ["look up", "glance up", "look upward", "look at the ceiling"],
    zh: ["抬头看", "往上看", "向上看"],
  },
  down: {
    en: ["look down", "glance down", "look at the floor", "look downward"],
    zh: ["低头看", "往下看", "向下看"],
  },
};
const CHAT_EN = [
  '"hi!"',
  '"good evening"',
  '"lol"',
  '"love this"',
  '"first time here"',
  '"hello from Brazil"',
  '"so cute"',
  '"gg"',
];
const CHAT_ZH = ['"你好"', '"晚上好"', '"哈哈哈"', '"好可爱"', '"第一次来"', '"主播好"', '"666"'];

/**
 * Director cues to the virtual host: set_expression, speak, gesture, look_at, idle; the history
 * holds the host's earlier calls, as `@rtool/sim`'s avatar sends them with every cue.
 */
export function drawDigitalHuman(ph: Phrasing): Draw {
  const draw = drawHostCue(ph);
  return { ...draw, history: priorCalls(ph, () => drawHostCue(ph).call, 5) };
}

/** One director cue and the call it asks for, with no history. */
function drawHostCue(ph: Phrasing): Draw {
  const r = ph.rng;
  const en = ph.lang === "en";
  const env: string[] = [];
  // `@rtool/sim`'s avatar sends its Host line on every frame, after the scene and the chat.
  if (r.chance(0.6))
    env.push(
      en
        ? r.pick([
            "Stream just started, chat is filling up",
            "Mid-stream, 1200 viewers",
            "Product demo segment",
            "Q&A segment",
            "Stream ending soon",
          ])
        : r.pick(["直播刚开始，弹幕很多", "直播中，1200人在线", "商品展示环节", "问答环节", "直播快结束了"]),
    );
  if (r.chance(0.5)) env.push(`Chat: ${r.sample(en ? CHAT_EN : CHAT_ZH, r.int(1, 3)).join(" ")}`);
  if (r.chance(0.8)) {
    // The avatar world's own status line.
    const emotion = r.pick(Object.keys(EMOTION));
    const face = r.chance(0.3) ? `${emotion} face` : `${emotion} ${r.pick([0.3, 0.5, 0.6, 0.8, 1])}`;
    const voice = r.pick(["silent", "speaking", `speaking (${r.int(1, 3)} more queued)`]);
    const body = r.pick(["idle pose", `doing ${r.pick(Object.keys(GESTURE))}`]);
    env.push(`Host: ${face}, ${voice}, ${body}, looking at ${r.pick(Object.keys(LOOK))}`);
  }
  const cue = r.chance(0.6) ? (en ? "Director: " : r.pick(["导演：", "Director: "])) : "";
  const kind = r.pick(["expr", "expr", "speak", "speak", "speak", "gesture", "gesture", "look", "idle"]);
  let call: TargetCall;
  let query: string;
  if (kind === "expr") {
    const emotion = r.pick(Object.keys(EMOTION));
    const word = r.pick(en ? EMOTION[emotion]!.en : EMOTION[emotion]!.zh);
    let intensity: number;
    if (r.chance(0.3)) {
      intensity = r.pick([0.1, 0.2, 0.4, 0.5, 0.7, 0.8, 0.3, 0.6, 0.9, 1]);
      const t = en
        ? ph.choose([
            "look {e}, intensity {n}",
            "show a {e} face at {n}",
            "{e} expression, {n}",
            "be {e} with intensity {n}",
            "set expression {e} to {n}",
            ...EXPR_NUM_EN_MORE,
          ])
        : ph.choose([
            "表情{e}，强度{n}",
            "做一个{e}的表情，强度{n}",
            "{e}，程度{n}",
            "显示{e}表情，{n}",
            ...EXPR_NUM_ZH_MORE,
          ]);
      const shown = r.chance(0.3) ? `${Math.round(intensity * 100)}%` : String(intensity);
      query = ph.say(t, { e: word }, { n: shown });
    } else {
      const level = r.pick(LEVEL);
      intensity = level.value;
      const t = en
        ? ph.choose([
            "look {l} {e}",
            "be {l} {e}",
            "show that you're {l} {e}",
            "make a {l} {e} face",
            "act {l} {e}",
            "you're {l} {e} now",
            ...EXPR_LEVEL_EN_MORE,
          ])
        : ph.choose([
            "{l}{e}",
            "表现得{l}{e}",
            "做出{l}{e}的表情",
            "显得{l}{e}",
            "露出{l}{e}的样子",
            ...EXPR_LEVEL_ZH_MORE,
          ]);
      query = ph.say(t, { e: word, l: r.pick(en ? level.en : level.zh) });
    }
    call = { function: "set_expression", args: { emotion, intensity } };
  } else if (kind === "speak") {
    const tone = r.pick(Object.keys(TONE));
    if (r.chance(0.2)) {
      const c = r.pick(CUES);
      query = ph.say(en ? c.en : c.zh);
      call = { function: "speak", args: { text: en ? c.enLine : c.zhLine, tone: c.tone } };
    } else if (r.chance(0.4)) {
      const c = composedCue(ph);
      const tw = c.tone === undefined ? undefined : r.pick(en ? TONE[c.tone]!.en : TONE[c.tone]!.zh);
      query = ph.say(tw ? (r.chance(0.5) ? `${c.cue} ${tw}` : `${tw} ${c.cue}`) : c.cue, {}, c.exact);
      if (!en) query = query.replace(/ /g, "");
      call = { function: "speak", args: { text: c.line, tone: c.tone ?? c.defaultTone } };
    } else {
      const line = r.pick(en ? LINES_EN : LINES_ZH);
      const tw = r.pick(en ? TONE[tone]!.en : TONE[tone]!.zh);
      const t = en
        ? ph.choose([
            'say "{s}" {t}',
            "{t} say: {s}",
            'tell the audience "{s}" {t}',
            "say {s} {t}",
            'announce {t}: "{s}"',
            "{t} tell them {s}",
            ...SPEAK_EN_MORE,
          ])
        : ph.choose([
            "{t}说“{s}”",
            "{t}说：{s}",
            "跟观众{t}说{s}",
            "{t}告诉大家：{s}",
            "请{t}念出“{s}”",
            "{t}说一句{s}",
            ...SPEAK_ZH_MORE,
          ]);
      query = ph.say(t, { t: tw }, { s: line });
      call = { function: "speak", args: { text: line, tone } };
    }
  } else if (kind === "gesture") {
    const type = r.pick(Object.keys(GESTURE));
    query = ph.say(r.pick(en ? GESTURE[type]!.en : GESTURE[type]!.zh));
    call = { function: "gesture", args: { type } };
  } else if (kind === "look") {
    const target = r.pick(Object.keys(LOOK));
    query = ph.say(r.pick(en ? LOOK[target]!.en : LOOK[target]!.zh));
    call = { function: "look_at", args: { target } };
  } else {
    const t = en
      ? ph.choose([
          "go back to idle",
          "relax",
          "back to neutral idle",
          "rest for a moment",
          "idle now",
          "stand by",
          "reset to idle",
          "just chill",
          ...IDLE_EN_MORE,
        ])
      : ph.choose([
          "回到待机",
          "放松一下",
          "恢复待机状态",
          "休息一下",
          "待机",
          "回到默认状态",
          ...IDLE_ZH_MORE,
        ]);
    query = ph.say(t);
    call = { function: "idle", args: {} };
  }
  return placeEnvironment(ph, env, cue + query, [], call);
}

const VIEWERS = [
  "Lily",
  "Max",
  "Sakura",
  "Tom",
  "Jay",
  "Nina",
  "Omar",
  "Zoe",
  "小明",
  "阿杰",
  "小鱼",
  "Kevin",
  "Mei",
];
const GIFTS_EN = ["rocket", "roses", "super chat", "gift", "donation", "membership"];
const GIFTS_ZH = ["火箭", "玫瑰", "礼物", "打赏", "会员"];
const PRODUCTS_EN = [
  "the new headphones",
  "this lipstick",
  "our summer T-shirt",
  "the coffee maker",
  "this phone case",
];
const PRODUCTS_ZH = ["新款耳机", "这支口红", "夏季T恤", "咖啡机", "这个手机壳"];

/**
 * Director cues that name what to say without quoting it; the line is composed from the
 * cue's own slots (names, numbers), so the model learns to build speech from the query.
 */
function composedCue(ph: Phrasing): {
  cue: string;
  line: string;
  tone?: string;
  defaultTone: string;
  exact: Record<string, string>;
} {
  const r = ph.rng;
  const en = ph.lang === "en";
  const name = r.pick(VIEWERS);
  const n = String(r.int(2, 30));
  const gift = r.pick(en ? GIFTS_EN : GIFTS_ZH);
  const product = r.pick(en ? PRODUCTS_EN : PRODUCTS_ZH);
  const tone = r.chance(0.6) ? r.pick(Object.keys(TONE)) : undefined;
  const options = en
    ? [
        { cue: "say hi to {name}", line: `Hi ${name}, welcome to the stream!`, d: "cheerful" },
        { cue: "thank {name} for the {gift}", line: `Thank you ${name} for the ${gift}!`, d: "cheerful" },
        { cue: "wish {name} a happy birthday", line: `Happy birthday, ${name}!`, d: "excited" },
        {
          cue: "tell chat we'll be back in {n} minutes",
          line: `We'll be back in ${n} minutes, don't go away!`,
          d: "calm",
        },
        {
          cue: "ask chat where they're watching from",
          line: "Where is everyone watching from tonight?",
          d: "cheerful",
        },
        { cue: "introduce {product}", line: `Let me show you ${product}!`, d: "excited" },
        { cue: "tell {name} the answer is yes", line: `${name}, the answer is yes!`, d: "calm" },
        { cue: "announce there are {n} prizes left", line: `There are only ${n} prizes left!`, d: "excited" },
        {
          cue: "apologise for the audio problem",
          line: "Sorry about the audio problem, it's fixed now.",
          d: "serious",
        },
        { cue: "welcome the new followers", line: "Welcome to all our new followers!", d: "cheerful" },
      ]
    : [
        { cue: "跟{name}打个招呼", line: `${name}你好，欢迎来到直播间！`, d: "cheerful" },
        { cue: "感谢{name}送的{gift}", line: `谢谢${name}送的${gift}！`, d: "cheerful" },
        { cue: "祝{name}生日快乐", line: `${name}，生日快乐！`, d: "excited" },
        { cue: "告诉大家{n}分钟后回来", line: `我们${n}分钟后回来，不要走开哦！`, d: "calm" },
        { cue: "问问大家从哪里来看直播", line: "大家都是从哪里来看直播的呀？", d: "cheerful" },
        { cue: "介绍一下{product}", line: `给大家介绍一下${product}！`, d: "excited" },
        { cue: "告诉{name}答案是可以", line: `${name}，答案是可以的！`, d: "calm" },
        { cue: "宣布还剩{n}个奖品", line: `只剩${n}个奖品啦！`, d: "excited" },
        { cue: "为声音问题道歉", line: "抱歉刚才声音有问题，现在好了。", d: "serious" },
        { cue: "欢迎新关注的朋友", line: "欢迎新关注的朋友们！", d: "cheerful" },
      ];
  const o = ph.choose(options.map((_, i) => String(i)));
  const pick = options[Number(o)]!;
  return { cue: pick.cue, line: pick.line, tone, defaultTone: pick.d, exact: { name, n, gift, product } };
}
