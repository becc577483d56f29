import { coinedCode, coinedWord } from "../coined";
import type { Phrasing } from "../phrasing";
import { type Draw, num, placeEnvironment } from "./draw";
import {
  APPROACH_EN_MORE,
  APPROACH_ZH_MORE,
  GRIP_FORCE_EN_MORE,
  GRIP_FORCE_ZH_MORE,
  GRIP_PART_EN_MORE,
  GRIP_PART_ZH_MORE,
  GRIP_WORD_EN_MORE,
  GRIP_WORD_ZH_MORE,
  HOME_EN_MORE,
  HOME_ZH_MORE,
  PLACE_EN_MORE,
  PLACE_ZH_MORE,
  RELEASE_EN_MORE,
  RELEASE_ZH_MORE,
  ROTATE_EN_MORE,
  ROTATE_ZH_MORE,
  XYZ_EN_MORE,
  XYZ_ZH_MORE,
} from "./robotic-arm-phrasings";

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
/** Ways to say "move the tip to" before coordinates (every fourth is held out by `choose`). */
const GO_EN = [
  "move to",
  "go to",
  "head to",
  "travel to",
  "bring the tip to",
  "lift it to",
  "lift it straight up to",
  "raise it to",
  "lower it to",
  "take it to",
  "carry it to",
  "shift to",
  "send the arm to",
  "position the tool at",
  "move the gripper to",
  "put the tip at",
  "reposition to",
  "slide over to",
  "drop down to",
  "come up to",
  "move the tip to",
  "bring it up to",
  "set the tool at",
  "jog to",
];
const GO_ZH = [
  "移动到",
  "移到",
  "去",
  "到",
  "把末端移到",
  "抬到",
  "举到",
  "降到",
  "放低到",
  "挪到",
  "送到",
  "走到",
  "把夹爪移到",
  "把它抬起来到",
  "升到",
  "把工具移到",
];
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

/** A part on the table as `@rtool/sim`'s arm reports it. */
interface ArmPart {
  /** Index into PARTS_EN/PARTS_ZH, or -1 for a coined name. */
  index: number;
  name: string;
  at: [number, number, number];
  where: "table" | "gripper" | "tray";
  crushed: boolean;
}

/** A part name: a known one, or (copy curriculum) a coined one the model must match by spelling. */
function partName(ph: Phrasing, taken: Set<string>): { index: number; name: string } {
  const r = ph.rng;
  for (;;) {
    const p = r.chance(0.3)
      ? {
          index: -1,
          name: r.pick([
            () =>
              `${coinedWord(r)} ${r.pick(["gear", "bracket", "valve", "block", "plate", "cup", "bolt", "housing"])}`,
            () => `part ${coinedCode(r)}`,
            () => `${r.pick(["red", "blue", "green", "black", "white", "orange"])} ${coinedWord(r)}`,
            () => coinedWord(r, 2),
          ])(),
        }
      : (() => {
          const index = r.int(0, PARTS_EN.length - 1);
          return { index, name: PARTS_EN[index]! };
        })();
    if (!taken.has(p.name)) {
      taken.add(p.name);
      return p;
    }
  }
}

/**
 * The world the arm sees, in the exact two-line form `@rtool/sim`'s arm sends on every frame
 * (`Arm …, gripper …` then `Part: …, tray at (…)`), so every item, whatever its function,
 * carries the state a real client sends. `holding`: whether a part is in the gripper.
 */
function armWorld(ph: Phrasing, holding: "yes" | "no" | "maybe") {
  const r = ph.rng;
  const taken = new Set<string>();
  const parts: ArmPart[] = [];
  for (let i = r.int(1, 3); i > 0; i--) {
    const { index, name } = partName(ph, taken);
    parts.push({ index, name, at: point(ph), where: "table", crushed: r.chance(0.05) });
  }
  const held = holding === "yes" || (holding === "maybe" && r.chance(0.2)) ? parts[0]! : undefined;
  if (held) held.where = "gripper";
  for (const p of parts.slice(1)) if (r.chance(0.15)) p.where = "tray";
  const placeIndex = r.chance(0.75) ? 0 : r.int(1, PLACES_EN.length - 1);
  const place = { index: placeIndex, name: PLACES_EN[placeIndex]!, at: point(ph) };
  const fmt = (p: readonly number[]) => p.join(",");
  const hand = held ? `holding the ${held.name}` : `gripper ${r.chance(0.8) ? "open" : "closed"}`;
  const near = parts.find((p) => p.where === "table");
  const pose = r.pick([
    () => `at home (0,0,500)`,
    () => `at (${fmt(point(ph))})`,
    () => (near ? `above the ${near.name}` : `at (${fmt(point(ph))})`),
    () => `above the ${place.name} (${fmt(place.at)})`,
    () => `moving to (${fmt(point(ph))}), ${r.int(1, 99)}% done`,
  ])();
  const tip = `Arm ${pose}, ${hand}`;
  const listed = parts.map((p) => {
    const name = p.crushed ? `${p.name} (crushed)` : p.name;
    if (p.where === "gripper") return `${name} in the gripper`;
    if (p.where === "tray") return `${name} in the ${place.name}`;
    return `${name} at (${fmt(p.at)})`;
  });
  const partsLine = `Part: ${[...listed, `${place.name} at (${fmt(place.at)})`].join(", ")}`;
  return { parts, place, held, lines: [tip, partsLine] };
}

