/**
 * Extra phrasings for the robotic-arm generator. Each list is spread at the end of an existing
 * `ph.choose([...])` list in robotic-arm.ts: appended, never interleaved, so the held-out
 * reservation (every index i % 4 === 3) of the earlier entries stays where it was.
 */

/** Carry the held part to the place `{obj}` (move_to), at `{speed}` (may be empty). */
export const PLACE_EN_MORE: readonly string[] = [
  "take it over to the {obj} {speed}",
  "{speed} move it over to the {obj}",
  "transfer it to the {obj} {speed}",
  "bring the part to the {obj} {speed}",
  "load it onto the {obj} {speed}",
  "deliver it to the {obj} {speed}",
  "haul it over to the {obj}, {speed}",
  "{speed} put the part in the {obj}",
  "stick it in the {obj} {speed}",
  "send it to the {obj} {speed}",
  "it goes in the {obj}, {speed}",
  "over to the {obj} with it, {speed}",
];

/** 把夹着的零件送到放置处 `{obj}`（move_to），`{speed}` 可能为空。 */
export const PLACE_ZH_MORE: readonly string[] = [
  "{speed}把零件搬到{obj}",
  "{speed}把它拿到{obj}上面",
  "送到{obj}那边，{speed}",
  "{speed}把东西放到{obj}里",
  "把它{speed}运到{obj}",
  "{speed}转移到{obj}",
  "放到{obj}上去，{speed}",
  "{speed}搁到{obj}上",
  "这个{speed}放到{obj}那儿",
  "把夹着的零件{speed}送去{obj}",
  "{speed}将工件移至{obj}",
  "拿去{obj}，{speed}",
  "{obj}那里，{speed}送过去",
];

/** Move the tool to the part or place `{obj}` (move_to), at `{speed}` (may be empty). */
export const APPROACH_EN_MORE: readonly string[] = [
  "send the arm to the {obj} {speed}",
  "{speed} make your way to the {obj}",
  "navigate to the {obj} {speed}",
  "move the tip to the {obj} {speed}",
  "bring the gripper over to the {obj}, {speed}",
  "target the {obj}, {speed}",
];

/** 把末端移动到零件或放置处 `{obj}`（move_to），`{speed}` 可能为空。 */
export const APPROACH_ZH_MORE: readonly string[] = [
  "{speed}把夹爪移到{obj}那儿",
  "到{obj}那边去，{speed}",
  "{speed}移向{obj}",
  "末端{speed}移动至{obj}处",
  "{speed}挪到{obj}那儿",
  "把机械臂{speed}移到{obj}",
  "{obj}那儿，{speed}过去",
  "定位到{obj}，{speed}",
  "{speed}前往{obj}所在位置",
];

/** Move to coordinates `{x}` `{y}` `{z}` (unit `{mm}`, verb `{go}`, `{speed}` may be empty). */
export const XYZ_EN_MORE: readonly string[] = [
  "{go} {x}/{y}/{z}{mm} {speed}",
  "{speed} {go} x:{x} y:{y} z:{z}",
  "{go} X{x} Y{y} Z{z} {speed}",
  "{go} x {x}{mm}, y {y}{mm}, z {z}{mm}, {speed}",
  "{go} the coordinates {x}, {y}, {z} {speed}",
  "{go} pose x {x} y {y} z {z} {speed}",
  "new target: {x}, {y}, {z}{mm}, {speed}",
  "{go} x {x} y {y}, z {z}{mm} {speed}",
];

/** 移动到坐标 `{x}` `{y}` `{z}`（单位 `{mm}`，动词 `{go}`，`{speed}` 可能为空）。 */
export const XYZ_ZH_MORE: readonly string[] = [
  "{speed}{go}坐标({x},{y},{z})",
  "{go}X{x} Y{y} Z{z}，{speed}",
  "{go}x={x}, y={y}, z={z}{mm}，{speed}",
  "{speed}{go}{x}，{y}，{z}这个位置",
  "目标点({x}, {y}, {z})，{speed}{go}那里",
  "{go}坐标点x{x}、y{y}、z{z}{mm}，{speed}",
  "{speed}{go}x轴{x}、y轴{y}、z轴{z}的位置",
  "{go}({x}，{y}，{z}){mm}，{speed}",
  "x是{x}，y是{y}，z是{z}，{speed}{go}这个点",
  "{go}点位{x}/{y}/{z}，{speed}",
];

/** Grip, the force implied by a word `{w}` describing the part (light, heavy, ...). */
export const GRIP_PART_EN_MORE: readonly string[] = [
  "pick up the {w} part",
  "grab that {w} piece",
  "this is a {w} part, close the gripper on it",
  "{w} part, pick it up",
  "grip the {w} workpiece",
  "it's a {w} component, grab it",
  "take hold of the {w} piece",
  "clamp the {w} part",
  "pick this one up, it's a {w} item",
  "the part is {w}, grab it",
  "we've got a {w} part here, pick it up",
  "grip the part, it's a {w} one",
];

/** 抓取，力度由描述零件的词 `{w}`（轻、易碎、很重的……）决定。 */
export const GRIP_PART_ZH_MORE: readonly string[] = [
  "{w}零件，抓起来",
  "把这个{w}零件夹起来",
  "这是个{w}工件，夹住它",
  "抓一下那个{w}零件",
  "夹起{w}工件",
  "注意是{w}零件，抓取",
  "拿这个{w}零件",
  "{w}工件，合上夹爪",
  "要夹的是{w}零件",
  "夹持{w}工件",
  "把{w}零件抓住",
  "{w}零件来了，夹一下",
  "对这个{w}工件执行抓取",
];

