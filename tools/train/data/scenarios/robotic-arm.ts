import type { Phrasing } from "../phrasing";
import { type Draw, num, placeEnvironment } from "./draw";

const PARTS_EN = [
  "red gear",
  "blue gear",
  "bolt",
  "steel plate",
  "bearing",
  "green cube",
  "yellow block",
  "shaft",
  "bracket",
  "valve body",
  "nut",
  "spring",
  "copper pipe",
  "sensor",
  "motor housing",
  "washer",
  "gear blank",
  "white cup",
  "black box",
  "part A",
  "part B",
  "widget",
];
const PARTS_ZH = [
  "红色齿轮",
  "蓝色齿轮",
  "螺栓",
  "钢板",
  "轴承",
  "绿色方块",
  "黄色积木",
  "轴",
  "支架",
  "阀体",
  "螺母",
  "弹簧",
  "铜管",
  "传感器",
  "电机外壳",
  "垫片",
  "齿轮毛坯",
  "白色杯子",
  "黑盒子",
  "零件A",
  "零件B",
  "小部件",
];
const PLACES_EN = ["tray", "bin", "conveyor", "fixture", "pallet", "box", "drop zone", "rack"];
const PLACES_ZH = ["托盘", "料箱", "传送带", "夹具", "栈板", "盒子", "放料区", "货架"];

const SPEED_EN: Record<string, string[]> = {
  slow: ["slowly", "slow", "carefully", "gently", "at slow speed", "nice and slow", "at a crawl"],
  normal: ["at normal speed", "at regular speed", "normally", "at the usual speed"],
  fast: ["quickly", "fast", "at full speed", "rapidly", "at high speed", "as fast as you can", "hurry"],
};
const SPEED_ZH: Record<string, string[]> = {
  slow: ["慢慢地", "慢速", "缓慢地", "小心地", "慢一点", "轻轻地"],
  normal: ["正常速度", "以常速", "用普通速度"],
  fast: ["快速", "快点", "迅速", "全速", "高速"],
};
const AXIS_EN: Record<string, string[]> = {
  roll: ["roll", "the roll axis", "roll axis", "the x axis", "X axis"],
  pitch: ["pitch", "the pitch axis", "pitch axis", "the y axis", "Y axis"],
  yaw: ["yaw", "the yaw axis", "yaw axis", "the z axis", "Z axis"],
};
const AXIS_ZH: Record<string, string[]> = {
  roll: ["横滚", "roll轴", "翻滚轴", "X轴", "x轴"],
  pitch: ["俯仰", "pitch轴", "俯仰轴", "Y轴", "y轴"],
  yaw: ["偏航", "yaw轴", "偏航轴", "Z轴", "z轴"],
};
/** Force levels: `part` words describe the object, `grip` words the grip itself. */
const FORCE: { value: number; part: string[]; grip: string[]; zhPart: string[]; zhGrip: string[] }[] = [
  {
    value: 10,
    part: ["light", "delicate", "fragile", "small light", "thin"],
    grip: ["light", "gentle", "soft", "careful"],
    zhPart: ["轻", "易碎", "很轻的", "小"],
    zhGrip: ["轻轻", "小力", "轻一点", "温柔点"],
  },
  {
    value: 50,
    part: ["medium", "medium-weight", "mid-size", "normal"],
    grip: ["medium", "moderate", "normal", "regular"],
    zhPart: ["中等", "中型", "普通"],
    zhGrip: ["中等力度", "适中的力", "正常力度"],
  },
  {
    value: 100,
    part: ["heavy", "heavy-duty", "big heavy", "solid steel"],
    grip: ["firm", "hard", "strong", "full-force", "heavy"],
    zhPart: ["重", "很重的", "大", "实心钢"],
    zhGrip: ["用力", "大力", "使劲", "最大力度"],
  },
];

function coord(ph: Phrasing, lo: number, hi: number): number {
  const v = ph.rng.int(lo, hi);
  return ph.rng.chance(0.7) ? Math.round(v / 10) * 10 : v;
}

