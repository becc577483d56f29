/**
 * Tests of the rt-tiny data generator, tokenizer trainer, export and hand-written eval set. No
 * workspace package holds them; `bun run test` runs this folder too (scripts/test.ts).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RtoolTokenizer } from "../../packages/core/src/tokenizer/index";
import { exportGroup, IdCache } from "./data/export";
import { exampleGroups, generateGroups, SCENARIO_DRAWERS } from "./data/generate";
import { Phrasing } from "./data/phrasing";
import { Prng } from "./data/prng";
import { prefixText, promptText, targetHeads } from "./data/prompt-text";
import { defaultScenarioDir, loadScenarios } from "./data/scenario-files";
import { makeToolSet } from "./data/synthetic";
import { trainBpe, WordCounter } from "./tokenizer/bpe-trainer";
import { preTokenize } from "./tokenizer/pretokenize";
import { SPECIAL_TOKENS } from "./tokenizer/special-tokens";
import { tokenizerJson } from "./tokenizer/tokenizer-json";
import { loadTokenizer } from "./tokenizer/tokenizers-lib";

const scenarios = loadScenarios(defaultScenarioDir());
const small = { seed: 7, itemsPerScenario: 60, syntheticItems: 200, minGroup: 4, maxGroup: 8 };
const train = generateGroups(scenarios, { split: "train", ...small });

const words = new WordCounter();
for (const g of train) {
  words.add(prefixText(g.format, g.tools, g.system));
  for (const ex of g.items) words.add(promptText(g.format, ex).rest);
}
const bpe = trainBpe(words.counts, 1500);
const tokenizer = loadTokenizer(JSON.stringify(tokenizerJson(bpe)));
const ids = new IdCache(tokenizer);

describe("scenarios", () => {
  test("every scenario file in the folder is read", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(7);
    for (const s of scenarios) expect(s.tools.length).toBeGreaterThan(0);
  });

  test("every scenario, language and format is generated", () => {
    const cells = new Set(train.flatMap((g) => g.items.map((ex) => `${ex.scenario}/${ex.lang}/${g.format}`)));
    for (const s of [...scenarios.map((s) => s.id), "synthetic"]) {
      for (const cell of ["en/v1", "en/v2", "zh/v1", "zh/v2"]) expect(cells.has(`${s}/${cell}`)).toBe(true);
    }
  });

  test("the reference examples are never generated as training queries", () => {
    const refs = new Set(scenarios.flatMap((s) => s.examples.map((e) => e.query.toLowerCase())));
    for (const g of train) for (const ex of g.items) expect(refs.has(ex.query.toLowerCase())).toBe(false);
  });

  test.each(["fresh-phrasings", "fresh-phrasings-2", "fresh-phrasings-3"])(
    "the hand-written %s name real tools, parameters and enum values, and are never generated",
    (folder) => {
      const dir = join(import.meta.dir, folder);
      const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
      expect(files.length).toBe(scenarios.length);
      const request = (ex: { query: string; environment?: string[] }) =>
        `${ex.query.toLowerCase()}\n${(ex.environment ?? []).join("\n")}`;
      const generated = new Set(train.flatMap((g) => g.items.map(request)));
      for (const file of files) {
        const scenario = scenarios.find((s) => s.id === file.replace(/\.json$/, ""));
        expect(scenario).toBeDefined();
        const { examples } = JSON.parse(readFileSync(join(dir, file), "utf8"));
        expect(examples.length).toBeGreaterThanOrEqual(8);
        for (const ex of examples) {
          expect(generated.has(request(ex))).toBe(false);
          const tool = scenario!.tools.find((t) => t.function.name === ex.expected.function);
          expect(tool).toBeDefined();
          for (const [key, value] of Object.entries(ex.expected.args)) {
            const schema = tool!.function.parameters.properties[key];
            expect(schema).toBeDefined();
            if (schema!.enum) expect(schema!.enum).toContain(value as string);
          }
        }
      }
    },
  );

  test("the same seed gives the same corpus", () => {
    const again = generateGroups(scenarios, { split: "train", ...small });
    expect(JSON.stringify(again)).toBe(JSON.stringify(train));
  });

  test("held-out draws reserved phrasings", () => {
    const templates = ["a", "b", "c", "held"];
    const trainPicks = new Set(
      Array.from({ length: 200 }, (_, i) => new Phrasing(new Prng(i), "en", "train").choose(templates)),
    );
    expect(trainPicks.has("held")).toBe(false);
    const heldPicks = new Set(
      Array.from({ length: 200 }, (_, i) => new Phrasing(new Prng(i), "en", "heldout").choose(templates)),
    );
    expect(heldPicks.has("held")).toBe(true);
  });

  test("a synthetic tool set never repeats a tool name (coined names can clash)", () => {
    // seed 11 draws its first clash at set ~4,700 without the re-draw
    const r = new Prng(11);
    const clashes: string[][] = [];
    for (let i = 0; i < 8000; i++) {
      const names = makeToolSet(r).map((t) => t.spec.function.name);
      if (new Set(names).size !== names.length) clashes.push(names);
    }
    expect(clashes).toEqual([]);
  }, 30_000);

  test("robot arm targets copy coordinates and map speed words", () => {
    const r = new Prng(3);
    for (let i = 0; i < 200; i++) {
      const d = SCENARIO_DRAWERS.robotic_arm!(new Phrasing(r, "en", "train"));
      if (d.call.function !== "move_to") continue;
      const text = `${d.query} ${(d.environment ?? []).join(" ")}`;
      for (const k of ["x", "y", "z"]) expect(text).toContain(String(d.call.args[k]));
    }
  });
});

test("the avatar's and Flappy's items carry earlier calls in history, as their clients send them", () => {
  const r = new Prng(5);
  for (const [scenario, form] of [
    [
      "digital_human",
      /^(speak\(.+,(cheerful|calm|serious|excited)\)|gesture\(\w+\)|look_at\(\w+\)|set_expression\(\w+,[\d.]+\)|idle\(\))$/,
    ],
    ["flappy_bird", /^(flap|wait)\(\)$/],
  ] as const) {
    const histories = Array.from(
      { length: 300 },
      () => SCENARIO_DRAWERS[scenario]!(new Phrasing(r, "en", "train")).history,
    );
    const filled = histories.filter((h) => h.length > 0);
    // some first frames (no history), mostly a client's running history
    expect(filled.length).toBeGreaterThan(120);
    expect(filled.length).toBeLessThan(280);
    for (const entry of filled.flat()) expect(entry).toMatch(form);
  }
});

describe("tokenizer", () => {
  test("loads in tokenizers and round-trips English and Chinese exactly", async () => {
    for (const text of [
      "Go to the red gear slowly, x=-300.5!",
      "叫我每天早上7点起床，谢谢。",
      "mixed 中英 text\n\n  tabs\tand 🚀 émoji",
    ]) {
      const enc = await tokenizer.encode(text, null, { addSpecialTokens: false });
      expect(await tokenizer.decode(enc.getIds(), false)).toBe(text);
    }
  });

  test("special tokens are single ids after the BPE vocabulary", async () => {
    for (const [i, t] of SPECIAL_TOKENS.entries()) {
      expect(tokenizer.tokenToId(t)).toBe(bpe.vocab.length + i);
      const enc = await tokenizer.encode(`a${t}b`, null, { addSpecialTokens: false });
      expect(enc.getTokens()).toContain(t);
    }
  });

  test("numbers split into single digits", async () => {
    const enc = await tokenizer.encode("move to 300, -150", null, { addSpecialTokens: false });
    const digits = enc.getTokens().filter((t) => /\d/.test(t));
    expect(digits).toEqual(["3", "0", "0", "1", "5", "0"]);
    expect(preTokenize("12345")).toEqual(["1", "2", "3", "4", "5"]);
  });

  test("@rtool/core's own tokenizer reads the file and gives the same ids", async () => {
    const core = new RtoolTokenizer(tokenizerJson(bpe), "tokenizer.json");
    for (const g of train.slice(0, 8)) {
      for (const ex of g.items.slice(0, 4)) {
        const p = promptText(g.format, ex);
        const text = p.prefix + p.rest;
        const enc = await tokenizer.encode(text, null, { addSpecialTokens: false });
        expect(core.encode(text)).toEqual(enc.getIds());
      }
    }
  });

  test("vocabulary stays within budget", () => {
    expect(bpe.vocab.length).toBeLessThanOrEqual(1500);
    expect(new Set(bpe.vocab).size).toBe(bpe.vocab.length);
  });
});

describe("committed rt-tiny tokenizer", () => {
  const file = new URL("./tokenizer/rt-tiny-2-tokenizer.json", import.meta.url);
  const text = readFileSync(file, "utf8");
  const committed = loadTokenizer(text);

  test("has 8192 ids, the special tokens last, and round-trips", async () => {
    expect(committed.getVocabSize(true)).toBe(8192);
    for (const [i, t] of SPECIAL_TOKENS.entries())
      expect(committed.tokenToId(t)).toBe(8192 - SPECIAL_TOKENS.length + i);
    for (const s of [
      "Arm at home (0,0,500), gripper open\n\nGo to the red gear slowly",
      "叫我每天早上7点起床",
      "Ünïcödé ✓ 🚀",
    ]) {
      const enc = await committed.encode(s, null, { addSpecialTokens: false });
      expect(await committed.decode(enc.getIds(), false)).toBe(s);
      expect(new RtoolTokenizer(JSON.parse(text), "rt-tiny-2-tokenizer.json").encode(s)).toEqual(
        enc.getIds(),
      );
    }
  });
});

describe("rt-tiny 2 tokenizer: a value is the same ids wherever it appears", () => {
  const text = readFileSync(new URL("./tokenizer/rt-tiny-2-tokenizer.json", import.meta.url), "utf8");
  const core = new RtoolTokenizer(JSON.parse(text), "rt-tiny-2-tokenizer.json");
  const contains = (hay: number[], needle: number[]) =>
    hay.some((_, i) => needle.every((id, j) => hay[i + j] === id));

  test.each([
    ["Texas", "Texas go north"],
    ["Texas", "Operators: Blaze(L1) Texas(R2)"],
    ["阿米娅", "让阿米娅使用技能"],
    ["星瑶", "干员：星瑶(左路,HP41%)"],
    ["zorvek bracket", "Part: zorvek bracket at (300,150,50)"],
    ["150", "move to x 300 y 150"],
  ])("%s inside %s", (value, sentence) => {
    expect(contains(core.encode(sentence), core.encode(value))).toBe(true);
  });

  test("each CJK character is one piece, spaces never glued to a word", () => {
    expect(preTokenize("让阿米娅 go north")).toEqual(["让", "阿", "米", "娅", " ", "go", " ", "north"]);
  });
});

describe("export", () => {
  test("prefix + rest tokenises exactly as the whole prompt", async () => {
    for (const g of train.slice(0, 12)) {
      const d = await exportGroup(g, ids, 1);
      expect(d.items.length).toBe(g.items.length);
    }
  });

  test("heads are tag, value, stop with <|null|> for unused slots", async () => {
    const g = exampleGroups(scenarios).find((x) => x.scenario === "robotic_arm")!;
    const heads = targetHeads(g.tools, { function: "grip", args: { force: 50 } });
    expect(heads.map((h) => `${h.tag}${h.value ?? ""}${h.stop}`)).toEqual([
      "<function>grip</function>",
      "<arg1>50</arg1>",
      "<arg2><|null|>",
      "<arg3><|null|>",
      "<arg4><|null|>",
    ]);
    const d = await exportGroup(g, ids, 1, true);
    const item = d.items[0]!;
    expect(item.target_from.every((t) => t === 1)).toBe(true);
    expect(item.heads[0]![0]).toBe(tokenizer.tokenToId("<function>")!);
    expect(item.heads[0]!.at(-1)).toBe(tokenizer.tokenToId("</function>")!);
    expect(item.meta.heads[0]).toBe("function");
  });
});
