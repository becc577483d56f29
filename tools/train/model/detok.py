"""Decodes ids of a byte-level BPE `tokenizer.json` back to text (GPT-2 byte-to-unicode alphabet),
so the evaluation can judge free-text arguments by their language."""

from __future__ import annotations

import json


def byte_alphabet() -> dict[str, int]:
    """The printable character that stands for each byte in byte-level BPE vocabularies."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    chars = list(printable)
    extra = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(printable, chars)}


class Detokenizer:
    def __init__(self, tokenizer_path: str):
        with open(tokenizer_path, encoding="utf-8") as f:
            data = json.load(f)
        self.pieces = {int(i): s for s, i in data["model"]["vocab"].items()}
        self.special = {int(t["id"]): t["content"] for t in data.get("added_tokens", [])}
        self.bytes_of = byte_alphabet()

    def decode(self, ids: list[int], skip_special: bool = True) -> str:
        out = bytearray()
        for i in ids:
            if i in self.special:
                if not skip_special:
                    out += self.special[i].encode("utf-8")
                continue
            for ch in self.pieces.get(i, ""):
                out.append(self.bytes_of.get(ch, ord("?")))
        return out.decode("utf-8", errors="replace")


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def in_language(text: str, lang: str) -> bool:
    """Chinese text has CJK characters; English text has Latin letters and none."""
    if lang == "zh":
        return has_cjk(text)
    return any(ch.isascii() and ch.isalpha() for ch in text) and not has_cjk(text)
