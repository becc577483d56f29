"""Tree packing: one copy of a group's prefix, then several items, each item = its `rest` followed by
its head branches, laid out as blocks behind the prefix (see qwen3.py).

Within an item block: `rest` is causal and sees the prefix; each head branch sees the prefix, its
item's rest and itself (causal), never other items or other heads. Positions: every item's rest
starts at len(prefix), every head of an item at len(prefix) + len(rest), as in inference where each
head branch starts at position n. Loss: head tokens from `target_from` on, each predicted from the
token before it in the same branch (so the first value token is predicted from the tag).
Optionally (`rest_targets`), an auxiliary next-token loss on each item's `rest` (the user turn:
environment, history, command): predicting a name in the command from the roster it was taken
from is the copying the heads need, and it is many more loss-bearing tokens per forward.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


class DatasetFormatError(ValueError):
    """A dataset line does not have the documented shape; names the field."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field


@dataclass
class PackedSequence:
    prefix_ids: torch.Tensor  # [P]
    item_ids: torch.Tensor  # [N, T]
    item_positions: torch.Tensor  # [N, T]
    item_mask: torch.Tensor  # [N, T, T] bool
    item_valid: torch.Tensor  # [N, T] bool, False at pads
    target_index: torch.Tensor  # [M] flat index into N*T: the token whose hidden predicts the label
    labels: torch.Tensor  # [M]
    real_tokens: int  # prefix + unpadded item tokens (what the model really had to read)
    aux_index: torch.Tensor | None = None  # [A] flat index into N*T: rest tokens predicting the next rest token
    aux_labels: torch.Tensor | None = None  # [A]

    def to(self, device: torch.device | str) -> "PackedSequence":
        """The same sequence with every tensor on `device` (the GPU path of train_tiny.py)."""
        moved = {k: v.to(device, non_blocking=True) if isinstance(v, torch.Tensor) else v for k, v in vars(self).items()}
        return PackedSequence(**moved)

    @property
    def num_targets(self) -> int:
        return int(self.labels.shape[0])


def item_length(item: dict) -> int:
    return len(item["rest"]) + sum(len(h) for h in item["heads"])


def validate_group(group: dict, where: str = "group") -> None:
    if not isinstance(group.get("prefix"), list) or not group["prefix"]:
        raise DatasetFormatError(f"{where}.prefix", "must be a non-empty list of token ids")
    items = group.get("items")
    if not isinstance(items, list) or not items:
        raise DatasetFormatError(f"{where}.items", "must be a non-empty list")
    for i, item in enumerate(items):
        heads, starts = item.get("heads"), item.get("target_from")
        if not isinstance(item.get("rest"), list) or not item["rest"]:
            raise DatasetFormatError(f"{where}.items[{i}].rest", "must be a non-empty list of token ids")
        if not isinstance(heads, list) or not isinstance(starts, list) or len(heads) != len(starts):
            raise DatasetFormatError(f"{where}.items[{i}].target_from", "needs one entry per head")
        for h, (head, start) in enumerate(zip(heads, starts)):
            if not 1 <= start < len(head):
                raise DatasetFormatError(
                    f"{where}.items[{i}].target_from[{h}]", f"{start} outside 1..{len(head) - 1}"
                )


def chunk_items(items: list[dict], max_block_tokens: int) -> list[list[dict]]:
    """Greedy split of a group's items into chunks whose padded block area N*T stays under budget."""
    chunks: list[list[dict]] = []
    current: list[dict] = []
    longest = 0
    for item in items:
        t = item_length(item)
        if current and (len(current) + 1) * max(longest, t) > max_block_tokens:
            chunks.append(current)
            current, longest = [], 0
        current.append(item)
        longest = max(longest, t)
    if current:
        chunks.append(current)
    return chunks


