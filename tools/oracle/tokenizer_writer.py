"""A tiny byte-level BPE tokenizer in the Hugging Face `tokenizer.json` format.

256 GPT-2 byte symbols, a few dozen merges of common English pairs, and the
special tokens rtool's prompts and heads use. Small enough to keep fixtures
tiny, real enough that the `tokenizers` library loads and runs it.
"""

import re

# Merges in rank order; "Ġ" is the byte-level symbol for a space, "Ċ" for "\n".
MERGES = [
    ("Ġ", "t"), ("Ġ", "l"), ("e", "f"), ("h", "e"), ("i", "n"), ("Ġ", "a"), ("e", "r"), ("o", "n"),
    ("Ġt", "he"), ("r", "e"), ("Ġ", "s"), ("a", "t"), ("e", "n"), ("o", "r"),
    ("Ġ", "o"), ("Ġ", "w"), ("e", "s"), ("a", "n"), ("i", "s"), ("in", "g"),
    ("Ġ", "c"), ("Ġ", "f"), ("Ġ", "m"), ("Ġ", "p"), ("o", "u"), ("l", "e"),
    ("Ġ", "b"), ("a", "r"), ("Ġ", "d"), ("e", "d"), ("Ġ", "i"), ("Ġo", "f"),
    ("n", "d"), ("Ġa", "nd"), ("Ġt", "o"), ("i", "t"), ("o", "v"), ("Ġm", "ov"),
    ("Ġmov", "e"), ("Ġf", "i"), ("Ġfi", "re"), ("Ġl", "ef"),
    ("Ġlef", "t"), ("Ġ", "r"), ("i", "g"), ("h", "t"), ("ig", "ht"), ("Ġr", "ight"),
    ("Ġ", "u"), ("Ġu", "p"), ("Ġ", "n"), ("s", "t"), ("Ġ", "h"), ("Ġ", "g"),
    ("Ġ", "e"), ("r", "o"), ("a", "l"), ("u", "s"), ("us", "er"), ("Ġ", "x"),
]

# Added special tokens, in id order right after the BPE vocabulary.
SPECIAL_TOKENS = (
    ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<function>", "</function>"]
    + [f"<arg{i}>" for i in range(1, 7)]
    + [f"</arg{i}>" for i in range(1, 7)]
    + ["<content>", "</content>", "<|null|>"]
)


def bytes_to_unicode() -> dict:
    """GPT-2's reversible map from each byte to a printable unicode symbol."""
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    symbols = printable[:]
    extra = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            symbols.append(256 + extra)
            extra += 1
    return {b: chr(s) for b, s in zip(printable, symbols)}


def build_vocab() -> dict:
    """BPE vocabulary: byte symbols in byte order, then one entry per merge."""
    byte_symbols = bytes_to_unicode()
    vocab = {byte_symbols[b]: b for b in range(256)}
    for left, right in MERGES:
        assert left in vocab and right in vocab, (left, right)
        merged = left + right
        assert merged not in vocab, merged
        vocab[merged] = len(vocab)
    return vocab


def special_token_ids() -> dict:
    """Ids of the added special tokens."""
    base = len(build_vocab())
    return {tok: base + i for i, tok in enumerate(SPECIAL_TOKENS)}


def tokenizer_size() -> int:
    """Number of ids the tokenizer defines (BPE vocabulary plus special tokens)."""
    return len(build_vocab()) + len(SPECIAL_TOKENS)


def build_tokenizer_json() -> dict:
    """The full `tokenizer.json` document."""
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": True}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {
                "id": tid,
                "content": tok,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
            for tok, tid in special_token_ids().items()
        ],
        "normalizer": None,
        "pre_tokenizer": byte_level,
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": True},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,
            "vocab": build_vocab(),
            "merges": [f"{left} {right}" for left, right in MERGES],
        },
    }


def build_tokenizer_config_json() -> dict:
    """`tokenizer_config.json` in the shape Qwen checkpoints ship."""
    ids = special_token_ids()
    return {
        "add_bos_token": False,
        "add_prefix_space": False,
        "added_tokens_decoder": {
            str(tid): {
                "content": tok,
                "lstrip": False,
                "normalized": False,
                "rstrip": False,
                "single_word": False,
                "special": True,
            }
            for tok, tid in ids.items()
        },
        "additional_special_tokens": [t for t in SPECIAL_TOKENS if t != "<|endoftext|>"],
        "bos_token": None,
        "clean_up_tokenization_spaces": False,
        "eos_token": "<|im_end|>",
        "errors": "replace",
        "model_max_length": 512,
        "pad_token": "<|endoftext|>",
        "split_special_tokens": False,
        "tokenizer_class": "Qwen2Tokenizer",
        "unk_token": None,
    }


# GPT-2's pre-tokenizer pattern restricted to ASCII (Python's `re` has no \p{L});
# the fixtures' texts are ASCII, which `encode` asserts.
_ASCII_PRETOKENIZE = re.compile(
    r"""'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+"""
)


def _bpe(word: str, ranks: dict) -> list:
    """Applies merges to one pre-token, lowest rank first, as the BPE model does."""
    parts = list(word)
    while len(parts) > 1:
        pairs = [(ranks.get((a, b), len(ranks)), i) for i, (a, b) in enumerate(zip(parts, parts[1:]))]
        rank, i = min(pairs)
        if rank == len(ranks):
            break
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return parts


def encode(text: str) -> list:
    """Token ids of ASCII `text`: special tokens split out first, then byte-level BPE.

    A small independent encoder for the golden inputs; the TS tests check that
    the `tokenizers` library gives the same ids for the same text.
    """
    assert text.isascii(), "the oracle's encoder only handles ASCII text"
    vocab = build_vocab()
    specials = special_token_ids()
    ranks = {pair: i for i, pair in enumerate(MERGES)}
    byte_symbols = bytes_to_unicode()
    split = re.compile("(" + "|".join(re.escape(t) for t in SPECIAL_TOKENS) + ")")
    ids = []
    for chunk in split.split(text):
        if chunk in specials:
            ids.append(specials[chunk])
            continue
        for word in _ASCII_PRETOKENIZE.findall(chunk):
            symbols = "".join(byte_symbols[b] for b in word.encode("utf-8"))
            ids.extend(vocab[p] for p in _bpe(symbols, ranks))
    return ids
