"""Averages the weights of rt-tiny models of one shape and one training line (a "model soup": the
shipped weights and a phase trained on from them) into a run folder that `export_tiny.py --run`
exports like any other.

Why: continued phases moved the generator's tables up and the hand-written set down (phases 20
and 21); the weighted mean of the shipped weights and a later phase keeps most of both
(0.7 phase 19 + 0.3 phase 20: held-out 71.6 -> 72.1%, hand-written 90.3 -> 91.0%), at no
training cost. Only models fine-tuned from one another average well; the shapes must match.

Usage: /usr/bin/python3 tools/train/soup.py --out tools/train/out/soup-run \\
         packages/model-rt-tiny/model:0.5 tools/train/out/rt23-run:0.5

Each ingredient is a run folder (`ckpt.pt`) or a model directory (`model.safetensors`), with its
weight after the last colon; the weights are scaled to sum to 1. The soup's `summary.json` is the
first run folder's training record with the ingredients added under "soup".
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from model.hf_dir import load_checkpoint, load_hf_dir  # noqa: E402
from model.qwen3 import Qwen3ForCausalLM  # noqa: E402


class SoupError(ValueError):
    """An ingredient that cannot be averaged (missing, unweighted, or of another shape)."""


def parse_ingredient(text: str) -> tuple[str, float]:
    """`path:weight` -> (path, weight); the weight must be positive."""
    path, sep, weight = text.rpartition(":")
    if not sep or not path:
        raise SoupError(f"{text!r}: expected PATH:WEIGHT")
    try:
        value = float(weight)
    except ValueError as err:
        raise SoupError(f"{text!r}: weight {weight!r} is not a number") from err
    if not value > 0:
        raise SoupError(f"{text!r}: weight must be positive")
    return path, value


def load_ingredient(path: str) -> Qwen3ForCausalLM:
    """A run folder's checkpoint or a model directory's weights, in float32."""
    if os.path.exists(os.path.join(path, "ckpt.pt")):
        return load_checkpoint(os.path.join(path, "ckpt.pt"))
    if os.path.exists(os.path.join(path, "model.safetensors")):
        return load_hf_dir(path)
    raise SoupError(f"{path}: neither a run folder (ckpt.pt) nor a model directory (model.safetensors)")


def average(models: list[Qwen3ForCausalLM], weights: list[float]) -> Qwen3ForCausalLM:
    """The first model, its every tensor replaced by the weighted mean over `models`."""
    total = sum(weights)
    states = [m.state_dict() for m in models]
    names = set(states[0])
    for i, state in enumerate(states[1:], start=1):
        if set(state) != names:
            raise SoupError(f"ingredient {i + 1} has other tensors than the first")
    soup = models[0]
    with torch.no_grad():
        for name, tensor in states[0].items():
            parts = [state[name] for state in states]
            if any(p.shape != tensor.shape for p in parts):
                raise SoupError(f"{name}: shapes differ ({[tuple(p.shape) for p in parts]})")
            tensor.copy_(sum(w / total * p.float() for w, p in zip(weights, parts)))
    return soup


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="run folder to write (ckpt.pt, summary.json)")
    p.add_argument("ingredients", nargs="+", help="PATH:WEIGHT, a run folder or a model directory")
    args = p.parse_args(argv)
    pairs = [parse_ingredient(text) for text in args.ingredients]
    soup = average([load_ingredient(path) for path, _ in pairs], [w for _, w in pairs])
    summary: dict = {}
    for path, _ in pairs:
        if os.path.exists(os.path.join(path, "summary.json")):
            with open(os.path.join(path, "summary.json"), encoding="utf-8") as f:
                summary = json.load(f)
            break
    total = sum(w for _, w in pairs)
    summary["soup"] = [{"from": path, "weight": round(w / total, 4)} for path, w in pairs]
    summary.setdefault("config", vars(soup.cfg))
    os.makedirs(args.out, exist_ok=True)
    torch.save({"model": soup.state_dict(), "config": vars(soup.cfg)}, os.path.join(args.out, "ckpt.pt"))
    with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2, ensure_ascii=False)
        f.write("\n")
    parts = ", ".join(f"{x['from']} x{x['weight']}" for x in summary["soup"])
    print(f"soup of {len(pairs)} -> {args.out}: {parts}")


if __name__ == "__main__":
    main()