def pack(prefix: list[int], items: list[dict], rest_targets: bool = False) -> PackedSequence:
    """Lays out prefix + items as blocks with their masks, positions and loss targets
    (`rest_targets`: also the auxiliary next-token targets inside each item's rest)."""
    p = len(prefix)
    n = len(items)
    t_max = max(item_length(it) for it in items)
    ids = torch.zeros(n, t_max, dtype=torch.long)
    pos = torch.zeros(n, t_max, dtype=torch.long)
    branch = torch.full((n, t_max), -1, dtype=torch.long)  # -1 pad, 0 rest, h+1 head h
    target_index: list[int] = []
    labels: list[int] = []
    aux_index: list[int] = []
    aux_labels: list[int] = []
    real = p
    for i, item in enumerate(items):
        rest = item["rest"]
        r = len(rest)
        ids[i, :r] = torch.tensor(rest)
        pos[i, :r] = torch.arange(p, p + r)
        branch[i, :r] = 0
        if rest_targets:
            aux_index += [i * t_max + j - 1 for j in range(1, r)]
            aux_labels += rest[1:]
        cursor = r
        for h, (head, start) in enumerate(zip(item["heads"], item["target_from"])):
            length = len(head)
            ids[i, cursor : cursor + length] = torch.tensor(head)
            pos[i, cursor : cursor + length] = torch.arange(p + r, p + r + length)
            branch[i, cursor : cursor + length] = h + 1
            for j in range(start, length):
                target_index.append(i * t_max + cursor + j - 1)
                labels.append(head[j])
            cursor += length
        real += cursor
    q_branch = branch[:, :, None]
    k_branch = branch[:, None, :]
    causal = torch.ones(t_max, t_max, dtype=torch.bool).tril()[None]
    mask = causal & (k_branch >= 0) & ((k_branch == 0) | (k_branch == q_branch))
    # a pad query sees only itself, so its softmax row stays finite
    mask = mask | torch.eye(t_max, dtype=torch.bool)[None]
    return PackedSequence(
        prefix_ids=torch.tensor(prefix, dtype=torch.long),
        item_ids=ids,
        item_positions=pos,
        item_mask=mask,
        item_valid=branch >= 0,
        target_index=torch.tensor(target_index, dtype=torch.long),
        labels=torch.tensor(labels, dtype=torch.long),
        real_tokens=real,
        aux_index=torch.tensor(aux_index, dtype=torch.long) if rest_targets else None,
        aux_labels=torch.tensor(aux_labels, dtype=torch.long) if rest_targets else None,
    )


def packed_hidden(model, seq: PackedSequence, index: torch.Tensor | None = None) -> torch.Tensor:
    """Hidden states at the loss positions (`index`, default the head targets), [M, D]: prefix
    pass, then all items behind it."""
    _, prefix_kv = model.causal(seq.prefix_ids)
    hidden, _ = model.blocks(
        seq.item_ids, seq.item_positions, seq.item_mask, context=prefix_kv, valid=seq.item_valid
    )
    # hidden holds the real tokens only, in order: map grid indices to their rank among them
    rank = seq.item_valid.reshape(-1).long().cumsum(0) - 1
    if index is None:
        return hidden.index_select(0, rank.index_select(0, seq.target_index))
    return hidden.index_select(0, rank.index_select(0, index))


def packed_loss_sum(model, seq: PackedSequence) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
    """Summed cross-entropy over the sequence's head targets, the number of correct argmaxes, and
    the summed auxiliary loss over the rest targets (None when the sequence has none)."""
    aux = seq.aux_index is not None and seq.aux_index.numel() > 0
    index = torch.cat([seq.target_index, seq.aux_index]) if aux else None
    hidden = packed_hidden(model, seq, index)
    # the tied head in float32 even under bf16 autocast: it is cheap (targets only) and sets the loss
    with torch.autocast(hidden.device.type, enabled=False):
        logits = model.logits(hidden.float())
    m = seq.labels.shape[0]
    head_logits = logits[:m]
    loss = torch.nn.functional.cross_entropy(head_logits, seq.labels, reduction="sum")
    correct = (head_logits.argmax(-1) == seq.labels).sum()
    aux_loss = torch.nn.functional.cross_entropy(logits[m:], seq.aux_labels, reduction="sum") if aux else None
    return loss, correct, aux_loss
