import { NOUNS, PARAM_IDEAS, type ParamIdea, VERBS, type Word } from "./lexicon";
import type { Phrasing } from "./phrasing";
import type { Prng } from "./prng";
import type { Draw } from "./scenarios/draw";
import type { ArgValue, ParamSchema, ToolSpec } from "./types";

/** A synthetic tool with the words a user would say for it and its parameters. */
export interface SyntheticTool {
  spec: ToolSpec;
  verb: Word;
  noun: Word;
  /** Parameter name in the schema -> the idea it stands for. */
  params: { key: string; idea: ParamIdea; required: boolean; enumValues?: string[]; coinedEnum?: boolean }[];
  idle: boolean;
}

const SYLL = ["zo", "rp", "fl", "ux", "ka", "vi", "tr", "on", "qu", "ex", "mi", "ra", "bo", "lt", "ne", "xi"];
const IDLE_NAMES = ["pass", "noop", "do_nothing", "wait", "skip", "idle"];

function coined(r: Prng): string {
  let s = "";
  for (let i = r.int(2, 3); i > 0; i--) s += r.pick(SYLL);
  return s;
}

function snake(words: string): string {
  return words.toLowerCase().replace(/[^a-z0-9]+/g, "_");
}

/** Builds a random tool set: random names (sometimes coined), parameter names, types, enums, order. */
export function makeToolSet(r: Prng): SyntheticTool[] {
  const count = r.pick([1, 2, 2, 3, 3, 4, 4, 5, 6]);
  const nouns = r.sample(NOUNS, count);
  const taken = new Set<string>();
  const tools: SyntheticTool[] = nouns.map((noun) => makeTool(r, r.pick(VERBS), noun, taken));
  if (r.chance(0.25)) {
    const name = r.pick(IDLE_NAMES);
    tools.push({
      spec: {
        type: "function",
        function: {
          name,
          description: r.pick([
            "Do nothing this turn.",
            "Skip: the request is done already or unclear.",
            "No action.",
          ]),
          parameters: { type: "object", properties: {}, required: [] },
        },
      },
      verb: { en: "wait", zh: "等待" },
      noun: { en: "", zh: "" },
      params: [],
      idle: true,
    });
  }
  return r.shuffle(tools);
}

/** `taken`: names already in the set; a coined name can repeat one, and a set must not. */
function makeTool(r: Prng, verb: Word, noun: Word, taken: Set<string>): SyntheticTool {
  const nameStyle = r.int(0, 9);
  let name =
    nameStyle < 6
      ? `${verb.en}_${noun.en}`
      : nameStyle < 8
        ? `${noun.en}_${verb.en}`
        : nameStyle < 9
          ? `${verb.en}${noun.en[0]!.toUpperCase()}${noun.en.slice(1)}`
          : coined(r);
  // Re-drawn only on a clash, so sets without one are drawn exactly as before.
  while (taken.has(name)) name = coined(r);
  taken.add(name);
  const nParams = r.pick([0, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6]);
  const ideas = r.sample(PARAM_IDEAS, nParams);
  const properties: Record<string, ParamSchema> = {};
  const params: SyntheticTool["params"] = [];
  for (const idea of ideas) {
    const key = r.chance(0.85)
      ? snake(idea.name.en)
      : r.chance(0.5)
        ? `${snake(idea.name.en)}_${r.pick(["value", "id", "setting", "v"])}`
        : `p${r.int(1, 9)}`;
    if (key in properties) continue;
    const required = r.chance(0.55);
    const schema: ParamSchema = {
      type: idea.kind === "enum" ? "string" : idea.kind,
      description: paramDescription(r, idea, noun),
    };
    let enumValues: string[] | undefined;
    if (idea.kind === "enum") {
      const opts = r.sample(idea.values!, r.int(2, idea.values!.length));
      enumValues = opts.map((o) => o.value);
      if (r.chance(0.3))
        enumValues = enumValues.map((v) => (r.chance(0.5) ? v.toUpperCase() : `${v}_${idea.name.en}`));
      // Made-up enum values the query says verbatim: copied from the schema, not remembered.
      if (r.chance(0.15))
        enumValues = r.sample(
          [
            "alpha",
            "beta",
            "gamma",
            "delta",
            "omega",
            "mode_a",
            "mode_b",
            "tier1",
            "tier2",
            "zx",
            "kilo",
            "nova",
          ],
          r.int(2, 4),
        );
      schema.enum = enumValues;
      if (r.chance(0.5)) schema.description = `${schema.description} One of ${enumValues.join(", ")}.`;
    }
    properties[key] = schema;
    const coinedEnum =
      enumValues !== undefined &&
      !idea.values!.some((v) => enumValues![0]!.toLowerCase().startsWith(v.value));
    params.push({ key, idea, required, enumValues, coinedEnum });
  }
  const description = r.pick([
    `${cap(verb.en)} the ${noun.en}.`,
    `${cap(verb.en)} a ${noun.en}${params.length ? ` with the given ${params[0]!.idea.name.en}` : ""}.`,
    `Use this to ${verb.en} the ${noun.en}.`,
    `${cap(verb.en)}s the selected ${noun.en}.`,
  ]);
  return {
    spec: toolSpecVariant(
      r,
      name,
      description,
      properties,
      params.filter((p) => p.required).map((p) => p.key),
    ),
    verb,
    noun,
    params,
    idle: false,
  };
}

