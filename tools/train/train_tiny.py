"""Trains rt-tiny, a small Qwen3-shaped multi-head function caller, on tree-packed groups.

Reads `train.jsonl` (one group per line: a shared prefix and items with head branches) and
`tokenizer.json` from --data, writes a resumable checkpoint, a log and `summary.json` to --out.
Deterministic for a given seed, thread count and step count. Offline developer tool: Debian's
/usr/bin/python3 with python3-torch; run it under `nice`, other work shares the cores.

Usage:
  nice -n 10 /usr/bin/python3 tools/train/train_tiny.py --steps 3000
  /usr/bin/python3 tools/train/train_tiny.py --bench 5      # measure tokens/s and exit
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from model.decode import read_special_ids, read_vocab_size  # noqa: E402
from model.hf_dir import load_hf_dir  # noqa: E402
from model.evaluate import evaluate_groups, format_summary, summarize  # noqa: E402
from model.packing import chunk_items, pack, packed_loss_sum, validate_group  # noqa: E402
from model.qwen3 import Qwen3Config, Qwen3ForCausalLM, count_parameters  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", default=os.path.join(HERE, "out"))
    p.add_argument("--out", default=os.path.join(HERE, "out", "run"))
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--threads", type=int, default=1, help="1 beats 2 when the cores are shared (measured)")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--intermediate", type=int, default=768)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--kv-heads", type=int, default=2)
    p.add_argument("--head-dim", type=int, default=64)
    p.add_argument("--rope-theta", type=float, default=10000.0)
    p.add_argument("--steps", type=int, default=6000)
    p.add_argument("--warmup", type=int, default=50)
    p.add_argument("--lr", type=float, default=1.5e-3)
    p.add_argument("--min-lr-ratio", type=float, default=0.05)
    p.add_argument("--weight-decay", type=float, default=0.05)
    p.add_argument("--clip", type=float, default=1.0)
    p.add_argument("--block-tokens", type=int, default=1536, help="max padded item tokens N*T per sequence")
    p.add_argument("--seqs-per-step", type=int, default=1)
    p.add_argument(
        "--rest-loss",
        type=float,
        default=0.0,
        help="weight of an auxiliary next-token loss on each item's user turn (environment, history, "
        "command), per token relative to a head token: it rewards copying a name from the roster "
        "into the command, the skill the argument heads lack (0: heads only, as before)",
    )
    p.add_argument(
        "--threads-file",
        help="a file holding a thread count, read every 20 steps: lets a long phase move from one core to "
        "two when the other work sharing the machine ends (two OpenMP threads stall while a core is busy)",
    )
    p.add_argument("--bf16", action=argparse.BooleanOptionalAction, default=True, help="bf16 autocast (measured ~1.7x faster here: AVX512-BF16)")
    p.add_argument(
        "--minutes",
        type=float,
        default=0,
        help="time budget: the lr decays over steps or minutes, whichever runs out first, and training "
        "ends there (0: steps only, fully reproducible)",
    )
    p.add_argument("--ckpt-minutes", type=float, default=4.0)
    p.add_argument("--eval-every", type=int, default=300, help="steps between quick held-out evals (0: off)")
    p.add_argument("--eval-items", type=int, default=80)
    p.add_argument("--resume", action="store_true")
    p.add_argument(
        "--init",
        help="start from the weights of an exported model directory (e.g. packages/model-rt-tiny/model): "
        "its shape replaces the shape flags; optimizer, step and schedule start afresh",
    )
    p.add_argument("--device", default="cpu", help="torch device: cpu, or cuda for tools/train/gpu/train.sh")
    p.add_argument("--bench", type=int, default=0, help="run N steps, print throughput, exit")
    return p.parse_args(argv)


def read_groups(path: str) -> list[dict]:
    groups = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f):
            if line.strip():
                group = json.loads(line)
                validate_group(group, f"{os.path.basename(path)}:{n + 1}")
                groups.append(group)
    return groups


def epoch_sequences(groups: list[dict], epoch: int, seed: int, block_tokens: int) -> list[tuple[int, list[dict]]]:
    """The epoch's training sequences, (group index, items), in a seeded random order."""
    rng = random.Random(seed * 100003 + epoch)
    seqs: list[tuple[int, list[dict]]] = []
    for g, group in enumerate(groups):
        items = list(group["items"])
        rng.shuffle(items)
        seqs += [(g, chunk) for chunk in chunk_items(items, block_tokens)]
    rng.shuffle(seqs)
    return seqs