/**
 * The environment an item ships with: mostly the sim's two lines on every item; sometimes a
 * Chinese rendering or only the tip line (other clients), rarely nothing.
 */
function armEnvironment(ph: Phrasing, world: ReturnType<typeof armWorld>): string[] {
  const r = ph.rng;
  const roll = r.next();
  if (roll < 0.78) return world.lines;
  if (roll < 0.88 && ph.lang === "zh") {
    const list = world.parts.map((p) => {
      const name = p.index >= 0 ? PARTS_ZH[p.index]! : p.name;
      return p.where === "table"
        ? `${name}在(${p.at.join(",")})`
        : `${name}${p.where === "gripper" ? "在夹爪中" : "在托盘里"}`;
    });
    const placeZh = PLACES_ZH[world.place.index]!;
    return [
      world.held
        ? `机械臂夹着${world.parts[0]!.index >= 0 ? PARTS_ZH[world.parts[0]!.index] : world.parts[0]!.name}`
        : "机械臂夹爪张开",
      `零件：${[...list, `${placeZh}在(${world.place.at.join(",")})`].join("，")}`,
    ];
  }
  if (roll < 0.95) return [world.lines[0]!];
  return [];
}

/** Spoken commands to the 6-axis arm: move_to, grip, release, rotate, home. */
export function drawRoboticArm(ph: Phrasing): Draw {
  const r = ph.rng;
  const en = ph.lang === "en";
  const history: string[] = r.chance(0.3) ? [`move_to(${point(ph).join(",")})`] : [];
  const kind = r.pick([
    "move_obj",
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
  const world = armWorld(
    ph,
    kind === "release" ? (r.chance(0.8) ? "yes" : "maybe") : kind === "grip" ? "no" : "maybe",
  );
  let env = armEnvironment(ph, world);

  if (kind === "move_obj" || kind === "move_xyz") {
    const speed = r.chance(0.55) ? r.pick(["slow", "normal", "fast", "slow", "fast"]) : undefined;
    const speedWord = speed ? r.pick((en ? SPEED_EN : SPEED_ZH)[speed]!) : "";
    const [x, y, z] = point(ph);
    const args: Record<string, number | string> = { x, y, z };
    if (speed) args.speed = speed;
    let query: string;
    if (kind === "move_obj") {
      // The target is a part on the table or the place, by the name the query uses (a known
      // part may be said in Chinese; a coined one only as written); its coordinates are copied
      // from the environment.
      const onTable = world.parts.filter((p) => p.where === "table");
      if (env.length !== 2) env = world.lines;
      const choices = [
        ...onTable.map((p) => ({ index: p.index, name: p.name, at: p.at, isPlace: false })),
        { ...world.place, isPlace: true },
      ];
      const chosen = r.chance(0.35) ? choices.at(-1)! : r.pick(choices);
      const said =
        chosen.index >= 0 && !en ? (chosen.isPlace ? PLACES_ZH : PARTS_ZH)[chosen.index]! : chosen.name;
      [args.x, args.y, args.z] = chosen.at;
      const t =
        chosen.isPlace && r.chance(0.5)
          ? en
            ? ph.choose([
                "put it on the {obj} {speed}",
                "carry it to the {obj} {speed}",
                "{speed} bring it over to the {obj}",
                "drop it off at the {obj} {speed}",
                "place it in the {obj} {speed}",
                "move it to the {obj}, {speed}",
                ...PLACE_EN_MORE,
              ])
            : ph.choose([
                "{speed}把它放到{obj}上",
                "{speed}拿到{obj}那里",
                "把零件{speed}送到{obj}",
                "{speed}放进{obj}",
                "搬到{obj}去，{speed}",
                ...PLACE_ZH_MORE,
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
                ...APPROACH_EN_MORE,
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
                ...APPROACH_ZH_MORE,
              ]);
      query = ph.say(t, { obj: said, speed: speedWord });
    } else {
      const mm = en ? r.pick(["", " mm", "mm", " millimeters"]) : r.pick(["", "毫米", "mm"]);
      const t = en
        ? ph.choose([
            "{go} x {x} y {y} z {z}{mm} {speed}",
            "{go} {x}, {y}, {z} {speed}",
            "{speed} {go} ({x}, {y}, {z})",
            "{go} x={x}{mm}, y={y}{mm}, z={z}{mm} {speed}",
            "{go} position {x} {y} {z} {speed}",
            "coordinates {x} {y} {z}, {speed}",
            "{go} X {x}{mm} Y {y}{mm} Z {z}{mm} {speed}",
            "target x {x}, y {y}, height {z}{mm} {speed}",
            "{go} the point ({x},{y},{z}) {speed}",
            "{go} x {x}, y {y} and z {z} {speed}",
            "{speed} {go} {x} {y} {z}",
            "{go} ({x}, {y}, {z}){mm} {speed}",
            ...XYZ_EN_MORE,
          ])
        : ph.choose([
            "{go}x {x} y {y} z {z}{mm}，{speed}",
            "{speed}{go}({x}, {y}, {z})",
            "{go}坐标{x}，{y}，{z}{speed}",
            "{go}X={x}{mm}，Y={y}{mm}，Z={z}{mm}，{speed}",
            "{go}位置{x} {y} {z}，{speed}",
            "{speed}{go}x{x}、y{y}、z{z}",
            "坐标{x}，{y}，高度{z}{mm}，{speed}",
            "{go}({x},{y},{z})这个点，{speed}",
            ...XYZ_ZH_MORE,
          ]);
      const go = ph.choose(en ? GO_EN : GO_ZH);
      query = ph.say(t, { speed: speedWord, mm, go }, { x: num(x), y: num(y), z: num(z) });
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
              ...GRIP_PART_EN_MORE,
            ])
          : ph.choose([
              "夹住它，这是{w}件",
              "抓起来，这个零件是{w}的",
              "这是{w}零件，夹住",
              "抓取，{w}件",
              "拿起这个{w}零件",
              ...GRIP_PART_ZH_MORE,
            ])
        : en
          ? ph.choose([
              "grip it with {w} force",
              "close the gripper, {w} grip",
              "use a {w} grip on it",
              "clamp it, {w} force",
              "{w} grip please",
              "hold it with a {w} grip",
              ...GRIP_WORD_EN_MORE,
            ])
          : ph.choose([
              "{w}夹住",
              "{w}抓起来",
              "夹紧，{w}",
              "抓住它，{w}",
              "合上夹爪，{w}",
              "用{w}夹",
              ...GRIP_WORD_ZH_MORE,
            ]);
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
            ...GRIP_FORCE_EN_MORE,
          ])
        : ph.choose([
            "用{f}{u}的力夹住",
            "夹紧，力度{f}{u}",
            "以{f}{u}抓取",
            "抓取力{f}{u}",
            "夹爪{f}{u}夹住",
            "用{f}{u}抓起来",
            ...GRIP_FORCE_ZH_MORE,
          ]);
      query = ph.say(t, { u: unit }, { f: String(force) });
    }
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
          ...RELEASE_EN_MORE,
        ])
      : ph.choose([
          "松开",
          "放开它",
          "打开夹爪",
          "松手",
          "放下零件",
          "把夹爪张开",
          "放掉",
          ...RELEASE_ZH_MORE,
        ]);
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
          ...ROTATE_EN_MORE,
        ])
      : ph.choose([
          "绕{a}旋转{n}{d}",
          "{a}转{n}{d}",
          "工具绕{a}转动{n}{d}",
          "沿{a}旋转{n}{d}",
          "{a}方向转{n}{d}",
          "把手腕绕{a}转{n}{d}",
          ...ROTATE_ZH_MORE,
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
        ...HOME_EN_MORE,
      ])
    : ph.choose([
        "回原点",
        "回到初始位置",
        "复位",
        "回零",
        "机械臂归位",
        "回到home位置",
        "回家",
        ...HOME_ZH_MORE,
      ]);
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
