"""Evaluates an rt-tiny model (exported directory or training checkpoint) on the held-out split with
multi-head greedy decoding in Python: exact match per scenario, language, format and head.
(The TypeScript evaluation through rtool's own runtime is `bun run eval:tiny`.)

Usage: /usr/bin/python3 tools/train/eval_tiny.py [--model-dir DIR | --ckpt FILE] [--per-group N]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from model.decode import read_special_ids  # noqa: E402
from model.detok import Detokenizer  # noqa: E402
from model.evaluate import evaluate_groups, format_summary, free_text_heads, summarize  # noqa: E402
from model.hf_dir import load_checkpoint, load_hf_dir  # noqa: E402
from train_tiny import read_groups  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MODEL = os.path.join(HERE, "..", "..", "packages", "model-rt-tiny", "model")
DEFAULT_SCENARIOS = os.path.join(HERE, "..", "..", "scenarios")


def sample_groups(groups: list[dict], per_group: int | None) -> list[dict]:
    """The first per_group items of every group, so a small sample still spans every scenario."""
    if per_group is None:
        return groups
    return [{"prefix": g["prefix"], "items": g["items"][:per_group]} for g in groups]


def run_eval(
    model,
    heldout_path: str,
    tokenizer_path: str,
    per_group: int | None = None,
    max_items: int | None = None,
    scenario_dir: str = DEFAULT_SCENARIOS,
) -> dict:
    """Evaluates one split file; the summary carries up to 50 failures with decoded text."""
    groups = sample_groups(read_groups(heldout_path), per_group)
    special = read_special_ids(tokenizer_path)
    detok = Detokenizer(tokenizer_path)
    free = free_text_heads(scenario_dir) if os.path.isdir(scenario_dir) else {}
    start = time.time()
    records = evaluate_groups(model, groups, special, max_items=max_items, free_text=free, detok=detok)
    for r in records:
        for h in r["heads"]:
            h["expected_text"] = detok.decode(h["expected"], skip_special=False)
            h["got_text"] = detok.decode(h["got"], skip_special=False)
    summary = summarize(records)
    summary["seconds"] = round(time.time() - start, 1)
    summary["heldout"] = os.path.basename(heldout_path)
    summary["per_group"] = per_group
    summary["failures"] = [r for r in records if not r["ok"]][:50]
    return summary


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model-dir", default=DEFAULT_MODEL)
    p.add_argument("--ckpt", help="evaluate a training checkpoint instead of an exported directory")
    p.add_argument("--data", default=os.path.join(HERE, "out"))
    p.add_argument("--split", default="heldout", help="heldout or examples (the scenario files' own examples)")
    p.add_argument("--scenarios", default=DEFAULT_SCENARIOS)
    p.add_argument("--per-group", type=int, default=None)
    p.add_argument("--max-items", type=int, default=None)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--json", help="also write the summary here")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    model = load_checkpoint(args.ckpt) if args.ckpt else load_hf_dir(args.model_dir)
    tokenizer = os.path.join(args.data, "tokenizer.json")
    path = os.path.join(args.data, f"{args.split}.jsonl")
    summary = run_eval(model, path, tokenizer, args.per_group, args.max_items, args.scenarios)
    print(format_summary(summary))
    print(f"\n({summary['seconds']} s)")
    for r in summary["failures"][:10]:
        bad = [f"{h['head']}: want {h['expected_text']!r} got {h['got_text']!r}" for h in r["heads"] if not h["ok"]]
        print(f"FAIL {r['meta'].get('scenario')}/{r['meta'].get('lang')}/{r['meta'].get('format')}: {'; '.join(bad)}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=2, ensure_ascii=False)


if __name__ == "__main__":
    main()