/**
 * The tool JSON in one of the shapes clients send: `required` first or last or absent when
 * empty, `additionalProperties: false`, `strict`. The prompt writes the known keys in one order
 * (so `required` first renders as last) and everything else as it gets it, so the model must not
 * depend on one shape.
 */
function toolSpecVariant(
  r: Prng,
  name: string,
  description: string,
  properties: Record<string, ParamSchema>,
  required: string[],
): ToolSpec {
  const shape = r.int(0, 9);
  let parameters: Record<string, unknown>;
  if (shape === 0) parameters = { type: "object", required, properties };
  else if (shape === 1 && required.length === 0) parameters = { type: "object", properties };
  else if (shape === 2) parameters = { type: "object", properties, required, additionalProperties: false };
  else parameters = { type: "object", properties, required };
  const fn: Record<string, unknown> = r.chance(0.08)
    ? { name, parameters }
    : { name, description, parameters };
  if (r.chance(0.05)) fn.strict = true;
  return { type: "function", function: fn } as unknown as ToolSpec;
}

function paramDescription(r: Prng, idea: ParamIdea, noun: Word): string {
  const unit = idea.units?.[0]?.en.trim();
  const base = r.pick([
    `${cap(idea.name.en)} of the ${noun.en}`,
    `The ${idea.name.en}`,
    `${cap(idea.name.en)} to use`,
  ]);
  if ((idea.kind === "number" || idea.kind === "integer") && idea.lo !== undefined) {
    return `${base}${unit ? ` in ${unit}` : ""}, ${idea.lo}..${idea.hi}.`;
  }
  return `${base}.`;
}

function cap(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1);
}

/** The tool specs of a synthetic set, in prompt order. */
export function syntheticSpecs(tools: SyntheticTool[]): ToolSpec[] {
  return tools.map((t) => t.spec);
}

/** A v2 system prompt for a synthetic set (empty: the default system). */
export function syntheticSystem(r: Prng): string {
  return r.pick([
    "",
    "",
    "You turn user commands into exactly one tool call.",
    "You control a device. Answer with one function call.",
    "你把用户指令转换成一个函数调用。",
    "Real-time game agent: one call per command.",
  ]);
}

/** Draws one request on a synthetic tool set. */
export function drawSynthetic(ph: Phrasing, tools: SyntheticTool[]): Draw {
  const r = ph.rng;
  const tool = r.pick(tools);
  const en = ph.lang === "en";
  const args: Record<string, ArgValue> = {};
  const phrases: string[] = [];
  const exact: Record<string, string> = {};
  const numericCount = tool.params.filter(
    (p) => p.idea.kind === "number" || p.idea.kind === "integer",
  ).length;
  const stateLines: string[] = [];
  for (const p of tool.params) {
    if (!p.required && !r.chance(0.5)) continue;
    const slot = `v${phrases.length}`;
    const said = sayParam(ph, p, numericCount === 1, slot);
    args[p.key] = said.value;
    if (said.exact !== undefined && p.idea.kind !== "boolean" && r.chance(0.15)) {
      // The value lives in the environment; the query only points at it.
      const pname = en ? p.idea.name.en : p.idea.name.zh;
      const label = r.pick(["current", "selected", "saved"]);
      stateLines.push(`${label}_${p.key}=${said.exact}`);
      phrases.push(
        en
          ? r.pick([`the ${label} ${pname}`, `using the ${label} ${pname}`])
          : r.pick([
              `用${label === "saved" ? "保存的" : "当前的"}${pname}`,
              `${pname}用${label === "saved" ? "保存的" : "当前"}值`,
            ]),
      );
      continue;
    }
    phrases.push(said.phrase);
    if (said.exact !== undefined) exact[slot] = said.exact;
  }
  let query: string;
  if (tool.idle) {
    query = ph.say(
      en
        ? ph.choose([
            "never mind",
            "wait",
            "do nothing",
            "hold on",
            "skip this one",
            "nothing for now",
            "uh, forget it",
            "hmm",
          ])
        : ph.choose(["算了", "等一下", "什么都别做", "先不用", "跳过", "没事"]),
    );
  } else {
    const object = en ? tool.noun.en : tool.noun.zh;
    const verbWord = en ? tool.verb.en : tool.verb.zh;
    const useName = r.chance(0.12);
    const head = useName
      ? en
        ? r.pick([
            `call ${tool.spec.function.name}`,
            `run ${tool.spec.function.name}`,
            `use ${tool.spec.function.name}`,
          ])
        : r.pick([`调用${tool.spec.function.name}`, `执行${tool.spec.function.name}`])
      : en
        ? ph.choose([
            "{vb} the {ob}",
            "{vb} {ob}",
            "I want to {vb} the {ob}",
            "{ob}: {vb}",
            "{vb} my {ob}",
            "let's {vb} the {ob}",
            "could you {vb} the {ob}",
            "time to {vb} the {ob}",
          ])
        : ph.choose([
            "{vb}{ob}",
            "把{ob}{vb}",
            "我要{vb}{ob}",
            "{ob}，{vb}",
            "帮我{vb}一下{ob}",
            "给{ob}{vb}",
            "{vb}那个{ob}",
          ]);
    const ordered = r.shuffle(phrases);
    const joiner = en ? r.pick([", ", " ", " and ", ", "]) : r.pick(["，", "，", "、", " "]);
    const body = ordered.length
      ? en
        ? `${head} ${ordered.join(joiner)}`
        : `${head}，${ordered.join(joiner)}`
      : head;
    query = ph.say(body, { vb: verbWord, ob: object }, exact, 0.5);
  }
  const environment = [...stateLines, ...(r.chance(0.3) ? distractorEnvironment(r) : [])];
  const history = r.chance(0.2) ? [`${r.pick(tools).spec.function.name}()`] : [];
  return {
    query,
    environment: environment.length > 0 ? r.shuffle(environment) : undefined,
    history,
    call: { function: tool.spec.function.name, args },
  };
}

