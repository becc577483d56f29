"""Writes the scenario-focused subset used by rt-tiny's second training phase: every group of the
reference scenarios plus one synthetic group in eight, with the tokenizer and held-out split beside it.

Usage: /usr/bin/python3 tools/train/focus_data.py [--data tools/train/out] [--dest tools/train/out/focus]
"""

from __future__ import annotations

import argparse
import os
import shutil

import json

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", default=os.path.join(HERE, "out"))
    p.add_argument("--dest", default=os.path.join(HERE, "out", "focus"))
    p.add_argument("--synthetic-every", type=int, default=8)
    args = p.parse_args()
    os.makedirs(args.dest, exist_ok=True)
    kept = synthetic = 0
    with open(os.path.join(args.data, "train.jsonl"), encoding="utf-8") as src, open(
        os.path.join(args.dest, "train.jsonl"), "w", encoding="utf-8"
    ) as out:
        for line in src:
            scenario = json.loads(line)["items"][0]["meta"]["scenario"]
            if scenario == "synthetic":
                synthetic += 1
                if synthetic % args.synthetic_every:
                    continue
            out.write(line)
            kept += 1
    for name in ("heldout.jsonl", "tokenizer.json", "tokenizer_config.json"):
        shutil.copyfile(os.path.join(args.data, name), os.path.join(args.dest, name))
    print(f"focus: {kept} groups written to {args.dest}")


if __name__ == "__main__":
    main()
