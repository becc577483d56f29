#!/usr/bin/env bash
# rt-tiny 2 on one GPU: the prepared run for a lent GPU machine (about 8 minutes in all). Trains from
# pre-built shards (make-shards.sh), optionally from committed weights (INIT=DIR), then exports a
# Hugging Face directory with its model card into DEST. The same script runs on the CPU here with a
# few steps (SMOKE=1), which is what tools/train/test_tiny.py checks.
#
#   bash tools/train/gpu/train.sh SHARDS DEST
#   env: MINUTES (default 7), INIT (a model directory to start from), DEVICE (default cuda),
#        LR (default 1e-3 from random weights, 4e-4 with INIT), REST_LOSS (weight of the user-turn
#        loss, default 0.25 as in CPU phases >= 4; 0 for heads only), SMOKE=1 (cpu, 3 steps, no time budget)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
shards="${1:?usage: train.sh SHARDS DEST}"
dest="${2:?usage: train.sh SHARDS DEST}"
py=python3
python3 -c "import torch" 2>/dev/null || py=/usr/bin/python3
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
say() { echo "[gpu/train.sh $(($(date +%s) - started))s] $*"; }

# Shards -> one data directory in the trainer's format (train.jsonl is every corpus, concatenated).
mkdir -p "$work/data"
cat "$shards"/train-*.jsonl.gz | gunzip > "$work/data/train.jsonl"
gunzip -c "$shards/heldout.jsonl.gz" > "$work/data/heldout.jsonl"
cp "$shards/tokenizer.json" "$shards/tokenizer_config.json" "$work/data/"
say "data: $(wc -l < "$work/data/train.jsonl") groups"

args=(--data "$work/data" --out "$work/run" --eval-every 0 --seed 31 --rest-loss "${REST_LOSS:-0.25}")
if [ -n "${INIT:-}" ]; then args+=(--init "$INIT" --lr "${LR:-4e-4}" --warmup 30); else args+=(--lr "${LR:-1e-3}" --warmup 200); fi
if [ "${SMOKE:-0}" = 1 ]; then
  args+=(--device cpu --steps 3 --minutes 0 --threads 2)
else
  "$py" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 'gpu/train.sh: torch sees no CUDA device')"
  nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
  # A GPU wants big sequences: many items behind one prefix, several sequences a step.
  args+=(--device "${DEVICE:-cuda}" --minutes "${MINUTES:-7}" --steps 1000000 --block-tokens 16384 --seqs-per-step 8 --ckpt-minutes 2)
fi
mkdir -p "$work/run"
"$py" "$here/../train_tiny.py" "${args[@]}"
say "trained; exporting to $dest"
export_args=(--run "$work/run" --data "$work/data" --dest "$dest" --per-group 1)
[ "${SMOKE:-0}" = 1 ] && export_args+=(--skip-eval)
"$py" "$here/../export_tiny.py" "${export_args[@]}"
say "done: $dest"
