"""Held-out evaluation with multi-head greedy decoding: exact match of the function head and of every
argument head, reported per scenario, language, prompt format and head.
"""

from __future__ import annotations

from collections import defaultdict

import torch

from .decode import greedy_heads, prompt_context, stop_ids
from .qwen3 import Qwen3ForCausalLM

GROUP_KEYS = ("scenario", "lang", "format")


def head_name(tag_id: int, names_by_id: dict[int, str]) -> str:
    name = names_by_id.get(tag_id, f"id{tag_id}")
    return name.strip("<>/|")


@torch.no_grad()
def evaluate_groups(
    model: Qwen3ForCausalLM,
    groups: list[dict],
    special: dict[str, int],
    max_items: int | None = None,
    max_tokens: int = 32,
) -> list[dict]:
    """One record per evaluated item: its meta, and per head the expected and decoded tokens."""
    model.eval()
    stop = stop_ids(special)
    names_by_id = {i: n for n, i in special.items()}
    records: list[dict] = []
    for group in groups:
        prefix_kv = prompt_context(model, group["prefix"])
        for item in group["items"]:
            if max_items is not None and len(records) >= max_items:
                return records
            context = prompt_context(model, item["rest"], prefix_kv)
            forced = [h[:s] for h, s in zip(item["heads"], item["target_from"])]
            expected = [h[s:] for h, s in zip(item["heads"], item["target_from"])]
            longest = max(len(e) for e in expected)
            got = greedy_heads(model, context, forced, stop, max_tokens=max(max_tokens, longest))
            heads = [
                {"head": head_name(f[0], names_by_id), "expected": e, "got": g, "ok": e == g}
                for f, e, g in zip(forced, expected, got)
            ]
            records.append({"meta": item.get("meta", {}), "heads": heads, "ok": all(h["ok"] for h in heads)})
    return records


def summarize(records: list[dict]) -> dict:
    """Exact-match rates: overall, per GROUP_KEYS value, and per head."""

    def rate(rows: list[dict]) -> dict:
        n = len(rows)
        exact = sum(r["ok"] for r in rows)
        fn = sum(r["heads"][0]["ok"] for r in rows)
        return {"n": n, "exact": exact / n if n else 0.0, "function": fn / n if n else 0.0}

    out: dict = {"overall": rate(records)}
    for key in GROUP_KEYS:
        buckets: dict[str, list[dict]] = defaultdict(list)
        for r in records:
            buckets[str(r["meta"].get(key, "?"))].append(r)
        out[key] = {k: rate(v) for k, v in sorted(buckets.items())}
    per_head: dict[str, list[bool]] = defaultdict(list)
    for r in records:
        for h in r["heads"]:
            per_head[h["head"]].append(h["ok"])
    out["head"] = {k: {"n": len(v), "exact": sum(v) / len(v)} for k, v in per_head.items()}
    return out


def format_summary(summary: dict) -> str:
    """Markdown tables of a summary()."""
    lines = []
    o = summary["overall"]
    lines.append(f"Overall: {o['n']} items, exact {100 * o['exact']:.1f}%, function {100 * o['function']:.1f}%")
    for key in GROUP_KEYS:
        lines += ["", f"| {key} | n | exact % | function % |", "|---|---:|---:|---:|"]
        for k, v in summary[key].items():
            lines.append(f"| {k} | {v['n']} | {100 * v['exact']:.1f} | {100 * v['function']:.1f} |")
    lines += ["", "| head | n | exact % |", "|---|---:|---:|"]
    for k, v in summary["head"].items():
        lines.append(f"| {k} | {v['n']} | {100 * v['exact']:.1f} |")
    return "\n".join(lines)
