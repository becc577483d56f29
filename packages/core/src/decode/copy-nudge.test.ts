import { describe, expect, test } from "bun:test";
import { freeTextConstraint } from "./constraints/free-text";
import { commandOf } from "./copy-bias";
import type { HeadStops, TextConstraint } from "./head-text";
import { decodeHeads } from "./multi-head";
import { choiceOf } from "./testing/choices";
import { HashRuntime, ListVocab } from "./testing/hash-runtime";
import { VocabIndex } from "./token-vocab";

const MARKERS = ["<function>", "</function>", "<arg1>", "</arg1>", "<|null|>", "<|im_end|>", "<|im_start|>"];
const vocab = new ListVocab([
  ...MARKERS,
  ..."abcdefghijklmnopqrstuvwxyz ()[]:\n",
  "flap",
  "wait",
  "up",
  "down",
]);
const stopsOf = (head: string): HeadStops => ({ value: [`</${head}>`, "<|im_end|>"], null: ["<|null|>"] });
const kinded = (kind: string, choices: string[]): TextConstraint => ({ ...choiceOf(choices), kind });

/** The heads' texts that `runtime` decodes for a prompt holding `turn` as its user turn. */
async function decodeTurn(
  words: ListVocab,
  runtime: HashRuntime,
  turn: string,
  settings: { copyBias: number; maxTokens: number },
  heads: { name: string; constraint: TextConstraint }[],
): Promise<string[]> {
  const promptIds = words.encode(`<|im_start|>user\n${turn}<|im_end|>`);
  const result = await decodeHeads({
    runtime,
    vocab: new VocabIndex(words),
    past: runtime.emptyKv(),
    pending: promptIds,
    promptIds,
    ...settings,
    heads: heads.map((h) => ({ ...h, tagIds: words.encode(`<${h.name}>`), stops: stopsOf(h.name) })),
  });
  return result.heads.map((h) => h.text.replace(/<\/\w+>$/, ""));
}

/** The `arg1` text a fake model decodes for `turn`, its logits raised by `bias` (token text -> logit). */
async function decodeArg(
  words: ListVocab,
  bias: Record<string, number>,
  turn: string,
  copyBias: number,
  constraint: TextConstraint,
): Promise<string> {
  const runtime = new HashRuntime(words.size);
  for (const [text, logit] of Object.entries(bias)) runtime.bias.set(words.id(text), logit);
  const [value] = await decodeTurn(words, runtime, turn, { copyBias, maxTokens: 1 }, [
    { name: "arg1", constraint },
  ]);
  return value!;
}

/** The function and direction a fake model picks for `turn`, which prefers `wait` and `down` by 1.5. */
async function decide(turn: string, copyBias: number): Promise<string[]> {
  const runtime = new HashRuntime(vocab.size);
  runtime.bias.set(vocab.id("wait"), 1.5);
  runtime.bias.set(vocab.id("down"), 1.5);
  return decodeTurn(vocab, runtime, turn, { copyBias, maxTokens: 4 }, [
    { name: "function", constraint: kinded("function", ["flap", "wait"]) },
    { name: "arg1", constraint: kinded("enum", ["up", "down"]) },
  ]);
}

describe("copy nudge of the function head and enum arguments", () => {
  test("a tool or value the command names wins over one the model prefers by less than the bias", async () => {
    expect(await decide("history: []\n\nhold", 3)).toEqual(["wait", "down"]);
    expect(await decide("history: []\n\nflap up", 3)).toEqual(["flap", "up"]);
    expect(await decide("history: []\n\nflap up", 0)).toEqual(["wait", "down"]);
  });

  test("names in the history or state above the command are not nudged", async () => {
    expect(await decide("history: [flap(up)]\n\nhold", 3)).toEqual(["wait", "down"]);
  });

  test("the command is the user turn's last paragraph", () => {
    expect(commandOf('environment: ["hp: 3"]\nhistory: [flap()]\n\nfire left')).toBe("fire left");
    expect(commandOf("Wave 3\nOperators: Amiya(center)\n\nAmiya, skill")).toBe("Amiya, skill");
    expect(commandOf("just the order")).toBe("just the order");
  });
});

