"""Held-out evaluation with multi-head greedy decoding: exact match of the function head and of every
argument head, reported per scenario, language, prompt format and head.
"""

from __future__ import annotations

import glob
import json
import os
from collections import defaultdict

import torch

from .decode import greedy_heads, prompt_context, stop_ids
from .detok import Detokenizer, in_language
from .qwen3 import Qwen3ForCausalLM

GROUP_KEYS = ("scenario", "lang", "format")

# Arguments whose value is free text, judged as issue 12 asks: non-empty, in the query's language.
FREE_TEXT_PARAMS = {"speak": ("text",)}


def free_text_heads(scenario_dir: str) -> dict[tuple[str, str], set[str]]:
    """(scenario, function) -> head names ("argN") of its free-text parameters, from the scenario files."""
    out: dict[tuple[str, str], set[str]] = {}
    for path in sorted(glob.glob(os.path.join(scenario_dir, "*.json"))):
        with open(path, encoding="utf-8") as f:
            scenario = json.load(f)
        stem = os.path.splitext(os.path.basename(path))[0]
        for tool in scenario.get("tools", []):
            fn = tool["function"]
            names = list(fn.get("parameters", {}).get("properties", {}))
            free = {f"arg{names.index(p) + 1}" for p in FREE_TEXT_PARAMS.get(fn["name"], ()) if p in names}
            if free:
                out[(stem, fn["name"])] = free
    return out


def judge_free_text(expected: list[int], got: list[int], lang: str, detok: Detokenizer) -> bool:
    """Right stop marker, at least one value token, and text in the query's language."""
    if len(got) < 2 or got[-1] != expected[-1]:
        return False
    return in_language(detok.decode(got[:-1]), lang)


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
    free_text: dict[tuple[str, str], set[str]] | None = None,
    detok: Detokenizer | None = None,
) -> list[dict]:
    """One record per evaluated item: its meta, and per head the expected and decoded tokens.
    A head is `ok` when its tokens equal the target, or, for a free-text head (needs `detok`),
    when it passes judge_free_text; `exact` is the plain token comparison."""
    model.eval()
    free_text = free_text or {}
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
            meta = item.get("meta", {})
            free = free_text.get((meta.get("scenario"), meta.get("function")), set()) if detok else set()
            # a head still running past its target's length can no longer match it exactly (free text can)
            longest = max(len(e) for e in expected)
            cap = max_tokens if free else min(max_tokens, longest + 1)
            got = greedy_heads(model, context, forced, stop, max_tokens=cap)
            heads = []
            for f, e, g in zip(forced, expected, got):
                name = head_name(f[0], names_by_id)
                ok = e == g or (name in free and judge_free_text(e, g, meta.get("lang", "en"), detok))
                heads.append({"head": name, "expected": e, "got": g, "ok": ok, "exact": e == g, "free": name in free})
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