/** Grip with the force a grip word `{w}` names (gentle, firm, ...). */
export const GRIP_WORD_EN_MORE: readonly string[] = [
  "grab it with a {w} grip",
  "{w} grip on the part",
  "close on it with {w} force",
  "clamp down, {w} pressure",
  "apply a {w} grip",
  "pick it up with {w} force",
  "take it in a {w} grip",
  "give it a {w} squeeze",
  "grip the part, {w} pressure",
  "close the jaws with {w} force",
  "{w} force on the gripper, grab it",
  "hold the part, {w} grip",
];

/** 以力度词 `{w}`（轻轻、用力……）所说的力度夹住。 */
export const GRIP_WORD_ZH_MORE: readonly string[] = [
  "{w}抓住",
  "夹爪闭合，{w}",
  "{w}把它夹起来",
  "抓一下，{w}",
  "{w}夹一下",
  "把零件夹住，{w}",
  "{w}抓取",
  "{w}握住它",
  "给我{w}夹紧",
  "拿起来，{w}",
  "夹的时候{w}",
  "{w}把零件抓稳",
];

/** Grip with a force of `{f}` in unit `{u}`. */
export const GRIP_FORCE_EN_MORE: readonly string[] = [
  "set grip force to {f}{u}",
  "grip at {f}{u}",
  "close with {f}{u} of force",
  "{f}{u} grip",
  "clamp it with {f}{u}",
  "take it with a {f}{u} grip",
  "grab the part, {f}{u}",
  "use {f}{u} to grip it",
  "grip it, force {f}{u}",
  "hold it at {f}{u}",
  "close the jaws to {f}{u}",
  "pick it up, {f}{u} of grip force",
];

/** 以 `{f}`（单位 `{u}`）的力夹住。 */
export const GRIP_FORCE_ZH_MORE: readonly string[] = [
  "夹持力{f}{u}",
  "用{f}{u}夹紧",
  "{f}{u}抓住它",
  "夹爪力度设为{f}{u}",
  "以{f}{u}的力度夹取",
  "抓起来，用{f}{u}",
  "力度给到{f}{u}，夹住",
  "夹紧到{f}{u}",
  "{f}{u}的力抓取",
  "合上夹爪，{f}{u}",
  "按{f}{u}夹住",
  "夹住，{f}{u}就行",
];

/** Open the gripper and let go of the part (release). */
export const RELEASE_EN_MORE: readonly string[] = [
  "release",
  "let go of the part",
  "open the jaws",
  "unclamp it",
  "drop the part",
  "you can let go now",
  "release the grip",
  "open up",
  "set it down and open the gripper",
  "let the part go",
  "disengage the gripper",
  "open the end effector",
];

/** 张开夹爪、放开零件（release）。 */
export const RELEASE_ZH_MORE: readonly string[] = [
  "撒手",
  "张开夹爪",
  "放下",
  "松开夹爪",
  "把零件放下来",
  "可以松手了",
  "放手",
  "夹爪打开",
  "张开手爪",
  "释放工件",
  "松夹",
  "把它丢下",
  "放开夹着的东西",
];

/** Rotate the tool about axis `{a}` by `{n}` in unit `{d}`. */
export const ROTATE_EN_MORE: readonly string[] = [
  "spin {n}{d} about {a}",
  "rotate {n}{d} around {a}",
  "twist the end effector {n}{d} about {a}",
  "{a} rotation, {n}{d}",
  "rotate the tool about {a} by {n}{d}",
  "turn about {a} by {n}{d}",
  "give me {n}{d} on {a}",
  "jog {a} by {n}{d}",
  "rotate the gripper {n}{d} around {a}",
  "{n}{d} around {a}",
  "adjust {a} by {n}{d}",
  "spin the wrist on {a}, {n}{d}",
];

/** 绕轴 `{a}` 旋转 `{n}`（单位 `{d}`）。 */
export const ROTATE_ZH_MORE: readonly string[] = [
  "绕{a}转{n}{d}",
  "{a}旋转{n}{d}",
  "围绕{a}转动{n}{d}",
  "让末端绕{a}转{n}{d}",
  "{a}调{n}{d}",
  "以{a}为轴旋转{n}{d}",
  "把工具沿{a}转{n}{d}",
  "手腕{a}转{n}{d}",
  "{a}，{n}{d}",
  "夹爪绕{a}转个{n}{d}",
  "{a}转动{n}{d}",
  "末端姿态绕{a}调整{n}{d}",
  "在{a}上转{n}{d}",
];

/** Return the arm to its home position (home). */
export const HOME_EN_MORE: readonly string[] = [
  "return home",
  "home the arm",
  "go to the home position",
  "send the arm home",
  "homing",
  "move back to the home pose",
  "reset to home",
  "take the arm back to its home position",
  "return to the zero position",
  "run the homing routine",
  "back to home, we're done here",
  "retract to home",
];

/** 机械臂回到初始（原点）位置（home）。 */
export const HOME_ZH_MORE: readonly string[] = [
  "归位",
  "回零位",
  "复位一下",
  "回到原位",
  "回到原点位置",
  "机械臂回原点",
  "回到初始位姿",
  "回home",
  "让机械臂回到初始位置",
  "归零",
  "回到起始位置",
  "执行回零",
  "收回到原位",
];
