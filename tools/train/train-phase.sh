#!/usr/bin/env bash
# `bun run train:tiny -- PHASE [MINUTES]`: one bounded training phase of rt-tiny 2, ending with
# exported weights in tools/train/checkpoints/rt-tiny-2 (committed after every phase), so the next
# phase, in this session or a later one, starts from what is committed and nothing depends on a
# process outliving the session that started it.
#
#   phase 1: data:tiny (train seed 1), random weights, peak lr 1.5e-3
#   phase N: a fresh corpus (train seed N, same held-out split) from the committed weights, peak lr 5e-4
#
# MINUTES (default 95) is the phase's time budget: warmup, then a cosine decay over it. The phase
# table lives in tools/train/phases-rt-tiny-2.md and goes into the model card. Shipping a phase as
# the default model (packages/model-rt-tiny/model) is a separate, measured decision:
# `bun run eval:tiny -- --model tools/train/checkpoints/rt-tiny-2` against the shipped one.
set -euo pipefail
cd "$(dirname "$0")/../.."
phase="${1:?usage: train-phase.sh PHASE [MINUTES]}"
minutes="${2:-95}"
py=/usr/bin/python3
out=tools/train/out
ckpt=tools/train/checkpoints/rt-tiny-2
run="$out/run2-phase$phase"
if [ "$phase" = 1 ]; then
  data="$out"
  bun tools/train/build-data.ts
  init=(--lr 1.5e-3 --warmup 100)
else
  data="$out/t$phase"
  bun tools/train/build-data.ts --train-seed "$phase" --out "$data"
  [ -f "$ckpt/model.safetensors" ] || { echo "train-phase: $ckpt has no weights; run phase 1 first" >&2; exit 1; }
  init=(--init "$ckpt" --lr 5e-4 --warmup 30)
fi
mkdir -p "$run"
"$py" tools/train/train_tiny.py --data "$data" --out "$run" "${init[@]}" \
  --minutes "$minutes" --steps 1000000 --threads 2 --eval-every 0 --seed "$((20 + phase))"
"$py" tools/train/export_tiny.py --run "$run" --data "$data" --dest "$ckpt" --per-group 3 \
  --history tools/train/phases-rt-tiny-2.md
bun tools/train/eval-tiny.ts --model "$ckpt" --json "$run/ts-eval.json" --failures "$run/failures.jsonl"
"$py" tools/train/export_tiny.py --run "$run" --data "$data" --dest "$ckpt" --card-only \
  --history tools/train/phases-rt-tiny-2.md --ts-eval "$run/ts-eval.json"
