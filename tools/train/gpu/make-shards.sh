#!/usr/bin/env bash
# Packs built corpora into the GPU run's data shards: gzip'd train.jsonl of each corpus given (default:
# tools/train/out, and t2/ t3/ beside it when built with --train-seed 2/3), held-out split and the
# tokenizer files, all under DEST (default tools/train/out/gpu-shards). Refuses more than 60 MiB, the
# budget of what travels to the GPU machine with the working tree.
#
#   bash tools/train/gpu/make-shards.sh [DEST] [CORPUS_DIR ...]
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
out="$root/tools/train/out"
dest="${1:-$out/gpu-shards}"
shift || true
corpora=("$@")
if [ ${#corpora[@]} -eq 0 ]; then
  corpora=("$out")
  for extra in "$out/t2" "$out/t3"; do [ -f "$extra/READY" ] && corpora+=("$extra"); done
fi
rm -rf "$dest" && mkdir -p "$dest"
ref_tok="$(sha256sum < "${corpora[0]}/tokenizer.json")"
i=0
for c in "${corpora[@]}"; do
  [ -f "$c/READY" ] || { echo "make-shards: $c has no READY (run bun run data:tiny)" >&2; exit 1; }
  [ "$(sha256sum < "$c/tokenizer.json")" = "$ref_tok" ] || { echo "make-shards: $c uses another tokenizer" >&2; exit 1; }
  i=$((i + 1))
  gzip -c "$c/train.jsonl" > "$dest/train-$i.jsonl.gz"
done
gzip -c "${corpora[0]}/heldout.jsonl" > "$dest/heldout.jsonl.gz"
cp "${corpora[0]}/tokenizer.json" "${corpora[0]}/tokenizer_config.json" "$dest/"
bytes=$(du -sb "$dest" | cut -f1)
if [ "$bytes" -gt $((60 * 1024 * 1024)) ]; then
  echo "make-shards: $dest is $((bytes / 1024 / 1024)) MiB, over the 60 MiB budget" >&2
  exit 1
fi
echo "make-shards: ${#corpora[@]} corpora, $((bytes / 1024)) KiB in $dest"
