/**
 * Extra phrasings for the digital-human generator. Each list is spread at the end of an existing
 * `ph.choose([...])` list in digital-human.ts: appended, never interleaved, so the held-out
 * reservation (every index i % 4 === 3) of the earlier entries stays where it was.
 */

/** Show emotion `{e}` at a numeric intensity `{n}` (set_expression). */
export const EXPR_NUM_EN_MORE: readonly string[] = [
  "{e} face, intensity {n}",
  "set {e} at {n}",
  "expression: {e}, intensity: {n}",
  "make your expression {e}, strength {n}",
  "emotion {e}, level {n}",
  "go {e} at {n} intensity",
  "{e} at {n}",
  "show {e} at {n} strength",
  "dial the {e} expression to {n}",
  "I want a {e} look at {n}",
  "put on a {e} expression, intensity {n}",
  "switch to {e}, {n}",
  "{e} expression at level {n}",
];

/** 以数值强度 `{n}` 显示情绪 `{e}`（set_expression）。 */
export const EXPR_NUM_ZH_MORE: readonly string[] = [
  "表情设为{e}，强度{n}",
  "情绪{e}，程度{n}",
  "{e}，强度调到{n}",
  "把表情调成{e}，强度{n}",
  "表情：{e}，强度：{n}",
  "切换到{e}，强度{n}",
  "来个{e}的样子，强度{n}",
  "露出{e}的神情，幅度{n}",
  "{e}的表情，力度{n}",
  "表情改成{e}，强度设为{n}",
  "{e}程度调成{n}",
  "换成{e}，{n}的强度",
  "强度{n}，表情{e}",
  "给我一个{e}的表情，强度{n}",
];

/** Show emotion `{e}` at the level a word `{l}` names (may be empty) (set_expression). */
export const EXPR_LEVEL_EN_MORE: readonly string[] = [
  "get {l} {e}",
  "seem {l} {e}",
  "put on a {l} {e} look",
  "go {l} {e}",
  "show a {l} {e} expression",
  "appear {l} {e}",
  "switch to {l} {e}",
  "try to look {l} {e}",
  "let's see you {l} {e}",
  "give me {l} {e}",
  "your face should be {l} {e}",
  "time to look {l} {e}",
];

/** 以程度词 `{l}`（可能为空）显示情绪 `{e}`（set_expression）。 */
export const EXPR_LEVEL_ZH_MORE: readonly string[] = [
  "看起来{l}{e}",
  "变得{l}{e}",
  "来个{l}{e}的表情",
  "表情{l}{e}",
  "装作{l}{e}",
  "做出一副{l}{e}的样子",
  "表情要{l}{e}",
  "显出{l}{e}的神情",
  "换成{l}{e}的表情",
  "表现出{l}{e}的情绪",
  "一副{l}{e}的样子",
  "给观众一个{l}{e}的表情",
  "状态调成{l}{e}",
];

/** Say the line `{s}` verbatim in the tone `{t}` (speak). */
export const SPEAK_EN_MORE: readonly string[] = [
  '{t}, say "{s}"',
  'read this out {t}: "{s}"',
  'say the line "{s}" {t}',
  'your line is "{s}", deliver it {t}',
  'tell chat {t}: "{s}"',
  'speak {t}: "{s}"',
  'next line, {t}: "{s}"',
  '{t} announce "{s}"',
  'deliver "{s}" {t}',
  "say it {t}: {s}",
  'voice this {t}: "{s}"',
  'talk to the viewers {t} and say "{s}"',
];

/** 以语气 `{t}` 原样说出台词 `{s}`（speak）。 */
export const SPEAK_ZH_MORE: readonly string[] = [
  "{t}对大家说：“{s}”",
  "{t}讲一句：“{s}”",
  "台词是“{s}”，{t}说出来",
  "{t}念一下：{s}",
  "接下来{t}说“{s}”",
  "{t}跟观众讲“{s}”",
  "{t}播报：“{s}”",
  "说这句话：“{s}”，{t}说",
  "{t}对镜头说“{s}”",
  "把“{s}”{t}说出来",
  "{t}来一句：{s}",
  "下一句台词，{t}说：“{s}”",
];

/** Go back to the neutral idle pose (idle). */
export const IDLE_EN_MORE: readonly string[] = [
  "return to idle",
  "go idle",
  "back to your idle pose",
  "neutral pose",
  "settle back into idle",
  "drop back to neutral",
  "reset to the default pose",
  "at ease",
  "stop and go back to idle",
  "you can relax now",
  "return to your idle animation",
  "just stand there and idle",
];

/** 回到中性待机状态（idle）。 */
export const IDLE_ZH_MORE: readonly string[] = [
  "回到默认姿势",
  "恢复空闲状态",
  "进入待机",
  "歇一会儿",
  "放松，回待机",
  "回到闲置状态",
  "恢复默认",
  "先待机",
  "回到待命状态",
  "自然站着就好",
  "保持待机",
  "切回待机动画",
  "先歇着",
  "恢复自然状态",
];
