"""Multi-head greedy decoding for evaluation: the prompt is run once, then every head branch
(its forced tag tokens, then greedy tokens) is decoded in one batch, each branch seeing the prompt
and its own tokens only, every branch starting at position len(prompt).
"""

from __future__ import annotations

import json

import torch

from .qwen3 import KV, Qwen3ForCausalLM, concat_context

STOP_NAMES = ["</function>", "</content>", "<|null|>", "<|im_end|>"] + [f"</arg{i}>" for i in range(1, 7)]


def read_special_ids(tokenizer_path: str) -> dict[str, int]:
    """Special tokens of a `tokenizer.json` (its `added_tokens`), by content."""
    with open(tokenizer_path, encoding="utf-8") as f:
        data = json.load(f)
    return {t["content"]: int(t["id"]) for t in data.get("added_tokens", [])}


def read_vocab_size(tokenizer_path: str) -> int:
    """Largest id in the model vocab or the added tokens, plus one."""
    with open(tokenizer_path, encoding="utf-8") as f:
        data = json.load(f)
    ids = [int(t["id"]) for t in data.get("added_tokens", [])]
    vocab = data.get("model", {}).get("vocab", {})
    if isinstance(vocab, dict):
        ids += [int(i) for i in vocab.values()]
    return max(ids) + 1


def stop_ids(special: dict[str, int]) -> set[int]:
    return {special[name] for name in STOP_NAMES if name in special}


@torch.no_grad()
def prompt_context(model: Qwen3ForCausalLM, ids: list[int], context: list[KV] | None = None) -> list[KV]:
    """KV of a prompt (optionally behind an existing context), as a new context."""
    _, kv = model.causal(torch.tensor(ids, dtype=torch.long), context=context)
    return kv if context is None else concat_context(context, kv)


@torch.no_grad()
def greedy_heads(
    model: Qwen3ForCausalLM,
    context: list[KV],
    forced: list[list[int]],
    stop: set[int],
    max_tokens: int = 32,
) -> list[list[int]]:
    """Greedy continuation of every head branch after its forced tokens; each result ends with its
    stop token unless max_tokens was reached."""
    n = context[0].k.shape[-2]
    heads = len(forced)
    width = max(len(f) for f in forced)
    ids = torch.zeros(heads, width, dtype=torch.long)
    valid = torch.zeros(heads, width, dtype=torch.bool)
    for h, f in enumerate(forced):
        ids[h, : len(f)] = torch.tensor(f)
        valid[h, : len(f)] = True
    positions = n + torch.arange(width).expand(heads, width)
    mask = torch.ones(width, width, dtype=torch.bool).tril()[None] & valid[:, None, :]
    mask = mask | torch.eye(width, dtype=torch.bool)[None]
    hidden, past = model.blocks(ids, positions, mask, context=context)
    last = torch.tensor([len(f) - 1 for f in forced])
    logits = model.logits(hidden[torch.arange(heads), last])
    lengths = torch.tensor([len(f) for f in forced])
    out: list[list[int]] = [[] for _ in range(heads)]
    done = [False] * heads
    for _ in range(max_tokens):
        next_ids = logits.argmax(-1)
        for h in range(heads):
            if not done[h]:
                token = int(next_ids[h])
                out[h].append(token)
                done[h] = token in stop or len(out[h]) >= max_tokens
        if all(done):
            break
        step_mask = torch.cat([valid, torch.ones(heads, 1, dtype=torch.bool)], dim=1)[:, None, :]
        hidden, past = model.blocks(next_ids[:, None], (n + lengths)[:, None], step_mask, context=context, past=past)
        valid = step_mask[:, 0, :]
        lengths = lengths + 1
        logits = model.logits(hidden[:, 0])
    return out
