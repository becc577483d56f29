"""Writes a small synthetic dataset in the trainer's format, for developing and testing the trainer
before (or without) the real generator: `train.jsonl`, `heldout.jsonl`, `tokenizer.json`.

The task is learnable only by reading the prompt: the prefix lists tools as (keyword, name tokens,
arity); a query names a tool by its keyword and carries values; the heads must copy the tool's name
from the prefix and the values from the query, with `<|null|>` for unused argument slots.

Usage: /usr/bin/python3 tools/train/make_synthetic.py OUT_DIR [--groups 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import os
import random

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|null|>", "<function>", "</function>", "<content>", "</content>"]
SPECIALS += [f"<arg{i}>" for i in range(1, 7)] + [f"</arg{i}>" for i in range(1, 7)]
VOCAB = 512
MAX_ARGS = 3


def special_ids() -> dict[str, int]:
    return {name: i for i, name in enumerate(SPECIALS)}


def tokenizer_json() -> dict:
    sp = special_ids()
    vocab = {f"t{i}": i for i in range(len(SPECIALS), VOCAB)}
    added = [{"id": i, "content": s, "special": True} for s, i in sp.items()]
    return {"version": "1.0", "added_tokens": added, "model": {"type": "BPE", "vocab": vocab, "merges": []}}


def make_group(rng: random.Random, items_per_group: int, lang: str, fmt: str) -> dict:
    sp = special_ids()
    first = len(SPECIALS)
    n_tools = rng.randint(2, 5)
    keywords = rng.sample(range(first + 10, first + 60), n_tools)
    tools = []
    prefix = [sp["<|im_start|>"]] + [rng.randrange(first + 60, VOCAB) for _ in range(rng.randint(20, 60))]
    for kw in keywords:
        name = [rng.randrange(first + 60, VOCAB) for _ in range(rng.randint(1, 3))]
        arity = rng.randint(0, MAX_ARGS)
        tools.append((kw, name, arity))
        prefix += [first, kw] + name + [first + 1 + arity]
    prefix.append(sp["<|im_end|>"])
    items = []
    for _ in range(items_per_group):
        t = rng.randrange(n_tools)
        kw, name, arity = tools[t]
        values = [[rng.randrange(first + 60, VOCAB) for _ in range(rng.randint(1, 3))] for _ in range(arity)]
        query = [rng.randrange(first + 60, VOCAB) for _ in range(rng.randint(2, 8))] + [kw]
        for v in values:
            query += [first + 2] + v
        rest = [sp["<|im_start|>"], first + 3] + query + [sp["<|im_end|>"], sp["<|im_start|>"], first + 4]
        heads = [[sp["<function>"]] + name + [sp["</function>"]]]
        for a in range(MAX_ARGS):
            tag, stop = sp[f"<arg{a + 1}>"], sp[f"</arg{a + 1}>"]
            heads.append([tag] + values[a] + [stop] if a < arity else [tag, sp["<|null|>"]])
        meta = {"scenario": f"synthetic_{n_tools}", "lang": lang, "format": fmt}
        items.append({"rest": rest, "heads": heads, "target_from": [1] * len(heads), "meta": meta})
    return {"prefix": prefix, "items": items}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir")
    parser.add_argument("--groups", type=int, default=200)
    parser.add_argument("--heldout-groups", type=int, default=10)
    parser.add_argument("--items", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out_dir, exist_ok=True)
    for split, count in (("train", args.groups), ("heldout", args.heldout_groups)):
        with open(os.path.join(args.out_dir, f"{split}.jsonl"), "w") as f:
            for _ in range(count):
                group = make_group(rng, args.items, rng.choice(["en", "zh"]), rng.choice(["v1", "v2"]))
                f.write(json.dumps(group) + "\n")
    with open(os.path.join(args.out_dir, "tokenizer.json"), "w") as f:
        json.dump(tokenizer_json(), f)


if __name__ == "__main__":
    main()
