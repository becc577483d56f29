"""Writes the scenario-focused subset used by rt-tiny's second training phase: every group of the
reference scenarios plus one synthetic group in eight, with the tokenizer and held-out split beside it.

`--extra DIR` (repeatable) with `--extra-scenarios a,b` appends those scenarios' groups from other
corpora built with the same tokenizer (other train seeds of build-data.ts, whose held-out split is
the same): more items of the scenarios a phase lost ground on, without repeating the same groups.

Usage: /usr/bin/python3 tools/train/focus_data.py [--data tools/train/out] [--dest tools/train/out/focus]
         [--extra tools/train/out/rts1 --extra tools/train/out/rts2 --extra-scenarios neon_arena_ship,flappy_bird]
"""

from __future__ import annotations

import argparse
import os
import shutil

import json

HERE = os.path.dirname(os.path.abspath(__file__))


def scenario_of(line: str) -> str:
    """The scenario of one `train.jsonl` group (its items share it)."""
    return json.loads(line)["items"][0]["meta"]["scenario"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", default=os.path.join(HERE, "out"))
    p.add_argument("--dest", default=os.path.join(HERE, "out", "focus"))
    p.add_argument("--synthetic-every", type=int, default=8)
    p.add_argument("--extra", action="append", default=[], help="another corpus folder (same tokenizer)")
    p.add_argument("--extra-scenarios", default="", help="comma-separated scenarios taken from --extra")
    args = p.parse_args()
    wanted = {name for name in args.extra_scenarios.split(",") if name}
    if args.extra and not wanted:
        p.error("--extra needs --extra-scenarios")
    tokenizer = open(os.path.join(args.data, "tokenizer.json"), encoding="utf-8").read()
    for extra in args.extra:
        # ids from another vocabulary would be silently wrong tokens
        if open(os.path.join(extra, "tokenizer.json"), encoding="utf-8").read() != tokenizer:
            p.error(f"{extra} was built with another tokenizer than {args.data}")
    os.makedirs(args.dest, exist_ok=True)
    kept = synthetic = 0
    with open(os.path.join(args.data, "train.jsonl"), encoding="utf-8") as src, open(
        os.path.join(args.dest, "train.jsonl"), "w", encoding="utf-8"
    ) as out:
        for line in src:
            scenario = scenario_of(line)
            if scenario == "synthetic":
                synthetic += 1
                if synthetic % args.synthetic_every:
                    continue
            out.write(line)
            kept += 1
        added = 0
        for extra in args.extra:
            with open(os.path.join(extra, "train.jsonl"), encoding="utf-8") as more:
                for line in more:
                    if scenario_of(line) in wanted:
                        out.write(line)
                        added += 1
        if added:
            print(f"focus: {added} groups of {sorted(wanted)} added from {len(args.extra)} corpora")
    for name in ("heldout.jsonl", "tokenizer.json", "tokenizer_config.json"):
        shutil.copyfile(os.path.join(args.data, name), os.path.join(args.dest, name))
    print(f"focus: {kept + added} groups written to {args.dest}")


if __name__ == "__main__":
    main()
