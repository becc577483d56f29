/**
 * Bilingual word banks for synthetic tool sets: verbs and nouns become tool names and
 * descriptions, parameter kinds bring their own value generators and phrasings.
 */
export interface Word {
  en: string;
  zh: string;
}

export const VERBS: Word[] = [
  { en: "open", zh: "打开" },
  { en: "close", zh: "关闭" },
  { en: "start", zh: "启动" },
  { en: "stop", zh: "停止" },
  { en: "set", zh: "设置" },
  { en: "move", zh: "移动" },
  { en: "play", zh: "播放" },
  { en: "pause", zh: "暂停" },
  { en: "lock", zh: "锁上" },
  { en: "unlock", zh: "解锁" },
  { en: "send", zh: "发送" },
  { en: "create", zh: "创建" },
  { en: "delete", zh: "删除" },
  { en: "rename", zh: "重命名" },
  { en: "spawn", zh: "生成" },
  { en: "launch", zh: "发射" },
  { en: "scan", zh: "扫描" },
  { en: "charge", zh: "充电" },
  { en: "heal", zh: "治疗" },
  { en: "build", zh: "建造" },
  { en: "upgrade", zh: "升级" },
  { en: "sell", zh: "出售" },
  { en: "buy", zh: "购买" },
  { en: "order", zh: "订购" },
  { en: "dim", zh: "调暗" },
  { en: "brighten", zh: "调亮" },
  { en: "record", zh: "录制" },
  { en: "print", zh: "打印" },
  { en: "water", zh: "浇水" },
  { en: "feed", zh: "喂" },
  { en: "clean", zh: "清洁" },
  { en: "mute", zh: "静音" },
  { en: "turn", zh: "转动" },
  { en: "lift", zh: "抬起" },
  { en: "lower", zh: "放下" },
  { en: "attack", zh: "攻击" },
  { en: "defend", zh: "防守" },
  { en: "cast", zh: "施放" },
  { en: "equip", zh: "装备" },
  { en: "summon", zh: "召唤" },
  { en: "book", zh: "预订" },
  { en: "cancel", zh: "取消" },
  { en: "call", zh: "呼叫" },
  { en: "translate", zh: "翻译" },
  { en: "search", zh: "搜索" },
  { en: "share", zh: "分享" },
  { en: "download", zh: "下载" },
  { en: "schedule", zh: "安排" },
];

export const NOUNS: Word[] = [
  { en: "door", zh: "门" },
  { en: "window", zh: "窗户" },
  { en: "light", zh: "灯" },
  { en: "fan", zh: "风扇" },
  { en: "heater", zh: "暖气" },
  { en: "camera", zh: "摄像头" },
  { en: "drone", zh: "无人机" },
  { en: "turret", zh: "炮塔" },
  { en: "music", zh: "音乐" },
  { en: "video", zh: "视频" },
  { en: "message", zh: "消息" },
  { en: "email", zh: "邮件" },
  { en: "timer", zh: "计时器" },
  { en: "reminder", zh: "提醒" },
  { en: "note", zh: "笔记" },
  { en: "file", zh: "文件" },
  { en: "unit", zh: "单位" },
  { en: "soldier", zh: "士兵" },
  { en: "tower", zh: "塔" },
  { en: "wall", zh: "城墙" },
  { en: "car", zh: "车" },
  { en: "robot", zh: "机器人" },
  { en: "pump", zh: "水泵" },
  { en: "valve", zh: "阀门" },
  { en: "conveyor", zh: "传送带" },
  { en: "printer", zh: "打印机" },
  { en: "oven", zh: "烤箱" },
  { en: "kettle", zh: "水壶" },
  { en: "plant", zh: "植物" },
  { en: "pet", zh: "宠物" },
  { en: "spell", zh: "法术" },
  { en: "weapon", zh: "武器" },
  { en: "shield", zh: "护盾" },
  { en: "potion", zh: "药水" },
  { en: "ticket", zh: "票" },
  { en: "table", zh: "桌位" },
  { en: "taxi", zh: "出租车" },
  { en: "playlist", zh: "歌单" },
  { en: "volume", zh: "音量" },
  { en: "thermostat", zh: "温控器" },
  { en: "curtain", zh: "窗帘" },
  { en: "alarm", zh: "警报" },
  { en: "gate", zh: "闸门" },
  { en: "elevator", zh: "电梯" },
  { en: "laser", zh: "激光" },
  { en: "engine", zh: "引擎" },
  { en: "cargo", zh: "货物" },
  { en: "satellite", zh: "卫星" },
];

