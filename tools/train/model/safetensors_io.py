"""Minimal safetensors writer and reader (8-byte little-endian header length, JSON header, raw data).

Written here so the offline tool needs nothing beyond torch and numpy.
"""

from __future__ import annotations

import json
import struct

import numpy as np
import torch

_DTYPES = {torch.float16: "F16", torch.bfloat16: "BF16", torch.float32: "F32"}
_FROM_NAME = {"F16": torch.float16, "BF16": torch.bfloat16, "F32": torch.float32}


class SafetensorsError(ValueError):
    """A tensor or file that cannot be written or read; names the tensor or file."""

    def __init__(self, subject: str, message: str):
        super().__init__(f"{subject}: {message}")
        self.subject = subject


def _raw_bytes(name: str, tensor: torch.Tensor) -> bytes:
    if tensor.dtype not in _DTYPES:
        raise SafetensorsError(name, f"unsupported dtype {tensor.dtype}")
    t = tensor.detach().contiguous().cpu()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().astype("<i2").tobytes()
    return t.numpy().astype(t.numpy().dtype.newbyteorder("<")).tobytes()


def write_safetensors(path: str, tensors: dict[str, torch.Tensor], metadata: dict[str, str] | None = None) -> None:
    """Writes tensors (sorted by name) with a space-padded header aligned to 8 bytes."""
    header: dict[str, object] = {"__metadata__": metadata or {"format": "pt"}}
    blobs: list[bytes] = []
    offset = 0
    for name in sorted(tensors):
        blob = _raw_bytes(name, tensors[name])
        header[name] = {
            "dtype": _DTYPES[tensors[name].dtype],
            "shape": list(tensors[name].shape),
            "data_offsets": [offset, offset + len(blob)],
        }
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def read_safetensors(path: str) -> dict[str, torch.Tensor]:
    """Reads every tensor of a file written by any safetensors writer (F16, BF16, F32)."""
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    base = 8 + length
    out: dict[str, torch.Tensor] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = info["dtype"]
        if dtype not in _FROM_NAME:
            raise SafetensorsError(f"{path}:{name}", f"unsupported dtype {dtype}")
        start, end = info["data_offsets"]
        raw = data[base + start : base + end]
        if dtype == "BF16":
            arr = np.frombuffer(raw, dtype="<i2").copy()
            t = torch.from_numpy(arr).view(torch.bfloat16)
        else:
            arr = np.frombuffer(raw, dtype="<f2" if dtype == "F16" else "<f4").copy()
            t = torch.from_numpy(arr)
        out[name] = t.reshape(info["shape"])
    return out
