import { describe, expect, test } from "bun:test";
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

/** The function and direction a fake model picks for `turn`, which prefers `wait` and `down` by 1.5. */
async function decide(turn: string, copyBias: number): Promise<string[]> {
  const runtime = new HashRuntime(vocab.size);
  runtime.bias.set(vocab.id("wait"), 1.5);
  runtime.bias.set(vocab.id("down"), 1.5);
  const promptIds = vocab.encode(`<|im_start|>user\n${turn}<|im_end|>`);
  const result = await decodeHeads({
    runtime,
    vocab: new VocabIndex(vocab),
    past: runtime.emptyKv(),
    pending: promptIds,
    promptIds,
    copyBias,
    maxTokens: 4,
    heads: [
      {
        name: "function",
        tagIds: vocab.encode("<function>"),
        stops: stopsOf("function"),
        constraint: kinded("function", ["flap", "wait"]),
      },
      {
        name: "arg1",
        tagIds: vocab.encode("<arg1>"),
        stops: stopsOf("arg1"),
        constraint: kinded("enum", ["up", "down"]),
      },
    ],
  });
  return result.heads.map((h) => h.text.replace(/<\/\w+>$/, ""));
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