describe("the function head's nudge towards tools the order names", () => {
  const tools = new ListVocab([
    ...MARKERS,
    ...'abcdefghijklmnopqrstuvwxyz ()[]:\n"',
    "send",
    "_gate",
    "_thermostat",
  ]);
  const names = ["send_gate", "send_thermostat"];

  /** The tool a fake model that prefers `_gate` by `lead` after `send` picks for `turn`. */
  async function tool(turn: string, copyBias: number, lead: number): Promise<string> {
    const runtime = new HashRuntime(tools.size);
    runtime.bias.set(tools.id("send"), 10);
    runtime.bias.set(tools.id("_gate"), 10 + lead);
    runtime.bias.set(tools.id("_thermostat"), 10);
    const constraint = { ...kinded("function", names), choices: names };
    const [name] = await decodeTurn(tools, runtime, turn, { copyBias, maxTokens: 3 }, [
      { name: "function", constraint },
    ]);
    return name!;
  }

  test("a name whose later part the order says wins at the fork by up to twice the bias", async () => {
    // `send` is said for both; `thermostat` only for one: the half of send_gate's parts said
    // leaves send_thermostat ahead by the bias (3 here)
    expect(await tool("state: ok\n\nsend the thermostat song imagine", 3, 2)).toBe("send_thermostat");
    expect(await tool("state: ok\n\nsend the thermostat song imagine", 3, 4)).toBe("send_gate");
    expect(await tool("state: ok\n\nsend the thermostat song imagine", 0, 2)).toBe("send_gate");
    // the environment line above the order does not count as said
    expect(await tool("thermostat: ok\nsend it", 3, 2)).toBe("send_gate");
  });
});

describe("an arg head's nudge towards the value the order gives its parameter by name", () => {
  const numbers = new ListVocab([...MARKERS, ..."abcdefghijklmnopqrstuvwxyz ()[]:\n", "116", "6878"]);

  const constraint = { ...kinded("number", ["116", "6878"]), parameters: ["x"] };
  const x = (turn: string, copyBias: number) =>
    decodeArg(numbers, { "6878": 12, "116": 10 }, turn, copyBias, constraint);

  test("the number said after the parameter's name wins over one the model prefers by less", async () => {
    expect(await x("state: ok\n\ngo with amount of 6878 and x 116", 3)).toBe("116");
    expect(await x("state: ok\n\ngo with amount of 6878 and x 116", 0)).toBe("6878");
    expect(await x("state: ok\n\ngo with amount of 6878 and 116", 3)).toBe("6878");
  });
});

describe("values the order gives another parameter, and values another head holds", () => {
  const numbers = new ListVocab([
    ...MARKERS,
    "<arg2>",
    "</arg2>",
    ..."abcdefghijklmnopqrstuvwxyz ()[]:=\n",
    "116",
    "5412",
    "send",
  ]);
  const x = (allowsNull: boolean): TextConstraint => ({
    ...kinded("number", ["116", "5412"]),
    allowsNull,
    parameters: ["x"],
    otherParameters: ["amount"],
  });
  const amount: TextConstraint = {
    ...kinded("number", ["116", "5412"]),
    parameters: ["amount"],
    otherParameters: ["x"],
  };

  /** x's value for `turn` from a fake model that prefers 5412 to 116 by 2 (and to `<|null|>` by `overNull`). */
  const xOf = (turn: string, copyBias: number, allowsNull = false, overNull = 20) =>
    decodeArg(numbers, { "5412": 12, "116": 10, "<|null|>": 12 - overNull }, turn, copyBias, x(allowsNull));

  test("an arg head leans away from the number the order gives another parameter by name", async () => {
    expect(await xOf("send amount=5412", 3)).toBe("116");
    expect(await xOf("send amount=5412", 0)).toBe("5412");
    // said for x as well: x keeps it
    expect(await xOf("send amount=5412 and x 5412", 3)).toBe("5412");
  });

  test("an optional parameter the order leaves unnamed, while it names others, leans to <|null|>", async () => {
    // the model: 5412 12, 116 10, <|null|> 9; nudged: 6, 10, 12
    expect(await xOf("send amount=5412", 3, true, 3)).toBe(""); // <|null|>: no value
    expect(await xOf("send amount=5412", 0, true, 3)).toBe("5412");
    // x named: no lean to null, only away from amount's value
    expect(await xOf("send amount=5412 with x", 3, true, 3)).toBe("116");
  });

  test("of two heads with one value, the one whose parameter the order names keeps it", async () => {
    const runtime = new HashRuntime(numbers.size);
    runtime.bias.set(numbers.id("5412"), 30);
    runtime.bias.set(numbers.id("send"), 30);
    const decode = (copyBias: number) =>
      decodeTurn(numbers, runtime, "send with amount of 5412", { copyBias, maxTokens: 1 }, [
        { name: "function", constraint: kinded("function", ["send"]) },
        { name: "arg1", constraint: x(true) },
        { name: "arg2", constraint: amount },
      ]);
    // the nudges alone cannot overturn a lead of 30; the claim rule gives x's copy up
    expect(await decode(3)).toEqual(["send", "", "5412"]); // x: <|null|>
    expect(await decode(0)).toEqual(["send", "5412", "5412"]);
  });
});