def lr_at(step: int, args: argparse.Namespace, elapsed_s: float = 0.0) -> float:
    """Linear warmup, then cosine decay over whichever budget runs out first: steps or minutes."""
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    progress = min(1.0, (step - args.warmup) / max(1, args.steps - args.warmup))
    if args.minutes:
        progress = max(progress, min(1.0, elapsed_s / (args.minutes * 60)))
    floor = args.lr * args.min_lr_ratio
    return floor + (args.lr - floor) * 0.5 * (1 + math.cos(math.pi * progress))


def follow_threads_file(path: str, say) -> None:
    """Sets torch's thread count to the number in `path`, when it holds one that differs."""
    try:
        with open(path, encoding="utf-8") as f:
            wanted = int(f.read().strip())
    except (OSError, ValueError):
        return
    if wanted >= 1 and wanted != torch.get_num_threads():
        torch.set_num_threads(wanted)
        say(f"threads {wanted} (from {path})")


def fresh_window() -> dict:
    """The running sums of one logging window (head loss and accuracy, user-turn loss, tokens)."""
    return {"loss": 0.0, "targets": 0, "correct": 0, "tokens": 0, "aux": 0.0, "aux_targets": 0, "t0": time.time()}


def make_optimizer(model: torch.nn.Module, args: argparse.Namespace) -> torch.optim.Optimizer:
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    groups = [{"params": decay, "weight_decay": args.weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=args.lr, betas=(0.9, 0.95), eps=1e-8)


def save_checkpoint(path: str, state: dict) -> None:
    tmp = path + ".tmp"
    torch.save(state, tmp)
    os.replace(tmp, path)


def quick_eval(model, heldout, special, items) -> str:
    per_group = max(1, items // max(1, len(heldout)))
    sample = [{"prefix": g["prefix"], "items": g["items"][:per_group]} for g in heldout]
    records = evaluate_groups(model, sample, special, max_items=items)
    model.train()
    s = summarize(records)["overall"]
    return f"heldout n={s['n']} exact={100 * s['exact']:.1f}% function={100 * s['function']:.1f}%"


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    tokenizer = os.path.join(args.data, "tokenizer.json")
    cfg = Qwen3Config(
        vocab_size=read_vocab_size(tokenizer),
        hidden_size=args.hidden,
        intermediate_size=args.intermediate,
        num_hidden_layers=args.layers,
        num_attention_heads=args.heads,
        num_key_value_heads=args.kv_heads,
        head_dim=args.head_dim,
        rope_theta=args.rope_theta,
    )
    if args.init:
        # A later training phase continues from the shipped weights, which are all that a fresh
        # clone has of an earlier run (checkpoints are not committed).
        model = load_hf_dir(args.init).train()
        if model.cfg.vocab_size != cfg.vocab_size:
            sys.exit(f"--init {args.init}: vocabulary {model.cfg.vocab_size} differs from {tokenizer} ({cfg.vocab_size})")
        cfg = model.cfg
    else:
        model = Qwen3ForCausalLM(cfg)
    device = torch.device(args.device)
    model = model.to(device)
    optimizer = make_optimizer(model, args)
    groups = read_groups(os.path.join(args.data, "train.jsonl"))
    heldout_path = os.path.join(args.data, "heldout.jsonl")
    heldout = read_groups(heldout_path) if args.eval_every and os.path.exists(heldout_path) else []
    special = read_special_ids(tokenizer)
    ckpt_path = os.path.join(args.out, "ckpt.pt")
    log = open(os.path.join(args.out, "train.log"), "a", encoding="utf-8")

    def say(text: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {text}"
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()

    step, epoch, cursor, elapsed_before = 0, 0, 0, 0.0
    totals = {"tokens": 0, "targets": 0, "sequences": 0}
    if args.resume and os.path.exists(ckpt_path):
        state = torch.load(ckpt_path, map_location="cpu")
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        step, epoch, cursor = state["step"], state["epoch"], state["cursor"]
        elapsed_before, totals = state["elapsed_s"], state["totals"]
        torch.set_rng_state(state["torch_rng"])
        say(f"resumed at step {step} (epoch {epoch}, sequence {cursor})")
    items = sum(len(g["items"]) for g in groups)
    say(
        f"model {count_parameters(model) / 1e6:.2f}M params {json.dumps(cfg.to_dict())}; "
        f"data {len(groups)} groups, {items} items; threads {torch.get_num_threads()}"
    )
    sequences = epoch_sequences(groups, epoch, args.seed, args.block_tokens)
    model.train()
    start = time.time()
    last_ckpt = start
    window = fresh_window()
    last_loss = float("nan")
    end_step = step + args.bench if args.bench else args.steps
    ended_by_time = False

    def save_state() -> None:
        nonlocal last_ckpt
        save_checkpoint(
            ckpt_path,
            {
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "config": cfg.to_dict(),
                "step": step,
                "epoch": epoch,
                "cursor": cursor,
                "elapsed_s": elapsed_before + time.time() - start,
                "totals": totals,
                "torch_rng": torch.get_rng_state(),
                "args": vars(args),
            },
        )
        last_ckpt = time.time()

    while step < end_step:
        elapsed_now = elapsed_before + time.time() - start
        if args.minutes and elapsed_now > args.minutes * 60:
            say(f"time budget of {args.minutes} min reached at step {step} of {end_step}")
            ended_by_time = True
            end_step = step
            break
        if args.threads_file and step % 20 == 0:
            follow_threads_file(args.threads_file, say)
        for group in optimizer.param_groups:
            group["lr"] = lr_at(step, args, elapsed_now)
        optimizer.zero_grad(set_to_none=True)
        packed = []
        for _ in range(args.seqs_per_step):
            if cursor >= len(sequences):
                epoch, cursor = epoch + 1, 0
                sequences = epoch_sequences(groups, epoch, args.seed, args.block_tokens)
                say(f"epoch {epoch}")
            g, chunk = sequences[cursor]
            cursor += 1
            packed.append(pack(groups[g]["prefix"], chunk, rest_targets=args.rest_loss > 0).to(device))
        n_targets = sum(p.num_targets for p in packed)
        for seq in packed:
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=args.bf16):
                loss_sum, correct, aux_sum = packed_loss_sum(model, seq)
            objective = loss_sum if aux_sum is None else loss_sum + args.rest_loss * aux_sum
            (objective / n_targets).backward()
            if aux_sum is not None:
                window["aux"] += float(aux_sum)
                window["aux_targets"] += int(seq.aux_labels.shape[0])
            window["loss"] += float(loss_sum)
            window["correct"] += int(correct)
            window["tokens"] += seq.real_tokens
            totals["tokens"] += seq.real_tokens
            totals["sequences"] += 1
        window["targets"] += n_targets
        totals["targets"] += n_targets
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        optimizer.step()
        step += 1
        if step % 10 == 0 or step == end_step:
            dt = time.time() - window["t0"]
            last_loss = window["loss"] / max(1, window["targets"])
            say(
                f"step {step}/{args.steps} loss {last_loss:.4f} acc {window['correct'] / max(1, window['targets']):.3f} "
                + (f"rest-loss {window['aux'] / max(1, window['aux_targets']):.3f} " if window["aux_targets"] else "")
                + f"lr {optimizer.param_groups[0]['lr']:.2e} tok/s {window['tokens'] / dt:.0f} "
                f"targets/s {window['targets'] / dt:.0f} elapsed {(elapsed_before + time.time() - start) / 60:.1f}m"
            )
            window = fresh_window()
        if args.eval_every and heldout and step % args.eval_every == 0:
            say(quick_eval(model, heldout, special, args.eval_items))
        if not args.bench and (time.time() - last_ckpt > args.ckpt_minutes * 60 or step == end_step):
            save_state()
            say(f"checkpoint step {step}")
    if ended_by_time:
        save_state()

    elapsed = elapsed_before + time.time() - start
    summary = {
        "steps": step,
        "planned_steps": args.steps,
        "ended_by_time": ended_by_time,
        "epochs": epoch + cursor / max(1, len(sequences)),
        "train_seconds": round(elapsed, 1),
        "final_loss": last_loss,
        "tokens": totals["tokens"],
        "target_tokens": totals["targets"],
        "tokens_per_s": round(totals["tokens"] / max(1e-9, elapsed), 1),
        "parameters": count_parameters(model),
        "config": cfg.to_dict(),
        "train_groups": len(groups),
        "train_items": items,
        "args": vars(args),
    }
    if args.bench:
        say(f"bench: {json.dumps(summary)}")
        return
    with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
    if heldout:
        say(quick_eval(model, heldout, special, args.eval_items))
    say(f"done: {step} steps in {elapsed / 60:.1f} min, final loss {last_loss:.4f}")


if __name__ == "__main__":
    main()
