"""Makes a deeper rt-tiny that computes exactly what the given one does: new decoder layers are
inserted with their attention and MLP output projections at zero, so each adds nothing to the
residual stream until training moves them. A shape trial then starts from everything the trained
model knows instead of from random weights (two cores train ~10M tokens an hour; a new shape from
scratch would need many phases to catch up). The new layers' other weights copy the layer before
them, so their first gradients read features the model already uses.

Usage: /usr/bin/python3 tools/train/deepen.py --src packages/model-rt-tiny/model --dest DIR --after 1,2
  (--after: indexes of the source layers each followed by one new layer)
"""

from __future__ import annotations

import argparse
import copy
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model.hf_dir import load_hf_dir, write_hf_dir  # noqa: E402
from model.qwen3 import Qwen3ForCausalLM  # noqa: E402


def deepen(model: Qwen3ForCausalLM, after: list[int]) -> Qwen3ForCausalLM:
    """A copy of `model` with one new, output-silenced layer after each layer index in `after`."""
    layers = list(model.model.layers)
    if any(i < 0 or i >= len(layers) for i in after):
        raise ValueError(f"--after {after}: the model has layers 0..{len(layers) - 1}")
    cfg = copy.deepcopy(model.cfg)
    cfg.num_hidden_layers = len(layers) + len(after)
    deeper = Qwen3ForCausalLM(cfg)
    stack = []
    for i, layer in enumerate(layers):
        stack.append(copy.deepcopy(layer))
        if i in after:
            added = copy.deepcopy(layer)
            with torch.no_grad():
                added.self_attn.o_proj.weight.zero_()
                added.mlp.down_proj.weight.zero_()
            stack.append(added)
    deeper.model.layers = torch.nn.ModuleList(stack)
    deeper.model.embed_tokens = copy.deepcopy(model.model.embed_tokens)
    deeper.model.norm = copy.deepcopy(model.model.norm)
    return deeper


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--src", required=True, help="Hugging Face Qwen3 folder (rt-tiny's shape)")
    p.add_argument("--dest", required=True)
    p.add_argument("--after", required=True, help="comma-separated source layer indexes")
    args = p.parse_args()
    model = load_hf_dir(args.src)
    deeper = deepen(model, [int(i) for i in args.after.split(",")])
    # The point of the construction: the same function. Checked on a random prompt, not assumed.
    ids = torch.randint(0, model.cfg.vocab_size, (48,))
    with torch.no_grad():
        a = model.logits(model.causal(ids)[0])
        b = deeper.logits(deeper.causal(ids)[0])
    gap = float((a - b).abs().max())
    if gap > 1e-4:
        sys.exit(f"deepen: the deeper model's logits differ by {gap}")
    write_hf_dir(deeper, os.path.join(args.src, "tokenizer.json"), args.dest)
    print(f"deepen: {model.cfg.num_hidden_layers} -> {deeper.cfg.num_hidden_layers} layers, same logits (max gap {gap:.2e})")


if __name__ == "__main__":
    main()
