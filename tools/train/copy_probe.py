"""Where copying fails: teacher-forced accuracy of the argument heads' value tokens, by what the
token needs, on a sample of the held-out split.

- `first copy`: the first value token of a head whose value occurs in the user turn (`rest`): the
  head must find where the value starts (selection).
- `continued copy`: a later value token whose previous token occurs in the user turn followed by
  it: an induction step (attend to the previous token's spot in the prompt, read what follows).
- `other`: value tokens the user turn does not hold (enum words, translated or reworded values,
  stop markers): recalled from the tools, the system turn or training.

Exact match says whether whole calls are right; this says which skill is missing, and it moves
before exact match does. Offline developer tool (`/usr/bin/python3`):

  /usr/bin/python3 tools/train/copy_probe.py --model-dir tools/train/checkpoints/rt-tiny-2 [--items 600]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from model.hf_dir import load_checkpoint, load_hf_dir  # noqa: E402
from model.packing import pack, packed_hidden  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def follows_in(rest: list[int], prev: int, token: int) -> bool:
    return any(rest[i] == prev and rest[i + 1] == token for i in range(len(rest) - 1))


def token_kinds(item: dict) -> list[str]:
    """The kind of each head target, in the order `pack` lays the targets out."""
    rest = item["rest"]
    present = set(rest)
    kinds: list[str] = []
    for h, (head, start) in enumerate(zip(item["heads"], item["target_from"])):
        for j in range(start, len(head)):
            if h == 0:
                kinds.append("function")
            elif j == start and head[j] in present:
                kinds.append("first copy")
            elif j > start and follows_in(rest, head[j - 1], head[j]):
                kinds.append("continued copy")
            else:
                kinds.append("other")
    return kinds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model-dir", default=os.path.join(HERE, "checkpoints", "rt-tiny-2"))
    p.add_argument("--ckpt", help="a training checkpoint (ckpt.pt) instead of an exported directory")
    p.add_argument("--data", default=os.path.join(HERE, "out"))
    p.add_argument("--items", type=int, default=600)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--json", help="also write the table here")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    model = (load_checkpoint(args.ckpt) if args.ckpt else load_hf_dir(args.model_dir)).eval()
    with open(os.path.join(args.data, "heldout.jsonl"), encoding="utf-8") as f:
        groups = [json.loads(line) for line in f if line.strip()]
    rng = random.Random(args.seed)
    per_group = max(1, args.items // len(groups))
    counts: dict[str, list[int]] = {}
    for group in groups:
        items = rng.sample(group["items"], min(per_group, len(group["items"])))
        seq = pack(group["prefix"], items)
        with torch.no_grad():
            predicted = model.logits(packed_hidden(model, seq)).argmax(-1)
        kinds = [k for item in items for k in token_kinds(item)]
        for kind, ok in zip(kinds, (predicted == seq.labels).tolist()):
            row = counts.setdefault(kind, [0, 0])
            row[0] += int(ok)
            row[1] += 1
    table = {kind: {"accuracy": round(ok / n, 4), "tokens": n} for kind, (ok, n) in sorted(counts.items())}
    print(f"teacher-forced head-token accuracy by kind ({args.ckpt or args.model_dir}):")
    for kind, row in table.items():
        print(f"  {kind:15s} {100 * row['accuracy']:5.1f}%  ({row['tokens']} tokens)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(table, f, indent=2)


if __name__ == "__main__":
    main()