function point(ph: Phrasing): [number, number, number] {
  return [coord(ph, -800, 800), coord(ph, -800, 800), coord(ph, 0, 600)];
}

/**
 * The arm's state line. Mostly in the simulator's English form (`Arm above the red gear,
 * gripper open`), whatever the query's language, since worlds report state in English.
 */
function armState(ph: Phrasing): string {
  const r = ph.rng;
  const p = point(ph).join(",");
  if (ph.lang === "zh" && r.chance(0.4)) {
    const pose = r.chance(0.4) ? "机械臂在原点(0,0,500)" : `机械臂位于(${p})`;
    return `${pose}，${r.chance(0.3) ? "夹着零件" : "夹爪张开"}`;
  }
  const part = r.pick(PARTS_EN);
  const hand = r.pick(["gripper open", "gripper open", "gripper closed", `holding the ${part}`]);
  const place = r.pick([
    "at home (0,0,500)",
    `at (${p})`,
    `at (${p})`,
    `above the ${r.pick(PARTS_EN)}`,
    `above the tray (${p})`,
    `moving to (${p}), ${r.int(1, 99)}% done`,
  ]);
  return `Arm ${place}, ${hand}`;
}

/** Spoken commands to the 6-axis arm: move_to, grip, release, rotate, home. */
export function drawRoboticArm(ph: Phrasing): Draw {
  const r = ph.rng;
  const en = ph.lang === "en";
  const env: string[] = [];
  const history: string[] = r.chance(0.3) ? [`move_to(${point(ph).join(",")})`] : [];
  if (r.chance(0.7)) env.push(armState(ph));
  const kind = r.pick([
    "move_obj",
    "move_obj",
    "move_xyz",
    "move_xyz",
    "grip",
    "grip",
    "release",
    "rotate",
    "rotate",
    "home",
  ]);

  if (kind === "move_obj" || kind === "move_xyz") {
    const speed = r.chance(0.55) ? r.pick(["slow", "normal", "fast", "slow", "fast"]) : undefined;
    const speedWord = speed ? r.pick((en ? SPEED_EN : SPEED_ZH)[speed]!) : "";
    const [x, y, z] = point(ph);
    const args: Record<string, number | string> = { x, y, z };
    if (speed) args.speed = speed;
    let query: string;
    if (kind === "move_obj") {
      // Names in the environment may be English while the query is Chinese (worlds report in
      // English); the lists are index-aligned so either side names the same object.
      const envEn = en || r.chance(0.5);
      const picks = r.sample(
        PARTS_EN.map((_, i) => i),
        r.int(1, 3),
      );
      const placeIndex = r.int(0, PLACES_EN.length - 1);
      const place = (en ? PLACES_EN : PLACES_ZH)[placeIndex]!;
      const objs = picks.map((i) => ({
        said: (en ? PARTS_EN : PARTS_ZH)[i]!,
        shown: (envEn ? PARTS_EN : PARTS_ZH)[i]!,
        at: point(ph),
      }));
      const all = [
        ...objs,
        { said: place, shown: (envEn ? PLACES_EN : PLACES_ZH)[placeIndex]!, at: point(ph) },
      ];
      const chosen = r.pick(all);
      const target = [chosen.said, chosen.at] as const;
      [args.x, args.y, args.z] = chosen.at;
      const entries = all.map(({ shown, at }) =>
        envEn ? `${shown} at (${at.join(",")})` : `${shown}在(${at.join(",")})`,
      );
      if (envEn && r.chance(0.25)) {
        const other = r.pick(PARTS_EN.filter((_, i) => !picks.includes(i)));
        entries.push(
          r.pick([
            `${other} in the gripper`,
            `${other} in the tray`,
            `${other} (crushed) at (${point(ph).join(",")})`,
          ]),
        );
      }
      const ordered = r.chance(0.5)
        ? [...r.shuffle(entries.slice(0, -1)), entries.at(-1)!]
        : r.shuffle(entries);
      env.push((envEn ? "Part: " : "零件：") + ordered.join(envEn ? ", " : "，"));
      const isPlace = target[0] === place;
      const t =
        isPlace && r.chance(0.5)
          ? en
            ? ph.choose([
                "put it on the {obj} {speed}",
                "carry it to the {obj} {speed}",
                "{speed} bring it over to the {obj}",
                "drop it off at the {obj} {speed}",
                "place it in the {obj} {speed}",
                "move it to the {obj}, {speed}",
              ])
            : ph.choose([
                "{speed}把它放到{obj}上",
                "{speed}拿到{obj}那里",
                "把零件{speed}送到{obj}",
                "{speed}放进{obj}",
                "搬到{obj}去，{speed}",
              ])
          : en
            ? ph.choose([
                "Go to the {obj} {speed}",
                "move to the {obj} {speed}",
                "{speed} move over to the {obj}",
                "Take the tool to the {obj} {speed}",
                "head to the {obj} {speed}",
                "Position yourself at the {obj} {speed}",
                "reach the {obj} {speed}",
                "go over to the {obj}, {speed}",
                "approach the {obj} {speed}",
                "{speed} get to the {obj}",
                "line up with the {obj} {speed}",
                "go for the {obj} {speed}",
              ])
            : ph.choose([
                "{speed}移动到{obj}",
                "去{obj}那里，{speed}",
                "{speed}到{obj}的位置",
                "把末端移到{obj}{speed}",
                "移到{obj}上{speed}",
                "{speed}过去{obj}那边",
                "{speed}去{obj}",
                "对准{obj}，{speed}",
                "{speed}靠近{obj}",
              ]);
      query = ph.say(t, { obj: target[0], speed: speedWord });
    } else {
      const mm = en ? r.pick(["", " mm", "mm", " millimeters"]) : r.pick(["", "毫米", "mm"]);
      const t = en
        ? ph.choose([
            "move to x {x} y {y} z {z}{mm} {speed}",
            "Go to {x}, {y}, {z} {speed}",
            "{speed} move to ({x}, {y}, {z})",
            "move the tip to x={x}{mm}, y={y}{mm}, z={z}{mm} {speed}",
            "go to position {x} {y} {z} {speed}",
            "coordinates {x} {y} {z}, {speed}",
            "Move to X {x}{mm} Y {y}{mm} Z {z}{mm} {speed}",
            "target x {x}, y {y}, height {z}{mm} {speed}",
          ])
        : ph.choose([
            "移动到x {x} y {y} z {z}{mm}，{speed}",
            "{speed}移到({x}, {y}, {z})",
            "去坐标{x}，{y}，{z}{speed}",
            "移动到X={x}{mm}，Y={y}{mm}，Z={z}{mm}，{speed}",
            "到位置{x} {y} {z}，{speed}",
            "{speed}把末端移到x{x}、y{y}、z{z}",
            "坐标{x}，{y}，高度{z}{mm}，{speed}",
          ]);
      query = ph.say(t, { speed: speedWord, mm }, { x: num(x), y: num(y), z: num(z) });
    }
    return placeEnvironment(ph, env, tidy(query), history, { function: "move_to", args });
  }
  if (kind === "grip") {
    let force: number;
    let query: string;
    if (r.chance(0.55)) {
      const f = r.pick(FORCE);
      force = f.value;
      const aboutPart = r.chance(0.5);
      const word = r.pick(en ? (aboutPart ? f.part : f.grip) : aboutPart ? f.zhPart : f.zhGrip);
      const t = aboutPart
        ? en
          ? ph.choose([
              "Grab it, it's a {w} part",
              "pick it up, it's {w}",
              "grab the part, {w} one",
              "take it, this one is {w}",
              "it's a {w} piece, grip it",
              "grip it, {w} part",
            ])
          : ph.choose([
              "夹住它，这是{w}件",
              "抓起来，这个零件是{w}的",
              "这是{w}零件，夹住",
              "抓取，{w}件",
              "拿起这个{w}零件",
            ])
        : en
          ? ph.choose([
              "grip it with {w} force",
              "close the gripper, {w} grip",
              "use a {w} grip on it",
              "clamp it, {w} force",
              "{w} grip please",
              "hold it with a {w} grip",
            ])
          : ph.choose(["{w}夹住", "{w}抓起来", "夹紧，{w}", "抓住它，{w}", "合上夹爪，{w}", "用{w}夹"]);
      query = ph.say(t, { w: word });
    } else {
      force = r.pick([5, 15, 20, 25, 30, 35, 40, 45, 60, 70, 75, 80, 90, 120, 12, 8]);
      const unit = en ? r.pick([" N", "N", " newtons", " newton"]) : r.pick(["牛", "N", "牛顿", " N"]);
      const t = en
        ? ph.choose([
            "grip with {f}{u}",
            "Grab it with {f}{u} of force",
            "close the gripper at {f}{u}",
            "grip force {f}{u}",
            "squeeze with {f}{u}",
            "pick it up using {f}{u}",
            "clamp at {f}{u}",
          ])
        : ph.choose([
            "用{f}{u}的力夹住",
            "夹紧，力度{f}{u}",
            "以{f}{u}抓取",
            "抓取力{f}{u}",
            "夹爪{f}{u}夹住",
            "用{f}{u}抓起来",
          ]);
      query = ph.say(t, { u: unit }, { f: String(force) });
    }
    if (r.chance(0.5))
      env.push(
        en
          ? r.pick([
              "Arm above the part, gripper open",
              "Tool tip at the part",
              `Arm above the ${r.pick(PARTS_EN)}, gripper open`,
              `Tool tip touching the ${r.pick(PARTS_EN)}`,
            ])
          : "机械臂在零件上方，夹爪张开",
      );
    return placeEnvironment(ph, env, query, history, { function: "grip", args: { force } });
  }
  if (kind === "release") {
    const t = en
      ? ph.choose([
          "let go",
          "Release it",
          "open the gripper",
          "drop it",
          "let it go",
          "release the part",
          "open up the claw",
          "put it down and let go",
        ])
      : ph.choose(["松开", "放开它", "打开夹爪", "松手", "放下零件", "把夹爪张开", "放掉"]);
    return placeEnvironment(ph, env, ph.say(t), history, { function: "release", args: {} });
  }
  if (kind === "rotate") {
    const axis = r.pick(["roll", "pitch", "yaw"]);
    const angle = r.pick([15, 30, 45, 60, 90, 120, 180, -15, -30, -45, -60, -90, -120, 10, 20, 75, -20]);
    const a = r.pick((en ? AXIS_EN : AXIS_ZH)[axis]!);
    const deg = en ? r.pick([" degrees", " deg", "°", " degree"]) : r.pick(["度", "°"]);
    const t = en
      ? ph.choose([
          "rotate {a} by {n}{d}",
          "Turn the tool {n}{d} about {a}",
          "rotate the wrist {n}{d} on {a}",
          "{a} {n}{d}",
          "rotate around {a}, {n}{d}",
          "Set a {a} rotation of {n}{d}",
          "turn {n}{d} around {a}",
        ])
      : ph.choose([
          "绕{a}旋转{n}{d}",
          "{a}转{n}{d}",
          "工具绕{a}转动{n}{d}",
          "沿{a}旋转{n}{d}",
          "{a}方向转{n}{d}",
          "把手腕绕{a}转{n}{d}",
        ]);
    const query = ph.say(t, { a, d: deg }, { n: String(angle) });
    return placeEnvironment(ph, env, query, history, { function: "rotate", args: { axis, angle } });
  }
  const t = en
    ? ph.choose([
        "go home",
        "Return to home",
        "home position",
        "back to the home pose",
        "reset the arm",
        "go back home",
        "return to the start pose",
        "park the arm at home",
      ])
    : ph.choose(["回原点", "回到初始位置", "复位", "回零", "机械臂归位", "回到home位置", "回家"]);
  return placeEnvironment(ph, env, ph.say(t), history, { function: "home", args: {} });
}

function tidy(text: string): string {
  return text
    .replace(/\s+([,.!?，。])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .replace(/,\s*$/, "")
    .replace(/^[,，]\s*/, "")
    .trim();
}