describe("a time or date the order says, in the form the parameter asks for", () => {
  const clock = new ListVocab([
    ...MARKERS,
    ..."abcdefghijklmnopqrstuvwxyz0123456789 ()[]:\n",
    "11:00",
    "23:00",
  ]);

  const constraint: TextConstraint = {
    ...freeTextConstraint(false),
    parameters: ["time"],
    format: { kind: "time", dayWords: false },
  };
  const time = (turn: string, copyBias: number) =>
    decodeArg(clock, { "11:00": 12, "23:00": 10 }, turn, copyBias, constraint);

  test("'11 pm' leans an HH:MM parameter to 23:00", async () => {
    expect(await time("set an alarm for 11 pm", 3)).toBe("23:00");
    expect(await time("set an alarm for 11 pm", 0)).toBe("11:00");
    expect(await time("set an alarm for 11 am", 3)).toBe("11:00");
  });
});

describe("copy nudge of free-text arguments", () => {
  const names = new ListVocab([...MARKERS, ..."abcdefghijklmnopqrstuvwxyz ()[]:\n", "Anri", "Siege", "Ines"]);

  /** The unit a fake model that prefers Anri by `lead` names for `turn`. */
  const unit = (turn: string, copyBias: number, lead = 1) =>
    decodeArg(names, { Anri: 10 + lead, Siege: 10, Ines: 10 }, turn, copyBias, freeTextConstraint(false));

  test("the command's words weigh half as much again as the rest of the turn's", async () => {
    // both names are in the roster (+3 each); the order names Siege (+1.5 more)
    expect(await unit("roster: Anri Siege\n\nSiege retreat", 3)).toBe("Siege");
    expect(await unit("roster: Anri Siege\n\nSiege retreat", 0)).toBe("Anri");
    // a name the model prefers by more than the extra half stays
    expect(await unit("roster: Anri Siege\n\nSiege retreat", 3, 2)).toBe("Anri");
    // a roster name alone gets the turn's bias: it wins over names the turn does not hold
    expect(await unit("roster: Anri\n\nretreat", 3, -2)).toBe("Anri");
    expect(await unit("roster: Anri\n\nretreat", 0, -2)).not.toBe("Anri");
  });

  test("a copy the request follows with punctuation leans to its end marker", async () => {
    const han = new ListVocab([
      ...MARKERS,
      ..."abcdefghijklmnopqrstuvwxyz ()[]:\n",
      "欧丝",
      "冬",
      "森",
      "天",
    ]);
    async function value(turn: string, copyBias: number): Promise<string> {
      const runtime = new HashRuntime(han.size);
      // the model: 欧丝 first, then 森 (12) over the end marker (10) and the command's 冬 (5)
      runtime.script.set(han.id("<arg1>"), [han.id("欧丝")]);
      runtime.bias.set(han.id("森"), 12);
      runtime.bias.set(han.id("</arg1>"), 10);
      runtime.bias.set(han.id("冬"), 5);
      const [text] = await decodeTurn(han, runtime, turn, { copyBias, maxTokens: 2 }, [
        { name: "arg1", constraint: freeTextConstraint(false) },
      ]);
      return text!;
    }
    expect(await value("roster: 欧丝(north)\n\n欧丝冬天", 3)).toBe("欧丝");
    expect(await value("roster: 欧丝(north)\n\n欧丝冬天", 0)).toBe("欧丝森");
    // nowhere followed by punctuation: no lean to the end
    expect(await value("roster: 欧丝 north\n\n欧丝冬天", 3)).toBe("欧丝森");
  });

  test("a misspelt name in the order counts as the name the turn spells above it", async () => {
    // `siegx` is read as `Siege`, which then gets the command's extra half
    expect(await unit("roster: Anri Siege\n\nsiegx retreat", 3)).toBe("Siege");
    expect(await unit("roster: Anri Ines\n\nsiegx retreat", 3)).toBe("Anri");
  });
});
