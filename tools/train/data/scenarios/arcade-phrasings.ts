/**
 * Extra phrasings for the arcade scenarios (`arcade.ts`). Each list is spread at the END of its
 * `ph.choose([...])` list, never interleaved, so the original entries keep their indices and
 * `Phrasing.choose`'s held-out reservation (every index i % 4 === 3) of them stays put.
 */

/** Neon Arena ship, explicit move order in direction `{d}` (English). */
export const SHIP_MOVE_EN_MORE: readonly string[] = [
  "strafe {d}",
  "fly {d}",
  "slide {d}",
  "drift {d}",
  "steer {d}",
  "veer {d}",
  "move the ship {d}",
  "take a step {d}",
  "I'd go {d}",
  "how about moving {d}?",
  "reposition {d}",
  "boost {d}",
  "get out of there, {d}",
  "glide {d}",
  "shift {d} a bit",
];

/** Neon Arena ship, explicit move order in direction `{d}` (Chinese). */
export const SHIP_MOVE_ZH_MORE: readonly string[] = [
  "{d}闪一下",
  "{d}挪",
  "{d}飞一点",
  "{d}走位",
  "{d}平移",
  "飞船{d}移",
  "赶紧{d}撤",
  "先{d}挪一步",
  "{d}溜",
  "快{d}躲开",
  "{d}蹿一下",
  "我觉得该{d}走",
  "要不{d}挪挪？",
  "{d}跑两步",
  "{d}漂一下",
  "飞船{d}开",
];

/** Neon Arena ship, explicit fire order in direction `{d}` (English). */
export const SHIP_FIRE_EN_MORE: readonly string[] = [
  "pew pew {d}",
  "light it up {d}",
  "unload {d}",
  "take the shot {d}",
  "send a shot {d}",
  "fire away {d}",
  "let it rip {d}",
  "how about you shoot {d}",
  "I'd shoot {d}",
  "pull the trigger {d}",
  "lay down fire {d}",
  "aim {d} and fire",
  "zap {d}",
  "let one fly {d}",
  "shots {d}!",
];

/** Neon Arena ship, explicit fire order in direction `{d}` (Chinese). */
export const SHIP_FIRE_ZH_MORE: readonly string[] = [
  "{d}打一枪",
  "{d}射",
  "{d}突突突",
  "{d}开一炮",
  "{d}来一发",
  "{d}扫射",
  "{d}轰",
  "{d}给我打",
  "{d}放一枪",
  "{d}射一发",
  "{d}开枪",
  "{d}发射",
  "要不{d}打一下？",
  "我觉得该{d}开火",
  "{d}biu一发",
  "{d}狂轰",
];

/** Neon Arena ship, generic "take your turn" order; names no direction and no action. */
export const SHIP_TURN_EN_MORE: readonly string[] = [
  "Make your move.",
  "Go.",
  "Your call.",
  "Over to you.",
  "You're up.",
  "Do your thing.",
  "Take them out.",
  "What's your move?",
  "Next turn.",
  "Proceed.",
  "Go get 'em.",
  "Keep fighting.",
  "Do something!",
  "ok ship, your go",
];

/** Neon Arena ship, generic "take your turn" order; names no direction and no action (Chinese). */
export const SHIP_TURN_ZH_MORE: readonly string[] = [
  "该你了",
  "你来吧",
  "看你的了",
  "轮到你出手了",
  "动手",
  "干掉玩家",
  "继续",
  "下一回合",
  "开干",
  "接下来呢？",
  "你行动吧",
  "别愣着，行动",
  "揍他",
  "搞定那个玩家",
  "你的回合了，请行动",
];

/** Pong, explicit "stay" order; `{d}` is "still", "put" or "where you are" (English). */
export const PONG_STAY_EN_MORE: readonly string[] = [
  "keep {d}",
  "just stay {d}",
  "you stay {d}",
  "stay {d} for now",
  "I'd stay {d}",
  "how about you stay {d}",
  "better stay {d}",
  "stay {d}, don't chase it",
  "no need to move, stay {d}",
  "hold {d}, you're lined up",
  "keep that paddle {d}",
  "sit {d}",
  "stay {d}, it's coming to you",
  "paddle, stay {d}",
];

