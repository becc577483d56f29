import { formatCallForHistory } from "../../../../packages/core/src/index";
import { coinedName, coinedZh, mishearName } from "../coined";
import type { Phrasing } from "../phrasing";
import type { TargetCall } from "../types";
import { type Draw, placeEnvironment } from "./draw";
import {
  MOVE_EN_MORE,
  MOVE_ZH_MORE,
  PASS_EN_MORE,
  PASS_ZH_MORE,
  RETREAT_ALL_EN_MORE,
  RETREAT_ALL_ZH_MORE,
  RETREAT_EN_MORE,
  RETREAT_ZH_MORE,
  SKILL_EN_MORE,
  SKILL_SLOT_EN_MORE,
  SKILL_SLOT_ZH_MORE,
  SKILL_ZH_MORE,
  STANCE_EN_MORE,
  STANCE_ZH_MORE,
} from "./tower-defense-phrasings";

const NAMES_EN = [
  "Blaze",
  "Amiya",
  "Texas",
  "Exusiai",
  "SilverAsh",
  "Eyjafjalla",
  "Hoshiguma",
  "Saria",
  "Skadi",
  "Mudrock",
  "Surtr",
  "Thorns",
  "Myrtle",
  "Siege",
  "Lappland",
  "Ifrit",
  "Nearl",
  "Specter",
  "Warfarin",
  "Ptilopsis",
  "Kroos",
  "Melantha",
  "Fang",
  "Vanilla",
  "Plume",
  "Beagle",
  "Cardigan",
  "Lancet",
  "Orchid",
  "Steward",
  "Adnachiel",
  "Ansel",
  "Hibiscus",
  "Lava",
  "Yato",
  "Noir",
  "Rangers",
  "Durin",
  "Shirayuki",
  "Meteor",
  "Croissant",
  "Liskarm",
  "Shining",
  "Nightingale",
  "Ceobe",
  "Bagpipe",
  "Phantom",
  "Angelina",
  "Eunectes",
  "Mostima",
];
const NAMES_ZH = [
  "阿米娅",
  "能天使",
  "银灰",
  "星熊",
  "塞雷娅",
  "斯卡蒂",
  "泥岩",
  "史尔特尔",
  "棘刺",
  "桃金娘",
  "推进之王",
  "拉普兰德",
  "伊芙利特",
  "临光",
  "德克萨斯",
  "艾雅法拉",
  "陈",
  "小火龙",
  "红",
  "芬",
  "香草",
  "翎羽",
  "米格鲁",
  "克洛丝",
  "夜莺",
  "闪灵",
  "刻俄柏",
  "风笛",
  "安洁莉娜",
  "莫斯提马",
];
const SYLL = [
  "ka",
  "ri",
  "to",
  "na",
  "mi",
  "ro",
  "sa",
  "el",
  "an",
  "or",
  "vi",
  "la",
  "zu",
  "ke",
  "do",
  "ya",
  "shi",
  "ren",
  "mo",
  "ta",
];

const POS: Record<string, { en: string[]; zh: string[] }> = {
  north: {
    en: ["north", "up north", "the north side", "the northern lane", "to the north"],
    zh: ["北边", "北面", "北侧", "北路", "北方"],
  },
  south: {
    en: ["south", "down south", "the south side", "the southern lane", "to the south"],
    zh: ["南边", "南面", "南侧", "南路", "南方"],
  },
  east: {
    en: ["east", "the east side", "the east flank", "to the east", "eastward"],
    zh: ["东边", "东面", "东侧", "东路"],
  },
  west: {
    en: ["west", "the west side", "the west flank", "to the west", "westward"],
    zh: ["西边", "西面", "西侧", "西路"],
  },
  center: {
    en: ["center", "the center", "the middle", "centre", "mid"],
    zh: ["中间", "中央", "中路", "正中", "中心"],
  },
};
const STANCE: Record<string, { en: string[]; zh: string[] }> = {
  aggressive: {
    en: ["aggressive", "go aggressive", "attack mode", "all-out attack", "push hard", "get aggressive"],
    zh: ["激进", "进攻模式", "全力进攻", "主动出击"],
  },
  defensive: {
    en: ["defensive", "play defensive", "defense mode", "turtle up", "play it safe"],
    zh: ["防守", "防御模式", "稳守", "保守一点"],
  },
  hold: {
    en: ["hold", "hold position", "hold the line", "stay put", "hold your ground"],
    zh: ["原地坚守", "守住", "坚守阵地", "原地不动"],
  },
};