/** How a parameter's value is drawn and said. */
export type ParamKind = "enum" | "number" | "integer" | "string" | "boolean";

export interface ParamIdea {
  name: Word;
  kind: ParamKind;
  /** Units spoken after numbers (`en`/`zh` pairs); the value itself carries no unit. */
  units?: Word[];
  lo?: number;
  hi?: number;
  /** Enum values with their spoken synonyms. */
  values?: { value: string; en: string[]; zh: string[] }[];
  /** Free strings the user names and the model copies verbatim. */
  strings?: { en: string[]; zh: string[] };
}

export const PARAM_IDEAS: ParamIdea[] = [
  {
    name: { en: "speed", zh: "速度" },
    kind: "enum",
    values: [
      { value: "slow", en: ["slow", "slowly", "gently"], zh: ["慢速", "慢慢"] },
      { value: "medium", en: ["medium", "moderate"], zh: ["中速", "适中"] },
      { value: "fast", en: ["fast", "quickly", "rapidly"], zh: ["快速", "快"] },
    ],
  },
  {
    name: { en: "color", zh: "颜色" },
    kind: "enum",
    values: [
      { value: "red", en: ["red"], zh: ["红色", "红"] },
      { value: "green", en: ["green"], zh: ["绿色", "绿"] },
      { value: "blue", en: ["blue"], zh: ["蓝色", "蓝"] },
      { value: "white", en: ["white"], zh: ["白色", "白"] },
      { value: "yellow", en: ["yellow"], zh: ["黄色", "黄"] },
      { value: "purple", en: ["purple", "violet"], zh: ["紫色"] },
    ],
  },
  {
    name: { en: "mode", zh: "模式" },
    kind: "enum",
    values: [
      { value: "eco", en: ["eco", "economy", "energy saving"], zh: ["节能"] },
      { value: "turbo", en: ["turbo", "boost"], zh: ["加速", "涡轮"] },
      { value: "auto", en: ["auto", "automatic"], zh: ["自动"] },
      { value: "manual", en: ["manual", "by hand"], zh: ["手动"] },
      { value: "silent", en: ["silent", "quiet"], zh: ["静音", "安静"] },
    ],
  },
  {
    name: { en: "direction", zh: "方向" },
    kind: "enum",
    values: [
      { value: "left", en: ["left"], zh: ["左", "左边"] },
      { value: "right", en: ["right"], zh: ["右", "右边"] },
      { value: "forward", en: ["forward", "ahead"], zh: ["前", "向前"] },
      { value: "back", en: ["back", "backward"], zh: ["后", "向后"] },
    ],
  },
  {
    name: { en: "priority", zh: "优先级" },
    kind: "enum",
    values: [
      { value: "low", en: ["low", "not urgent"], zh: ["低", "不急"] },
      { value: "normal", en: ["normal", "regular"], zh: ["普通", "正常"] },
      { value: "high", en: ["high", "urgent", "important"], zh: ["高", "紧急", "重要"] },
    ],
  },
  {
    name: { en: "size", zh: "大小" },
    kind: "enum",
    values: [
      { value: "small", en: ["small", "little"], zh: ["小", "小号"] },
      { value: "medium", en: ["medium"], zh: ["中", "中号"] },
      { value: "large", en: ["large", "big"], zh: ["大", "大号"] },
    ],
  },
  { name: { en: "level", zh: "等级" }, kind: "integer", lo: 1, hi: 10 },
  {
    name: { en: "count", zh: "数量" },
    kind: "integer",
    lo: 1,
    hi: 50,
    units: [
      { en: "", zh: "个" },
      { en: " units", zh: "份" },
    ],
  },
  {
    name: { en: "amount", zh: "数额" },
    kind: "number",
    lo: 1,
    hi: 9999,
    units: [
      { en: " dollars", zh: "元" },
      { en: "", zh: "块" },
    ],
  },
  {
    name: { en: "temperature", zh: "温度" },
    kind: "number",
    lo: -20,
    hi: 250,
    units: [
      { en: " degrees", zh: "度" },
      { en: "°C", zh: "摄氏度" },
    ],
  },
  {
    name: { en: "duration", zh: "时长" },
    kind: "integer",
    lo: 1,
    hi: 120,
    units: [
      { en: " minutes", zh: "分钟" },
      { en: " seconds", zh: "秒" },
      { en: " min", zh: "分" },
    ],
  },
  {
    name: { en: "distance", zh: "距离" },
    kind: "number",
    lo: 1,
    hi: 5000,
    units: [
      { en: " meters", zh: "米" },
      { en: "m", zh: "m" },
      { en: " mm", zh: "毫米" },
    ],
  },
  {
    name: { en: "angle", zh: "角度" },
    kind: "number",
    lo: -180,
    hi: 180,
    units: [
      { en: " degrees", zh: "度" },
      { en: "°", zh: "°" },
    ],
  },
  {
    name: { en: "percent", zh: "百分比" },
    kind: "integer",
    lo: 0,
    hi: 100,
    units: [
      { en: "%", zh: "%" },
      { en: " percent", zh: "%" },
    ],
  },
  { name: { en: "x", zh: "x" }, kind: "number", lo: -500, hi: 500 },
  { name: { en: "y", zh: "y" }, kind: "number", lo: -500, hi: 500 },
  { name: { en: "floor", zh: "楼层" }, kind: "integer", lo: -2, hi: 60, units: [{ en: "", zh: "楼" }] },
  {
    name: { en: "weight", zh: "重量" },
    kind: "number",
    lo: 1,
    hi: 500,
    units: [
      { en: " kg", zh: "公斤" },
      { en: " kilograms", zh: "千克" },
    ],
  },
  {
    name: { en: "force", zh: "力" },
    kind: "number",
    lo: 1,
    hi: 200,
    units: [
      { en: " N", zh: "牛" },
      { en: " newtons", zh: "牛顿" },
    ],
  },
  { name: { en: "enabled", zh: "启用" }, kind: "boolean" },
  { name: { en: "loop", zh: "循环" }, kind: "boolean" },
  { name: { en: "urgent", zh: "加急" }, kind: "boolean" },
  {
    name: { en: "name", zh: "名字" },
    kind: "string",
    strings: {
      en: ["Alice", "Bob", "Kai", "Nova", "Rex", "Luna", "Orion", "Mia", "Zed", "Ivy"],
      zh: ["小明", "小红", "老王", "阿强", "丽丽", "大黄", "小白"],
    },
  },
  {
    name: { en: "target", zh: "目标" },
    kind: "string",
    strings: {
      en: ["Goblin", "Tower B", "Gate 3", "the red car", "Bravo", "Node-7", "Sector 9"],
      zh: ["哥布林", "B塔", "三号门", "红车", "七号节点"],
    },
  },
  {
    name: { en: "room", zh: "房间" },
    kind: "string",
    strings: {
      en: ["kitchen", "living room", "bedroom", "garage", "office", "bathroom"],
      zh: ["厨房", "客厅", "卧室", "车库", "书房", "卫生间"],
    },
  },
  {
    name: { en: "label", zh: "标签" },
    kind: "string",
    strings: {
      en: ["Groceries", "Work", "Backup 2", "Project X", "Taxes", "Holiday"],
      zh: ["购物", "工作", "备份2", "项目X", "报税", "假期"],
    },
  },
  {
    name: { en: "song", zh: "歌曲" },
    kind: "string",
    strings: {
      en: ["Yesterday", "Bohemian Rhapsody", "Blue Moon", "Hello", "Imagine"],
      zh: ["晴天", "稻香", "青花瓷", "月亮代表我的心"],
    },
  },
  {
    name: { en: "recipient", zh: "收件人" },
    kind: "string",
    strings: {
      en: ["Tom", "Sarah", "Dad", "Mr. Lee", "the team", "Jordan"],
      zh: ["张三", "李四", "爸爸", "李老师", "团队"],
    },
  },
  {
    name: { en: "text", zh: "内容" },
    kind: "string",
    strings: {
      en: ["I'm on my way", "see you at 5", "dinner is ready", "meeting moved to noon"],
      zh: ["我马上到", "五点见", "饭做好了", "会议改到中午"],
    },
  },
];
