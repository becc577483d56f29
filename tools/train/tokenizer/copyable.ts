/**
 * `bun tools/train/tokenizer/copyable.ts IN OUT`: writes IN's tokenizer (vocabulary, merges,
 * added tokens, decoder) with rt-tiny 2's copyable pre-tokenizer in place of its own.
 *
 * Why: a new vocabulary means training from random weights, which two cores could not bring past
 * ~30% in four phases (phases-rt-tiny-2.md). Keeping rt-tiny's ids and changing only where BPE may
 * merge lets rt-tiny's trained weights carry over: every id means the same bytes as before; tokens
 * that glue a space to a word (`Ġmove`) or span several CJK characters simply stop occurring, and
 * a name becomes the same ids in the roster, the order and the answer.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { copyablePreTokenizer } from "./tokenizer-json";

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error("usage: bun tools/train/tokenizer/copyable.ts IN/tokenizer.json OUT/tokenizer.json");
  process.exit(2);
}
const tokenizer = JSON.parse(readFileSync(input, "utf8")) as Record<string, unknown>;
if ((tokenizer.model as { type?: string } | undefined)?.type !== "BPE") {
  console.error(`${input}: not a BPE tokenizer.json`);
  process.exit(1);
}
tokenizer.pre_tokenizer = copyablePreTokenizer();
writeFileSync(output, JSON.stringify(tokenizer));
console.log(`${output}: ${input}'s vocabulary with the copyable split`);