function randomName(ph: Phrasing, zh: boolean): string {
  if (zh) return coinedZh(ph.rng);
  if (ph.rng.chance(0.5)) return coinedName(ph.rng);
  const n = ph.rng.int(2, 3);
  let s = "";
  for (let i = 0; i < n; i++) s += ph.rng.pick(SYLL);
  return s[0]!.toUpperCase() + s.slice(1);
}

/** A name as said in an order: three times in ten misheard (`mishearName`). */
function misheard(ph: Phrasing, name: string): string {
  return ph.rng.chance(0.3) ? mishearName(ph.rng, name) : name;
}

/** Voice orders to deployed operators: move, use_skill, retreat, set_stance, retreat_all, pass. */
export function drawTowerDefense(ph: Phrasing): Draw {
  const r = ph.rng;
  const en = ph.lang === "en";
  const pool = en || r.chance(0.4) ? NAMES_EN : NAMES_ZH;
  const count = r.int(1, 5);
  // Copy curriculum: coined names are copied from the roster or the order, never recalled from
  // training. Training items coin most names (a model that recalls the fixed roster names instead
  // of reading them gets little for it); held-out items keep a third, the same draws as before.
  const coinedShare = ph.split === "train" ? 0.6 : 0.35;
  const names = r
    .sample(pool, count)
    .map((n) => (r.chance(coinedShare) ? randomName(ph, pool === NAMES_ZH) : n));
  const positions = Object.keys(POS);
  const ops = names.map((name) => ({
    name,
    pos: r.pick(positions),
    hp: r.chance(0.5) ? r.int(1, 10) * 10 : r.int(1, 100),
    ready: r.chance(0.5),
  }));
  const env: string[] = [];
  // State lines mostly in the simulator's English form, whatever the query's language.
  const envEn = en || r.chance(0.6);
  // The sim sends the wave line and the roster on every frame; other clients sometimes less.
  if (r.chance(0.85)) {
    const left = r.int(0, 30);
    env.push(
      envEn
        ? r.chance(0.15)
          ? `Wave ${r.int(1, 20)} cleared, next wave in ${r.int(1, 30)}s`
          : `Wave ${r.int(1, 20)}${r.chance(0.3) ? ", a boss is on the field" : ""}, ${left} ${left === 1 ? "enemy" : "enemies"} left`
        : `第${r.int(1, 20)}波${r.chance(0.3) ? "，boss已出场" : ""}，剩余${left}个敌人`,
    );
  }
  // Sometimes the roster is missing and the name can only be copied from the order itself.
  const listed = r.chance(0.9);
  if (listed) {
    const describe = (o: (typeof ops)[number]) => {
      const skill = envEn
        ? r.pick(o.ready ? ["skill ready"] : ["skill charging", "skill active"])
        : o.ready
          ? "技能就绪"
          : "技能充能中";
      const stance = envEn && r.chance(0.3) ? `,${r.pick(["aggressive", "defensive"])}` : "";
      return `${o.name}(${o.pos},HP${o.hp}%,${skill}${stance})`;
    };
    env.push((envEn ? "Operators: " : "干员：") + ops.map(describe).join(" "));
  }
  if (envEn && r.chance(0.25)) {
    const benched = r.sample(
      NAMES_EN.filter((n) => !names.includes(n)),
      r.int(1, 3),
    );
    env.push(
      `Bench: ${benched.map((n) => `${n}(HP${r.chance(0.5) ? r.int(1, 10) * 10 : r.int(1, 100)}%)`).join(" ")}`,
    );
  }
  if (r.chance(0.4)) {
    const p = r.pick(positions);
    env.push(envEn ? `Enemies massing ${p}` : `敌人在${r.pick(POS[p]!.zh)}集结`);
  }
  const op = r.pick(ops);
  const said = listed ? misheard(ph, op.name) : op.name;
  if (r.chance(0.25)) {
    const where = r.pick(envEn ? POS[op.pos]!.en : POS[op.pos]!.zh);
    env.push(
      envEn
        ? r.pick([
            `${op.name} is taking heavy damage ${where}`,
            `${op.name} is low on HP at ${where}`,
            `${op.name}'s skill is ready`,
            `${op.name} is surrounded ${where}`,
          ])
        : r.pick([
            `${op.name}在${where}承受大量伤害`,
            `${op.name}血量很低`,
            `${op.name}技能已就绪`,
            `${op.name}在${where}被包围了`,
          ]),
    );
  }
  const kind = r.pick([
    "move",
    "move",
    "skill",
    "skill",
    "retreat",
    "retreat",
    "stance",
    "stance",
    "all",
    "pass",
    "pass",
  ]);
  let call: TargetCall;
  let query: string;

  if (kind === "move") {
    const target = r.pick(positions);
    const where = r.pick(en ? POS[target]!.en : POS[target]!.zh);
    call = { function: "move", args: { unit_id: op.name, target } };
    const t = en
      ? ph.choose([
          "{u}, go {p}",
          "have {u} move to {p}",
          "tell {u} to go {p}",
          "order {u} to {p}",
          "{u} take position {p}",
          "move {u} to {p}",
          "send {u} {p}",
          "{u} head {p}",
          "{u} move to {p}",
          "reposition {u} to {p}",
          "get {u} over to {p}",
          "{u}, cover {p}",
          "{u} to {p}",
          "I want {u} at {p}",
          ...MOVE_EN_MORE,
        ])
      : ph.choose([
          "{u}去{p}",
          "把{u}移到{p}",
          "{u}转移到{p}",
          "让{u}去{p}",
          "{u}，去守{p}",
          "调{u}到{p}",
          "{u}往{p}走",
          "{u}支援{p}",
          ...MOVE_ZH_MORE,
        ]);
    query = ph.say(t, { u: said, p: where });
  } else if (kind === "skill") {
    const slot = r.chance(0.45) ? r.pick(["s1", "s2", "s3"]) : undefined;
    call = {
      function: "use_skill",
      args: slot ? { unit_id: op.name, skill_id: slot } : { unit_id: op.name },
    };
    const n = slot ? slot[1]! : "";
    const slotWord = slot
      ? en
        ? r.pick([
            `skill ${n}`,
            `s${n}`,
            `S${n}`,
            ["", "first skill", "second skill", "third skill"][Number(n)]!,
            `skill number ${n}`,
          ])
        : r.pick([
            `${["", "一", "二", "三"][Number(n)]}技能`,
            `s${n}`,
            `${n}技能`,
            `第${["", "一", "二", "三"][Number(n)]}个技能`,
          ])
      : "";
    const t = slot
      ? en
        ? ph.choose([
            "{u}, {s} now",
            "have {u} use {s}",
            "tell {u} to cast {s}",
            "{u} use {s}",
            "activate {u}'s {s}",
            "{u} fire {s}",
            "{u}: {s}!",
            "pop {s} on {u}",
            "{u} hit {s}",
            "trigger {s} for {u}",
            ...SKILL_SLOT_EN_MORE,
          ])
        : ph.choose([
            "{u}开{s}",
            "{u}放{s}",
            "让{u}用{s}",
            "{u}，{s}！",
            "{u}释放{s}",
            "{u}{s}开了",
            "给{u}开{s}",
            ...SKILL_SLOT_ZH_MORE,
          ])
      : en
        ? ph.choose([
            "{u}, skill now",
            "have {u} use the skill",
            "tell {u} to use her skill",
            "{u} ult",
            "{u} use your skill",
            "activate {u}'s skill",
            "{u} fire the skill",
            "{u} go, skill!",
            "pop {u}'s skill",
            "{u}, ult now",
            "use {u}'s special",
            "skill on {u}",
            ...SKILL_EN_MORE,
          ])
        : ph.choose([
            "{u}开技能",
            "{u}放技能",
            "让{u}开大",
            "{u}，技能！",
            "{u}释放技能",
            "{u}开大招",
            "给{u}开技能",
            ...SKILL_ZH_MORE,
          ]);
    query = ph.say(t, { u: said, s: slotWord });
  } else if (kind === "retreat") {
    call = { function: "retreat", args: { unit_id: op.name } };
    const t = en
      ? ph.choose([
          "{u} fall back",
          "have {u} retreat",
          "tell {u} to pull back",
          "{u}, retreat!",
          "pull {u} out",
          "retreat {u}",
          "{u}, get out of there",
          "bring {u} back to the bench",
          "{u} retreat",
          "withdraw {u}",
          "{u}, back off now",
          "recall {u}",
          ...RETREAT_EN_MORE,
        ])
      : ph.choose([
          "{u}撤退",
          "把{u}撤下来",
          "{u}撤回",
          "让{u}下场",
          "{u}，快撤",
          "撤{u}",
          "{u}退下",
          "收回{u}",
          ...RETREAT_ZH_MORE,
        ]);
    if (r.chance(0.4)) env.push(en ? `${op.name} is taking heavy damage` : `${op.name}正在承受大量伤害`);
    query = ph.say(t, { u: said });
  } else if (kind === "stance") {
    const stance = r.pick(Object.keys(STANCE));
    const w = r.pick(en ? STANCE[stance]!.en : STANCE[stance]!.zh);
    call = { function: "set_stance", args: { unit_id: op.name, stance } };
    const t = en
      ? ph.choose([
          "{u}, {w}",
          "switch {u} to {w}",
          "put {u} on {w}",
          "{u} switch to {w}",
          "set {u} to {w}",
          "{u} {w} now",
          "make {u} {w}",
          "{u}: {w}",
          "change {u}'s stance to {w}",
          "stance {w} for {u}",
          ...STANCE_EN_MORE,
        ])
      : ph.choose([
          "{u}{w}",
          "{u}切换到{w}",
          "让{u}{w}",
          "{u}改成{w}",
          "把{u}设成{w}",
          "{u}，{w}！",
          "{u}的姿态改为{w}",
          ...STANCE_ZH_MORE,
        ]);
    query = ph.say(t, { u: said, w });
  } else if (kind === "all") {
    call = { function: "retreat_all", args: {} };
    const t = en
      ? ph.choose([
          "everyone fall back",
          "full retreat",
          "all units withdraw",
          "pull everybody out",
          "retreat all operators",
          "everybody back to the bench",
          "abort, all out",
          "full withdrawal now",
          ...RETREAT_ALL_EN_MORE,
        ])
      : ph.choose([
          "全体撤退",
          "所有人撤回来",
          "全部撤下",
          "全员撤退",
          "所有干员后撤",
          "全部撤回",
          "大家都撤",
          ...RETREAT_ALL_ZH_MORE,
        ]);
    query = ph.say(t);
  } else {
    call = { function: "pass", args: {} };
    if (r.chance(0.6)) {
      // The order was already carried out: history holds the same call.
      const target = r.pick(positions);
      const done = r.pick<TargetCall>([
        { function: "retreat", args: { unit_id: op.name } },
        { function: "move", args: { unit_id: op.name, target } },
        { function: "use_skill", args: { unit_id: op.name } },
      ]);
      const history = [
        ...r.sample(["retreat_all()", `move(${r.pick(ops).name},${r.pick(positions)})`], r.int(0, 1)),
        formatCallForHistory(done),
      ];
      const u = said;
      const t =
        done.function === "retreat"
          ? en
            ? ["{u} fall back", "pull {u} out", "retreat {u}"]
            : ["{u}撤退", "把{u}撤下来"]
          : done.function === "move"
            ? en
              ? [`{u}, go ${target}`, `move {u} to ${target}`]
              : [`{u}去${POS[target]!.zh[0]}`, `把{u}移到${POS[target]!.zh[0]}`]
            : en
              ? ["{u}, skill now", "{u} use your skill"]
              : ["{u}开技能", "{u}放技能"];
      query = ph.say(r.pick(t), { u });
      return placeEnvironment(ph, env, query, history, call);
    }
    const t = en
      ? ph.choose([
          "wait",
          "hold on a sec",
          "never mind",
          "uh, let me think",
          "the the uh",
          "what was I saying",
          "can you hear me",
          "okay okay",
          "do nothing for now",
          "just wait",
          "hmm",
          "not yet",
          "stand by",
          "ignore that",
          ...PASS_EN_MORE,
        ])
      : ph.choose([
          "等一下",
          "先别动",
          "算了",
          "嗯我想想",
          "暂时不用",
          "等等",
          "没事",
          "先待命",
          ...PASS_ZH_MORE,
        ]);
    query = ph.say(t);
  }
  const history = r.chance(0.35)
    ? distractorHistory(
        ph,
        ops.map((o) => o.name),
        call,
      )
    : [];
  return placeEnvironment(ph, env, query, history, call);
}

/** History entries that are NOT the current order, so the model does not pass by reflex. */
function distractorHistory(ph: Phrasing, names: string[], call: TargetCall): string[] {
  const r = ph.rng;
  const out: string[] = [];
  for (let i = r.int(1, 3); i > 0; i--) {
    const h = r.pick([
      `move(${r.pick(names)},${r.pick(Object.keys(POS))})`,
      `use_skill(${r.pick(names)})`,
      `set_stance(${r.pick(names)},hold)`,
    ]);
    const unit = call.args.unit_id;
    if (unit !== undefined && h.startsWith(`${call.function}(${unit}`)) continue;
    if (h !== formatCallForHistory(call)) out.push(h);
  }
  return out;
}