function distractorEnvironment(r: Prng): string[] {
  return r.sample(
    [
      `battery=${r.int(1, 100)}%`,
      `time=${String(r.int(0, 23)).padStart(2, "0")}:${String(r.int(0, 59)).padStart(2, "0")}`,
      `players=${r.int(1, 8)}`,
      `hp=${r.int(1, 100)}`,
      `temp=${r.int(-5, 35)}C`,
      `queue=${r.int(0, 20)}`,
      `mode=idle`,
      `score=${r.int(0, 9999)}`,
    ],
    r.int(1, 3),
  );
}

function sayParam(
  ph: Phrasing,
  p: SyntheticTool["params"][number],
  onlyNumber: boolean,
  slot: string,
): { value: ArgValue; phrase: string; exact?: string } {
  const r = ph.rng;
  const en = ph.lang === "en";
  const pname = en ? p.idea.name.en : p.idea.name.zh;
  const idea = p.idea;
  if (idea.kind === "enum") {
    const i = r.int(0, p.enumValues!.length - 1);
    const value = p.enumValues![i]!;
    const base = idea.values!.find((v) => value.toLowerCase().startsWith(v.value));
    const word = p.coinedEnum || !base || r.chance(0.2) ? value : r.pick(en ? base.en : base.zh);
    const phrase = en
      ? r.pick([
          word,
          `${pname} ${word}`,
          `in ${word} ${pname}`,
          `with ${word} ${pname}`,
          `${pname}: ${word}`,
        ])
      : r.pick([word, `${pname}${word}`, `${pname}设为${word}`, `${pname}用${word}`]);
    return { value, phrase };
  }
  if (idea.kind === "boolean") {
    const value = r.chance(0.5);
    const phrase = en
      ? value
        ? r.pick([
            `with ${pname} on`,
            `${pname} enabled`,
            `enable ${pname}`,
            `${pname}: yes`,
            `${pname} true`,
          ])
        : r.pick([`with ${pname} off`, `no ${pname}`, `disable ${pname}`, `${pname}: no`, `${pname} false`])
      : value
        ? r.pick([`开启${pname}`, `${pname}打开`, `要${pname}`, `${pname}：是`])
        : r.pick([`关闭${pname}`, `不要${pname}`, `${pname}关掉`, `${pname}：否`]);
    return { value, phrase };
  }
  if (idea.kind === "string") {
    const value = r.pick(en ? idea.strings!.en : idea.strings!.zh);
    const phrase = en
      ? r.pick([
          `${pname} {${slot}}`,
          `${pname} "{${slot}}"`,
          `${pname}: {${slot}}`,
          `for {${slot}}`,
          `${pname} set to {${slot}}`,
        ])
      : r.pick([`${pname}是{${slot}}`, `${pname}“{${slot}}”`, `${pname}：{${slot}}`, `${pname}为{${slot}}`]);
    return { value, phrase, exact: value };
  }
  let value: number;
  const lo = idea.lo ?? 0;
  const hi = idea.hi ?? 100;
  if (idea.kind === "integer") value = r.int(lo, hi);
  else value = r.chance(0.25) ? Math.round((lo + r.next() * (hi - lo)) * 10) / 10 : r.int(lo, hi);
  const unit = idea.units ? r.pick(idea.units) : undefined;
  const u = unit ? (en ? unit.en : unit.zh) : "";
  const v = `{${slot}}`;
  const phrase = en
    ? r.pick([
        `${pname} ${v}${u}`,
        `${pname}=${v}`,
        `with ${pname} of ${v}${u}`,
        `${pname} ${v}`,
        ...(onlyNumber ? [`to ${v}${u}`, `at ${v}${u}`, `${v}${u}`] : []),
      ])
    : r.pick([
        `${pname}${v}${u}`,
        `${pname}设为${v}${u}`,
        `${pname}为${v}`,
        `${pname}=${v}`,
        ...(onlyNumber ? [`${v}${u}`, `到${v}${u}`] : []),
      ]);
  return { value, phrase, exact: String(value) };
}
