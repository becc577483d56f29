#!/usr/bin/env bash
# `bun run train:tiny -- PHASE [MINUTES]`: one bounded training phase of rt-tiny 2, ending with
# exported weights in tools/train/checkpoints/rt-tiny-2 (committed after every phase), so the next
# phase, in this session or a later one, starts from what is committed and nothing depends on a
# process outliving the session that started it.
#
#   phase 1: data:tiny (train seed 1), random weights, peak lr 1.5e-3
#   phase 2: a fresh corpus (train seed 2, same held-out split) from the committed weights, peak lr 5e-4
#   phase N >= 3: a fresh corpus (train seed N), its scenario-focused subset (every scenario group,
#            one synthetic group in SYNTHETIC_EVERY, default 4), from the committed weights, peak lr
#            6e-4: rt-tiny's own curve rose most on the focused subset at that rate (phases.md)
#   phase N >= 4: as N >= 3, plus an auxiliary next-token loss on the user turn (REST_LOSS, default
#            0.25 per token): three phases of head-only loss did not teach the heads to copy (copy set
#            2-3%), and predicting a name in the command from the roster is that skill, on ~7x more
#            loss-bearing tokens per forward
#
# Environment: REUSE_DATA=1 (train on the phase's corpus already in tools/train/out), THREADS (default 2; 1 when other work shares the cores: two OpenMP threads stall
# whenever one core is busy; the run rereads $run/threads every 20 steps, so `echo 2 > $run/threads`
# moves it to both cores when the other work ends), LR (peak learning rate, overrides the phase default), REST_LOSS (weight of the user-turn loss).
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
  [ -f "$ckpt/model.safetensors" ] || { echo "train-phase: $ckpt has no weights; run phase 1 first" >&2; exit 1; }
  data="$out/t$phase"
  # REUSE_DATA=1 keeps a corpus built earlier (e.g. a phase restarted); by default it is rebuilt, so
  # a changed generator never trains on a stale corpus
  if [ "${REUSE_DATA:-0}" != 1 ] || [ ! -f "$data/train.jsonl" ]; then
    bun tools/train/build-data.ts --train-seed "$phase" --out "$data"
    rm -rf "$data/focus"
  fi
  lr=5e-4
  if [ "$phase" -ge 3 ]; then
    [ -f "$data/focus/train.jsonl" ] || "$py" tools/train/focus_data.py --data "$data" --dest "$data/focus" --synthetic-every "${SYNTHETIC_EVERY:-4}"
    data="$data/focus"
    lr=6e-4
  fi
  init=(--init "$ckpt" --lr "${LR:-$lr}" --warmup 30)
  if [ "$phase" -ge 4 ]; then init+=(--rest-loss "${REST_LOSS:-0.25}"); fi
fi
mkdir -p "$run"
echo "${THREADS:-2}" > "$run/threads"
"$py" tools/train/train_tiny.py --data "$data" --out "$run" "${init[@]}" \
  --minutes "$minutes" --steps 1000000 --threads "${THREADS:-2}" --threads-file "$run/threads" --eval-every 0 --seed "$((20 + phase))"
card=(--history tools/train/phases-rt-tiny-2.md
  --heading "rt-tiny 2, phase $phase: a training checkpoint (not the shipped model)"
  --preface "The weights the next phase of rt-tiny 2 starts from (\`bun run train:tiny -- $((phase + 1))\`); the default model is still rt-tiny in \`packages/model-rt-tiny\` (see the phase table below).")
"$py" tools/train/export_tiny.py --run "$run" --data "$data" --dest "$ckpt" --per-group 3 "${card[@]}"
bun tools/train/eval-tiny.ts --model "$ckpt" --json "$run/ts-eval.json" --failures "$run/failures.jsonl"
"$py" tools/train/export_tiny.py --run "$run" --data "$data" --dest "$ckpt" --card-only \
  "${card[@]}" --ts-eval "$run/ts-eval.json"
