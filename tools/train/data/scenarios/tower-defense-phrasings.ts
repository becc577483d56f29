/**
 * Extra phrasings for the tower-defense orders in `tower-defense.ts`. They are appended after
 * each list's original entries (never interleaved), so `Phrasing.choose`'s held-out reservation
 * of every fourth entry keeps the original entries at their indices.
 */

/** `move(unit, target)`, English: {u} operator, {p} spoken position. */
export const MOVE_EN_MORE: readonly string[] = [
  "{u}, head over to {p}",
  "deploy {u} at {p}",
  "can you get {u} to {p}?",
  "shift {u} to {p}",
  "redeploy {u} to {p}",
  "{u}, reinforce {p}",
  "could you send {u} to {p}?",
  "{u} needs to be at {p}",
];

/** `move(unit, target)`, Chinese: {u} operator, {p} spoken position. */
export const MOVE_ZH_MORE: readonly string[] = [
  "{u}上{p}",
  "{u}部署到{p}",
  "把{u}放到{p}",
  "{u}下{p}",
  "派{u}去{p}",
  "{u}挪到{p}去",
  "{u}去{p}那边",
  "{u}赶紧去{p}",
  "能不能让{u}去{p}",
  "{u}换到{p}",
  "麻烦把{u}调到{p}",
  "{u}去{p}顶一下",
];

/** `use_skill(unit, skill)`, English: {u} operator, {s} named skill slot. */
export const SKILL_SLOT_EN_MORE: readonly string[] = [
  "{u}, go {s}",
  "can {u} use {s}?",
  "I want {u} to use {s}",
  "{u} cast {s}",
  "{u}, activate {s}",
  "let {u} pop {s}",
  "{u}, time for {s}",
  "get {u} to fire off {s}",
  "could you have {u} use {s}?",
  "{s} on {u} now",
];

/** `use_skill(unit, skill)`, Chinese: {u} operator, {s} named skill slot. */
export const SKILL_SLOT_ZH_MORE: readonly string[] = [
  "{u}开一下{s}",
  "{u}用{s}",
  "{u}赶紧开{s}",
  "{u}把{s}开了",
  "{u}的{s}开一下",
  "让{u}放{s}",
  "{u}，{s}走起",
  "帮{u}开{s}",
  "{u}快放{s}",
  "{u}交{s}",
  "开{u}的{s}",
  "请{u}释放{s}",
];

/** `use_skill(unit)`, English: {u} operator, no slot named. */
export const SKILL_EN_MORE: readonly string[] = [
  "{u}, activate your skill",
  "trigger {u}'s skill",
  "{u} cast your skill",
  "fire off {u}'s skill",
  "{u}, unleash your skill",
  "let {u} use the skill",
  "could you activate {u}'s skill?",
  "{u} go ult",
];

/** `use_skill(unit)`, Chinese: {u} operator, no slot named. */
export const SKILL_ZH_MORE: readonly string[] = [
  "{u}交技能",
  "{u}技能开一下",
  "{u}用技能",
  "{u}，放大招！",
  "{u}赶紧开技能",
  "{u}技能交了",
  "开{u}的技能",
  "{u}使用技能",
  "让{u}释放技能",
  "{u}大招走起",
  "{u}快开技能",
  "帮{u}把技能开了",
];

/** `retreat(unit)`, English: {u} operator. */
export const RETREAT_EN_MORE: readonly string[] = [
  "{u}, come back",
  "get {u} off the field",
  "{u} needs to retreat",
  "take {u} off the board",
  "{u}, withdraw",
  "pull back {u}",
  "can you retreat {u}?",
  "I'd like {u} pulled out",
];

/** `retreat(unit)`, Chinese: {u} operator. */
export const RETREAT_ZH_MORE: readonly string[] = [
  "{u}下来",
  "{u}撤了",
  "撤掉{u}",
  "把{u}撤了",
  "{u}先撤",
  "{u}快退",
  "让{u}撤退",
  "{u}撤一下",
  "把{u}收回来",
  "{u}赶紧撤",
  "{u}退场",
  "{u}别打了，撤",
];

/** `set_stance(unit, stance)`, English: {u} operator, {w} spoken stance (word or phrase). */
export const STANCE_EN_MORE: readonly string[] = [
  "{u}, {w} from now on",
  "new orders for {u}: {w}",
  "{u}, change of plan: {w}",
  "stance for {u}: {w}",
  "tell {u}: {w}",
  "{u}, {w}, got it?",
  "{u}, {w} until I say otherwise",
  "okay {u}, {w}",
  "{u}, {w} for this wave",
  "{u}, stance change: {w}",
];

/** `set_stance(unit, stance)`, Chinese: {u} operator, {w} spoken stance. */
export const STANCE_ZH_MORE: readonly string[] = [
  "{u}接下来{w}",
  "{u}换成{w}",
  "{u}调成{w}",
  "{u}现在{w}",
  "{u}给我{w}",
  "叫{u}{w}",
  "{u}转为{w}",
  "{u}，切{w}",
  "把{u}切到{w}",
  "{u}听令：{w}",
  "{u}的模式换成{w}",
  "{u}这波{w}",
];

/** `retreat_all()`, English. */
export const RETREAT_ALL_EN_MORE: readonly string[] = [
  "everyone out",
  "retreat everyone",
  "all operators fall back",
  "get everybody off the field",
  "team, fall back now",
  "evacuate all units",
  "withdraw the whole squad",
  "recall all operators",
  "can you retreat everyone?",
  "bring the whole team back",
  "clear the field, everyone back",
];

/** `retreat_all()`, Chinese. */
export const RETREAT_ALL_ZH_MORE: readonly string[] = [
  "全部撤退",
  "都撤了吧",
  "全撤",
  "所有人撤退",
  "全员后撤",
  "全军撤退",
  "大家都撤回来",
  "所有干员撤下",
  "都给我撤回来",
  "全员撤离",
  "把所有人都撤下来",
  "干员全部撤回",
];

/** `pass()`, English: no order given. */
export const PASS_EN_MORE: readonly string[] = [
  "hang on",
  "one sec",
  "forget it",
  "nothing right now",
  "let me see",
  "wait a moment",
  "scratch that",
  "don't do anything yet",
];

/** `pass()`, Chinese: no order given. */
export const PASS_ZH_MORE: readonly string[] = [
  "等会儿",
  "先不用",
  "稍等",
  "先别管",
  "没事了",
  "嗯……",
  "先等等",
  "什么都别做",
  "让我看看",
  "等我一下",
  "暂时别操作",
];
