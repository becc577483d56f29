"""Exports a trained rt-tiny checkpoint as a Hugging Face Qwen3 directory, checks that the float16
weights reload to the same predictions, evaluates the held-out split and writes the model card.

Usage: /usr/bin/python3 tools/train/export_tiny.py [--run tools/train/out/run] [--dest DIR] [--per-group N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from eval_tiny import run_eval  # noqa: E402
from model.card import model_card  # noqa: E402
from model.hf_dir import load_checkpoint, load_hf_dir, write_hf_dir  # noqa: E402
from model.packing import pack, packed_hidden  # noqa: E402
from train_tiny import read_groups  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DEST = os.path.join(HERE, "..", "..", "packages", "model-rt-tiny", "model")
MAX_DIR_BYTES = 20 * 1000 * 1000


class ExportCheckError(RuntimeError):
    """The exported directory does not reproduce the checkpoint or breaks the size budget."""


def data_stats(groups: list[dict]) -> dict:
    stats: dict = {"scenario": Counter(), "lang": Counter(), "format": Counter()}
    for g in groups:
        for item in g["items"]:
            for key in stats:
                stats[key][str(item.get("meta", {}).get(key, "?"))] += 1
    return {k: dict(v) for k, v in stats.items()}


def check_round_trip(trained, exported, groups: list[dict]) -> float:
    """Max |logit difference| between the fp32 checkpoint and the reloaded fp16 export on a sample."""
    rng = random.Random(0)
    group = rng.choice(groups)
    seq = pack(group["prefix"], group["items"][:4])
    with torch.no_grad():
        a = trained.logits(packed_hidden(trained, seq))
        b = exported.logits(packed_hidden(exported, seq))
    if not torch.equal(a.argmax(-1), b.argmax(-1)):
        raise ExportCheckError("float16 export changes greedy predictions on a training sample")
    return float((a - b).abs().max())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--run", default=os.path.join(HERE, "out", "run"))
    p.add_argument("--data", default=os.path.join(HERE, "out"))
    p.add_argument("--dest", default=DEFAULT_DEST)
    p.add_argument("--per-group", type=int, default=None, help="held-out items per group (default: all)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--ts-eval", help="JSON written by `bun run eval:tiny -- --json FILE`, added to the card")
    p.add_argument("--skip-eval", action="store_true", help="no held-out evaluation (the GPU script's CPU smoke run)")
    p.add_argument("--card-only", action="store_true", help="rewrite the card from the run's saved eval.json")
    p.add_argument("--heading", default="rt-tiny", help="the card's title")
    p.add_argument("--preface", help="a paragraph under the title (e.g. that this is a training checkpoint)")
    p.add_argument("--history", help="markdown of the earlier training phases (e.g. tools/train/phases.md), added to the card")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    with open(os.path.join(args.run, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)
    summary["torch_version"] = torch.__version__.split("+")[0]
    tokenizer = os.path.join(args.data, "tokenizer.json")
    train_groups = read_groups(os.path.join(args.data, "train.jsonl"))
    eval_path = os.path.join(args.run, "eval.json")
    evaluation = None
    if args.card_only:
        if os.path.exists(eval_path):
            with open(eval_path, encoding="utf-8") as f:
                evaluation = json.load(f)
    else:
        trained = load_checkpoint(os.path.join(args.run, "ckpt.pt"))
        write_hf_dir(trained, tokenizer, args.dest)
        exported = load_hf_dir(args.dest)
        diff = check_round_trip(trained, exported, train_groups)
        print(f"export reloads: max |logit diff| fp32 vs fp16 = {diff:.4f}", flush=True)
        heldout = os.path.join(args.data, "heldout.jsonl")
        if os.path.exists(heldout) and not args.skip_eval:
            evaluation = run_eval(exported, heldout, tokenizer, args.per_group, None)
            with open(eval_path, "w", encoding="utf-8") as f:
                json.dump(evaluation, f, indent=2, ensure_ascii=False)
    ts_eval = None
    if args.ts_eval:
        with open(args.ts_eval, encoding="utf-8") as f:
            ts_eval = json.load(f)
    files = {n: os.path.getsize(os.path.join(args.dest, n)) for n in os.listdir(args.dest) if n != "README.md"}
    history = None
    if args.history:
        with open(args.history, encoding="utf-8") as f:
            history = f.read().strip()
    card = model_card(summary, evaluation, data_stats(train_groups), files, ts_eval, history, args.heading, args.preface)
    with open(os.path.join(args.dest, "README.md"), "w", encoding="utf-8") as f:
        f.write(card)
    total = sum(os.path.getsize(os.path.join(args.dest, n)) for n in os.listdir(args.dest))
    print(f"wrote {args.dest}: {total / 1e6:.1f} MB")
    if total > MAX_DIR_BYTES:
        raise ExportCheckError(f"{args.dest} is {total} bytes, over the {MAX_DIR_BYTES} byte budget")


if __name__ == "__main__":
    main()
