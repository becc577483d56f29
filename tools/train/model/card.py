"""The model card (README.md) of the exported rt-tiny directory, written from the training summary
and the held-out evaluation, so every figure in it was measured, none typed by hand."""

from __future__ import annotations

from .evaluate import format_summary


def human_bytes(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def format_ts_table(title: str, t: dict) -> str:
    """Markdown of one table written by `eval-tiny.ts --json` (counts, not rates)."""

    def pct(a: int, n: int) -> str:
        return f"{100 * a / n:.1f}" if n else "-"

    o = t["overall"]
    lines = [f"**{title}**: {o['n']} calls, exact {pct(o['exact'], o['n'])}%"]
    for key in ("scenario", "lang", "format"):
        lines += ["", f"| {key} | n | exact % | function % |", "|---|---:|---:|---:|"]
        for k, r in sorted(t[key].items()):
            lines.append(f"| {k} | {r['n']} | {pct(r['exact'], r['n'])} | {pct(r['fn'], r['n'])} |")
    lines += ["", "| head | n | exact % |", "|---|---:|---:|"]
    for k, r in t["heads"].items():
        lines.append(f"| {k} | {r['n']} | {pct(r['ok'], r['n'])} |")
    return "\n".join(lines)


def episodes_table(reports: list[dict]) -> str:
    """Markdown of the sim episodes `eval-tiny.ts --json` ran through rtool-server."""
    done = sum(1 for r in reports if r["completed"])
    lines = [
        f"**Sim episodes through rtool-server** (`tools/train/eval-episodes.ts`): {done} of {len(reports)} completed",
        "",
        "| episode | format | completed | steps met |",
        "|---|---|---|---:|",
    ]
    for r in reports:
        lines.append(f"| {r['episode']} | {r['format']} | {'yes' if r['completed'] else 'no'} | {r['stepsMet']}/{r['steps']} |")
    return "\n".join(lines)


def soup_row(summary: dict) -> str:
    """The table row naming a soup's ingredients (`soup.py`); empty for the weights of one run."""
    if not summary.get("soup"):
        return ""
    parts = ", ".join(f"{x['from']} × {x['weight']}" for x in summary["soup"])
    return f"| weights | mean of {parts} (`tools/train/soup.py`); the rows above are the last run's |\n"


def ts_section(ts_eval: dict | None) -> str:
    if not ts_eval:
        return ""
    tables = [
        ("Held-out requests (template held-out)", "heldout"),
        ("Held-out phrasing families (`data/frames.ts`, never emitted for training)", "families"),
        ("Copy set (held-out targets holding a string no training target holds)", "copy"),
        ("Scenario examples (`scenarios/*.json`, v1 and v2)", "examples"),
        (
            "Fresh phrasings (`tools/train/fresh-phrasings/`: hand-written, wordings and values the generator "
            "does not produce)",
            "fresh",
        ),
        (
            "Fresh phrasings 2 (`tools/train/fresh-phrasings-2/`: hand-written apart from the generator, "
            "by a writer who never read it)",
            "fresh2",
        ),
        (
            "Fresh phrasings 3 (`tools/train/fresh-phrasings-3/`: written like the second, by another writer who never "
            "read the generator; its failures are never read, so it stays the untouched judge)",
            "fresh3",
        ),
    ]
    parts = [
        format_ts_table(title, ts_eval[key])
        for title, key in tables
        if ts_eval.get(key, {}).get("overall", {}).get("n")
    ]
    if ts_eval.get("episodes"):
        parts.append(episodes_table(ts_eval["episodes"]))
    return (
        "## Accuracy through rtool (`bun run eval:tiny`)\n\n"
        "The same model served by rtool's TypeScript stack exactly as `rtool-server` runs it: ONNX Runtime, "
        "constrained multi-head decoding, calls typed against the tools' schemas. Exact = function and every "
        "argument equal after typing; `speak.text` must be non-empty and in the query's language. The scenario "
        "examples check only the arguments their files fix. The decoding is the callers' default, the copy nudge "
        "included (`copyBias` 3: tokens that copy a tool, a value or a name from the request get +3 on their "
        "logits, tokens towards a tool or value the order names, gives a parameter by name or says as a time "
        "or date the parameter asks for, up to +6, towards values it gives other parameters -6; when two "
        "arguments hold one value the weaker claim gives it up; see `docs/ARCHITECTURE.md`), so decode changes "
        "move these tables without new weights; "
        "`tools/train/phases.md` tells which decoding each phase's figures used.\n\n" + "\n\n".join(parts) + "\n\n"
    )


def model_card(
    summary: dict,
    evaluation: dict | None,
    data_stats: dict,
    files: dict[str, int],
    ts_eval: dict | None = None,
    history: str | None = None,
    heading: str = "rt-tiny",
    preface: str | None = None,
) -> str:
    """The model card; `heading` and `preface` name a checkpoint that is not the shipped model."""
    cfg = summary["config"]
    args = summary["args"]
    minutes = summary["train_seconds"] / 60
    eval_text = (
        format_summary(evaluation)
        if evaluation
        else "No held-out evaluation was run for this export."
    )
    scenarios = ", ".join(f"{k} ({v})" for k, v in sorted(data_stats.get("scenario", {}).items()))
    langs = ", ".join(f"{k} ({v})" for k, v in sorted(data_stats.get("lang", {}).items()))
    formats = ", ".join(f"{k} ({v})" for k, v in sorted(data_stats.get("format", {}).items()))
    reproduce = (
        history
        if history
        else "Reproduce end to end (data, training, export, this card): `bun run train:tiny`\n"
        f"(about {minutes + 5:.0f} minutes on this 2-core machine; more when the cores are shared)."
    )
    intro = (
        f"{preface}\n\nIt is meant to be rtool's embedded real-time function-calling model"
        if preface
        else "rtool's embedded real-time function-calling model"
    )
    file_rows = "\n".join(f"| `{name}` | {human_bytes(size)} |" for name, size in sorted(files.items()))
    return f"""---
license: apache-2.0
library_name: rtool
pipeline_tag: text-generation
tags: [function-calling, qwen3, multi-head-decoding, rtool]
---

# {heading}

{intro}: a {summary['parameters'] / 1e6:.2f}M-parameter
`Qwen3ForCausalLM` trained from scratch by the project's own tool (`tools/train/`), shipped in
`@rtool/model-rt-tiny` so `rtool-server` answers the reference scenarios offline with no download.
It is loaded through exactly the same code path as any Hugging Face Qwen3 checkpoint.

## How it is used

Multi-head parallel decoding: the prompt (v1 or v2 format, system + tools + environment + history +
query) is prefilled once, then the heads `<function>`, `<arg1>`..`<arg6>` are decoded in parallel,
each branch starting at position len(prompt) and ending at its stop tag (`</function>`, `</argN>`) or
`<|null|>` for an unused argument slot. The model was trained only on these head branches; it is
not a chat model.

## Architecture

| field | value |
|---|---|
| layers | {cfg['num_hidden_layers']} |
| hidden size | {cfg['hidden_size']} |
| intermediate size (SwiGLU) | {cfg['intermediate_size']} |
| attention heads / KV heads / head dim | {cfg['num_attention_heads']} / {cfg['num_key_value_heads']} / {cfg['head_dim']} |
| vocabulary (byte-level BPE, `tokenizer.json`) | {cfg['vocab_size']} |
| RoPE theta | {cfg['rope_theta']} |
| q/k RMSNorm, tied embeddings | yes, yes |
| parameters | {summary['parameters']:,} |
| stored dtype | float16 (`model.safetensors`) |

| file | size |
|---|---|
{file_rows}

## Data

Generated by `bun run data:tiny` (`tools/train/`): every reference scenario's tool set plus random
synthetic tool sets, English and Chinese, v1 and v2 prompt formats, with environment and history.
The worked examples in `shared/scenarios/*.json` and the held-out split were never trained on.

- training split: {summary['train_groups']:,} prompt groups, {summary['train_items']:,} queries
- scenarios (queries): {scenarios or 'n/a'}
- languages: {langs or 'n/a'}
- formats: {formats or 'n/a'}

## Training

Tree-packed: one copy of a group's system+tools prefix, then many queries behind it, each query's
head branches after it; attention lets a query see the prefix and itself, a head branch the prefix,
its query and itself; loss only on head value tokens and their stop markers.

| | |
|---|---|
| hardware | 2 shared CPU cores, PyTorch {summary.get('torch_version', '?')} (fp32{', bf16 autocast' if args.get('bf16') else ''}), {args['threads']} thread(s) |
| optimiser | AdamW (β 0.9/0.95, wd {args['weight_decay']}), peak lr {args['lr']}, {args['warmup']} warmup steps, cosine to {args['min_lr_ratio']}×, clip {args['clip']} |
| steps | {summary['steps']:,} (≈{summary['epochs']:.2f} epochs) |
| tokens read / loss tokens | {summary['tokens']:,} / {summary['target_tokens']:,} |
| throughput | {summary['tokens_per_s']:.0f} tokens/s |
| training time | {minutes:.1f} min |
| final training loss (per head token) | {summary['final_loss']:.4f} |
| seed | {args['seed']} |
{soup_row(summary)}
{reproduce}

## Held-out accuracy (Python evaluation)

Greedy multi-head decoding in PyTorch from the exported float16 weights; a head is correct when its
tokens equal the target exactly (value and stop marker), a query when every head is. This is
token-level exact match without rtool's schema constraints, so it is a lower bound for the served
model; free-text arguments (e.g. `speak.text`) are counted as exact too, which understates them.

{eval_text}

{ts_section(ts_eval)}## Limitations

{status_text(evaluation, ts_eval, summary, history is not None)}

It has no world knowledge and will fail on phrasings far from its training data. Always validate its
calls against the tools' schemas (rtool does).
"""


def status_text(evaluation: dict | None, ts_eval: dict | None, summary: dict, phased: bool = False) -> str:
    """The honest one-paragraph status: measured exact rate against issue 12's 95% goal."""
    rates = []
    if evaluation:
        rates.append(f"{100 * evaluation['overall']['exact']:.1f}% exact in the Python evaluation")
    if ts_eval and ts_eval["heldout"]["overall"]["n"]:
        o = ts_eval["heldout"]["overall"]
        rates.append(f"{100 * o['exact'] / o['n']:.1f}% exact through rtool")
    measured = " and ".join(rates) if rates else "not evaluated"
    trained = "several phases, hours in all," if phased else f"{summary['train_seconds'] / 60:.0f} minutes"
    return (
        f"**Status: far below the goal.** Issue 12 asks for at least 95% exact on every scenario in both "
        f"languages; this model reaches {measured} on held-out data. It was trained for "
        f"{trained} on two "
        "CPU cores (a few epochs of the generated data at most), which is not enough: it usually picks "
        "the right function for the reference scenarios but often fails to copy argument values "
        "(names, numbers, dates) from the prompt, and it almost never handles the synthetic (unseen) "
        "tool sets. Treat it as a working placeholder that exercises the whole pipeline, not as a "
        "usable function caller; more training compute (or a GPU) is the next step. In the per-head "
        "tables of the Python evaluation, unused argument slots (target `<|null|>`) count as heads, "
        "which is why the higher-numbered argument heads score higher there."
    )