/** Pong, explicit "stay" order; `{d}` is 不动 or 原地 (Chinese). */
export const PONG_STAY_ZH_MORE: readonly string[] = [
  "就{d}吧",
  "{d}等球",
  "先{d}",
  "挡板{d}",
  "{d}就行",
  "稳住，{d}",
  "{d}待着",
  "先{d}别挪",
  "保持{d}别乱跑",
  "{d}守着",
  "这帧{d}",
  "{d}就好，球会过来",
  "{d}稳住",
  "{d}等着接",
  "你就{d}",
];

/** Pong, explicit move order; `{d}` is up/upward/higher or down/downward/lower (English). */
export const PONG_MOVE_EN_MORE: readonly string[] = [
  "slide {d}",
  "bring the paddle {d}",
  "nudge it {d}",
  "a bit {d}",
  "get {d} there",
  "scoot {d}",
  "drag the paddle {d}",
  "I'd go {d}",
  "how about moving {d}?",
  "move it {d}, the ball's coming",
  "push the paddle {d}",
  "take it {d}",
  "{d}, quick!",
  "paddle goes {d}",
];

/** Pong, explicit move order; `{d}` is 上/向上 or 下/向下 (Chinese). */
export const PONG_MOVE_ZH_MORE: readonly string[] = [
  "{d}挪",
  "{d}移一点",
  "挡板{d}挪一下",
  "快{d}",
  "{d}走",
  "再{d}一点",
  "板子{d}移",
  "稍微{d}一点",
  "{d}挪点儿",
  "{d}滑一下",
  "赶紧{d}去接",
  "{d}跟",
  "挡板{d}动",
  "{d}去堵球",
  "我觉得该{d}挪",
];

/** Pong, generic "play the ball" order; names no direction (English). */
export const PONG_TURN_EN_MORE: readonly string[] = [
  "Don't let it past.",
  "Follow the ball.",
  "Play.",
  "Return it.",
  "Catch it.",
  "Defend.",
  "Keep up with the ball.",
  "Save it!",
  "Line up with the ball.",
  "Your turn.",
  "Hit it back.",
  "Don't miss.",
  "Next tick.",
  "Keep the rally going.",
  "Get in front of the ball.",
  "where's the ball? get there",
];

/** Pong, generic "play the ball" order; names no direction (Chinese). */
export const PONG_TURN_ZH_MORE: readonly string[] = [
  "接住！",
  "别漏球。",
  "盯着球走。",
  "对准球。",
  "把球打回去。",
  "防守。",
  "下一帧。",
  "轮到你了。",
  "别让它过去。",
  "接球啊",
  "守住",
  "跟着球的高度走",
  "回球",
  "看球走位",
  "你来接",
];

/** Flappy Bird, make the bird flap (English). */
export const FLAPPY_FLAP_EN_MORE: readonly string[] = [
  "flap once",
  "give it a flap",
  "climb",
  "tap it",
  "click",
  "boost up",
  "gain some height",
  "up up!",
  "bounce",
  "press the button",
  "hop up",
  "make it jump",
];

/** Flappy Bird, make the bird flap (Chinese). */
export const FLAPPY_FLAP_ZH_MORE: readonly string[] = [
  "扑腾一下",
  "蹦",
  "往上窜",
  "拍一下",
  "点一下",
  "扇一下翅膀",
  "蹦一下",
  "升高点",
  "按一下",
  "戳一下屏幕",
  "飞高点",
  "快跳",
  "冲上去",
  "起飞",
];

/** Flappy Bird, do nothing and let the bird drop (English). */
export const FLAPPY_WAIT_EN_MORE: readonly string[] = [
  "hands off",
  "let it drop",
  "leave it",
  "don't tap",
  "hold off",
  "no flap",
  "just glide",
  "sit tight",
  "don't touch anything",
  "let gravity work",
  "patience",
  "not now",
  "let the bird sink",
  "hang on",
];

/** Flappy Bird, do nothing and let the bird drop (Chinese). */
export const FLAPPY_WAIT_ZH_MORE: readonly string[] = [
  "别点",
  "先别扑腾",
  "让它掉一点",
  "稳住，别按",
  "这下不用跳",
  "先等着",
  "不急",
  "别碰",
  "让它往下落",
  "先缓缓",
  "别拍翅膀",
  "手别动",
  "先让它沉一沉",
  "啥也别干",
];
