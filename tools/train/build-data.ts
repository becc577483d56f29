/**
 * `bun run data:tiny`: generates the rt-tiny corpus, trains its byte-level BPE tokenizer and
 * writes the pre-tokenised datasets for the Python trainer, all from one seed.
 *
 *   bun tools/train/build-data.ts [--scenarios DIR] [--out DIR] [--seed N] [--train-seed N]
 *                                 [--earlier-train-seeds N,M] [--scale F]
 *                                 [--tokenizer FILE | --train-tokenizer [--vocab N]]
 *
 * `--train-seed` (default: `--seed`) draws a fresh training corpus while the held-out split
 * stays the one `--seed` gives, so a later training phase sees new examples and its accuracy is
 * still measured on the same requests (less any the new corpus happens to contain).
 * `--earlier-train-seeds` (default: 1-5, every corpus a committed model trained on: rt-tiny's
 * phases and its fine-tune, rt-tiny 2's phases; less `--train-seed`) names corpora that the weights already carry: held-out items they contain
 * are dropped too (regenerated from their seeds, not read), so every build of the split measures the
 * shipped model on requests it never trained on. Pass an empty value to drop only this corpus's.
 *
 * The tokenizer is the committed `tokenizer/rt-tiny-2-tokenizer.json` (trained by this script
 * with `--train-tokenizer --seed 1` on the v4 corpus), so token ids stay stable while the
 * data evolves; `--train-tokenizer` trains a fresh one on the generated corpus instead.
 *
 * Output (in `tools/train/out/` unless `--out`): tokenizer.json, tokenizer_config.json,
 * train.jsonl, heldout.jsonl, examples.jsonl (one prefix-sharing group per line), sample.txt,
 * stats.json, and READY last, once every other file is complete.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { refuseUnknownOptions } from "./cli-options";
import { type DatasetGroup, exportGroup, IdCache } from "./data/export";
import { type ExampleGroup, exampleGroups, generateGroups } from "./data/generate";
import { prefixText, promptText, targetHeads } from "./data/prompt-text";
import { defaultScenarioDir, loadScenarios } from "./data/scenario-files";
import { datasetStats, formatStats } from "./data/stats";
import { trainBpe, WordCounter } from "./tokenizer/bpe-trainer";
import { SPECIAL_TOKENS } from "./tokenizer/special-tokens";
import { tokenizerConfigJson, tokenizerJson } from "./tokenizer/tokenizer-json";
import { loadTokenizer } from "./tokenizer/tokenizers-lib";

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

refuseUnknownOptions([
  "scenarios",
  "out",
  "seed",
  "train-seed",
  "earlier-train-seeds",
  "scale",
  "vocab",
  "tokenizer",
  "train-tokenizer",
]);

/** Like `option`, but a flag given with an empty value ("") means empty, not the fallback. */
function optionOrEmpty(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

const started = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${msg}`);
const scenarioDir = option("scenarios", defaultScenarioDir());
const outDir = option("out", join(import.meta.dir, "out"));
const seed = Number(option("seed", "1"));
const trainSeed = Number(option("train-seed", String(seed)));
/**
 * The train seeds of the corpora committed models trained on: 1-3 rt-tiny's phases 5-7, 4 rt-tiny
 * 2's phase 4, 5 rt-tiny's fine-tune on the current generator (phases.md, phases-rt-tiny-2.md).
 * A phase on a new seed adds it here, so the held-out split never holds a request it trained on.
 */
const SHIPPED_TRAIN_SEEDS = [1, 2, 3, 4, 5];
const earlierTrainSeedsText = optionOrEmpty(
  "earlier-train-seeds",
  SHIPPED_TRAIN_SEEDS.filter((s) => s !== trainSeed).join(","),
);
const earlierTrainSeeds = earlierTrainSeedsText
  .split(",")
  .filter((v) => v.trim() !== "")
  .map(Number);
if (earlierTrainSeeds.some((v) => !Number.isInteger(v))) {
  throw new Error(`--earlier-train-seeds takes integers separated by commas, got "${earlierTrainSeedsText}"`);
}
const scale = Number(option("scale", "1"));
const vocabTotal = Number(option("vocab", "8192"));
const COMMITTED_TOKENIZER = join(import.meta.dir, "tokenizer", "rt-tiny-2-tokenizer.json");

const scenarios = loadScenarios(scenarioDir);
log(`${scenarios.length} scenarios: ${scenarios.map((s) => s.id).join(", ")}`);

const trainCorpus = (corpusSeed: number) =>
  generateGroups(scenarios, {
    split: "train",
    seed: corpusSeed,
    itemsPerScenario: Math.round(8000 * scale),
    syntheticItems: Math.round(40000 * scale),
  });
const train = trainCorpus(trainSeed);
/** An evaluation split: larger groups, never more than full scale. */
const evalSplit = (
  split: "heldout" | "families",
  splitSeed: number,
  perScenario: number,
  synthetic: number,
) =>
  generateGroups(scenarios, {
    split,
    seed: splitSeed,
    itemsPerScenario: Math.round(perScenario * Math.min(scale, 1)),
    syntheticItems: Math.round(synthetic * Math.min(scale, 1)),
    minGroup: 16,
    maxGroup: 32,
  });
const heldoutRaw = evalSplit("heldout", seed + 1000, 640, 1000);
const heldout = dropSeen(heldoutRaw, [train, ...earlierTrainSeeds.map(trainCorpus)].flat());
// Whole phrasing families the training split never emits (frames.ts HELDOUT_FRAMES), reported
// apart from the template held-out split.
const families = dropSeen(evalSplit("families", seed + 2000, 200, 300), train);
const examples = exampleGroups(scenarios);
log(
  `generated ${count(train)} train, ${count(heldout)} held-out (${count(heldoutRaw) - count(heldout)} dropped as seen), ${count(families)} held-out-family, ${count(examples)} example items`,
);
/** Every string a training target holds: a held-out target outside this set must be copied. */
const trainedValues = new Set(
  train.flatMap((g) =>
    g.items.flatMap((ex) => Object.values(ex.call.args).filter((v) => typeof v === "string")),
  ),
);

const tmp = join(outDir, ".building");
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });

// The committed tokenizer keeps token ids fixed across data revisions, so a model trained on
// an earlier dataset still matches; `--train-tokenizer` retrains it from this corpus.
let tokenizerText: string;
if (process.argv.includes("--train-tokenizer")) {
  const words = new WordCounter();
  for (const g of train) {
    words.add(prefixText(g.format, g.tools, g.system));
    for (const ex of g.items) {
      words.add(promptText(g.format, ex).rest);
      for (const h of targetHeads(g.tools, ex.call)) if (h.value !== null) words.add(h.value);
    }
  }
  log(`${words.counts.size} distinct pre-tokenized words`);
  const bpe = trainBpe(words.counts, vocabTotal - SPECIAL_TOKENS.length);
  log(`BPE: ${bpe.vocab.length} tokens, ${bpe.merges.length} merges, + ${SPECIAL_TOKENS.length} special`);
  tokenizerText = JSON.stringify(tokenizerJson(bpe));
} else {
  const file = option("tokenizer", COMMITTED_TOKENIZER);
  tokenizerText = readFileSync(file, "utf8");
  log(`tokenizer: ${file}`);
}
const tokenizerHash = createHash("sha256").update(tokenizerText).digest("hex");
const baseVocab = Object.keys((JSON.parse(tokenizerText) as { model: { vocab: object } }).model.vocab).length;
writeFileSync(join(tmp, "tokenizer.json"), tokenizerText);
writeFileSync(
  join(tmp, "tokenizer_config.json"),
  `${JSON.stringify(tokenizerConfigJson(baseVocab), null, 2)}\n`,
);
const ids = new IdCache(loadTokenizer(tokenizerText));

async function writeSplit(
  name: string,
  groups: ExampleGroup[],
  checkEvery: number,
  knownOnly = false,
): Promise<DatasetGroup[]> {
  const out: DatasetGroup[] = [];
  const lines: string[] = [];
  for (const g of groups) {
    const d = await exportGroup(g, ids, checkEvery, knownOnly);
    out.push(d);
    lines.push(JSON.stringify(d));
  }
  writeFileSync(join(tmp, `${name}.jsonl`), `${lines.join("\n")}\n`);
  log(`${name}.jsonl: ${groups.length} groups`);
  return out;
}

const trainData = await writeSplit("train", train, 16);
const heldoutData = await writeSplit("heldout", heldout, 1);
const exampleData = await writeSplit("examples", examples, 1, true);

const stats = {
  seed,
  train_seed: trainSeed,
  earlier_train_seeds: earlierTrainSeeds,
  scale,
  vocab_size: baseVocab + SPECIAL_TOKENS.length,
  tokenizer_sha256: tokenizerHash,
  special_tokens: Object.fromEntries(SPECIAL_TOKENS.map((t) => [t, ids.single(t)])),
  train: datasetStats(trainData),
  heldout: datasetStats(heldoutData),
  examples: datasetStats(exampleData),
};
writeFileSync(join(tmp, "stats.json"), `${JSON.stringify(stats, null, 2)}\n`);
writeFileSync(join(tmp, "sample.txt"), await sampleText(train, trainData, heldout, examples));
writeFileSync(join(tmp, "heldout-requests.jsonl"), requestLines(heldout));
writeFileSync(join(tmp, "families-requests.jsonl"), requestLines(families));

mkdirSync(outDir, { recursive: true });
rmSync(join(outDir, "READY"), { force: true });
for (const f of [
  "tokenizer.json",
  "tokenizer_config.json",
  "train.jsonl",
  "heldout.jsonl",
  "examples.jsonl",
  "stats.json",
  "sample.txt",
  "heldout-requests.jsonl",
  "families-requests.jsonl",
]) {
  renameSync(join(tmp, f), join(outDir, f));
}
rmSync(tmp, { recursive: true, force: true });
writeFileSync(
  join(outDir, "READY"),
  `${JSON.stringify({ built: new Date().toISOString(), seed, train_seed: trainSeed, scale, vocab_size: stats.vocab_size, tokenizer_sha256: tokenizerHash, train_items: stats.train.items, heldout_items: stats.heldout.items, example_items: stats.examples.items })}\n`,
);
console.log(formatStats(stats.train, "train"));
console.log(formatStats(stats.heldout, "heldout"));
log(`done: ${outDir}`);

/**
 * The held-out split as raw HTTP request bodies with their expected calls, one per line, for
 * evaluating through the server (`POST /{format}/function_call`) rather than on token ids.
 * `copy: true` marks a request whose target holds a string no training target holds (a coined
 * name, an unseen value): the copy set.
 */
function requestLines(groups: ExampleGroup[]): string {
  const lines: string[] = [];
  for (const g of groups) {
    for (const ex of g.items) {
      const body: Record<string, unknown> = {
        messages: [{ role: "user", content: ex.query }],
        tools: ex.tools,
      };
      if (ex.environment) body.environment = ex.environment;
      if (ex.history.length > 0) body.history = ex.history;
      if (g.format === "v2" && ex.system) body.system = ex.system;
      const copy = Object.values(ex.call.args).some((v) => typeof v === "string" && !trainedValues.has(v));
      lines.push(
        JSON.stringify({
          scenario: ex.scenario,
          lang: ex.lang,
          format: g.format,
          body,
          expected: ex.call,
          copy,
        }),
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

function count(groups: ExampleGroup[]): number {
  return groups.reduce((n, g) => n + g.items.length, 0);
}

/** Held-out items whose whole user turn also occurs in train are dropped. */
function dropSeen(held: ExampleGroup[], seen: ExampleGroup[]): ExampleGroup[] {
  const key = (ex: ExampleGroup["items"][number]) =>
    `${ex.scenario}\u0000${ex.query}\u0000${(ex.environment ?? []).join("|")}\u0000${ex.history.join("|")}`;
  const trainKeys = new Set(seen.flatMap((g) => g.items.map(key)));
  return held
    .map((g) => ({ ...g, items: g.items.filter((ex) => !trainKeys.has(key(ex))) }))
    .filter((g) => g.items.length > 0);
}

async function sampleText(
  trainGroups: ExampleGroup[],
  trainTok: DatasetGroup[],
  held: ExampleGroup[],
  ex: ExampleGroup[],
): Promise<string> {
  const lines: string[] = [];
  const show = (title: string, g: ExampleGroup, n: number, tok?: DatasetGroup) => {
    lines.push(
      `===== ${title}: ${g.scenario} ${g.format} (${g.items.length} items${tok ? `, prefix ${tok.prefix.length} tokens` : ""})`,
    );
    lines.push(prefixText(g.format, g.tools, g.system));
    for (const [i, item] of g.items.slice(0, n).entries()) {
      const p = promptText(g.format, item);
      lines.push(`--- [${item.lang}]${tok ? ` rest ${tok.items[i]!.rest.length} tokens` : ""}`);
      lines.push(p.rest);
      lines.push(
        targetHeads(g.tools, item.call)
          .map((h) => `${h.tag}${h.value ?? ""}${h.stop}`)
          .join("  "),
      );
    }
  };
  const seenScenario = new Set<string>();
  trainGroups.forEach((g, i) => {
    const tag = `${g.scenario}/${g.format}`;
    if (seenScenario.has(tag)) return;
    seenScenario.add(tag);
    show("train", g, 6, trainTok[i]);
  });
  for (const g of held.slice(0, 2)) show("heldout", g, 4);
  for (const g of ex.slice(0, 2)) show("examples", g, 3);
  return `${lines.join("\n")}\n`;
}
