"""Writes safetensors files without the `safetensors` package.

Format: 8-byte little-endian header length, a JSON header mapping each tensor
name to {dtype, shape, data_offsets}, optional "__metadata__", then the raw
little-endian bytes of every tensor back to back.
"""

import json
import struct

import torch

# torch dtype -> (safetensors dtype name, bytes per element)
_DTYPES = {
    torch.float32: ("F32", 4),
    torch.float16: ("F16", 2),
    torch.bfloat16: ("BF16", 2),
    torch.int32: ("I32", 4),
    torch.int64: ("I64", 8),
    torch.int8: ("I8", 1),
    torch.uint8: ("U8", 1),
}


def tensor_bytes(tensor: torch.Tensor) -> bytes:
    """Raw little-endian bytes of a tensor in its own dtype."""
    tensor = tensor.detach().contiguous().cpu()
    if tensor.dtype == torch.bfloat16:
        # numpy has no bfloat16; the int16 view carries the same bits.
        tensor = tensor.view(torch.int16)
    data = tensor.numpy()
    if data.dtype.byteorder == ">":
        data = data.byteswap()
    return data.tobytes()


def encode_safetensors(tensors: dict, metadata: dict | None = None) -> bytes:
    """Serialises {name: tensor} to safetensors bytes.

    Tensors are laid out widest element type first, then by name (as the
    reference writer does), so every tensor starts on a multiple of its own
    element size and a reader can view it in place.
    """
    order = sorted(tensors, key=lambda name: (-_DTYPES[tensors[name].dtype][1], name))
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    chunks = []
    offset = 0
    for name in order:
        tensor = tensors[name]
        dtype_name, _ = _DTYPES[tensor.dtype]
        data = tensor_bytes(tensor)
        header[name] = {
            "dtype": dtype_name,
            "shape": list(tensor.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        chunks.append(data)
        offset += len(data)
    header_bytes = json.dumps(header, separators=(",", ":")).encode("utf-8")
    # Pad with spaces so the data section starts 8-byte aligned.
    header_bytes += b" " * ((8 - len(header_bytes) % 8) % 8)
    return struct.pack("<Q", len(header_bytes)) + header_bytes + b"".join(chunks)


def write_safetensors(path, tensors: dict, metadata: dict | None = None) -> int:
    """Writes one safetensors file; returns the number of tensor data bytes."""
    blob = encode_safetensors(tensors, metadata)
    with open(path, "wb") as f:
        f.write(blob)
    return sum(len(tensor_bytes(t)) for t in tensors.values())


def read_safetensors(path) -> dict:
    """Reads a safetensors file back into {name: tensor} (used to self-check)."""
    names = {v[0]: k for k, v in _DTYPES.items()}
    with open(path, "rb") as f:
        blob = f.read()
    (header_len,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8 : 8 + header_len])
    base = 8 + header_len
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        dtype = names[info["dtype"]]
        raw = bytearray(blob[base + start : base + end])
        if dtype == torch.bfloat16:
            t = torch.frombuffer(raw, dtype=torch.int16).view(torch.bfloat16)
        else:
            t = torch.frombuffer(raw, dtype=dtype)
        out[name] = t.reshape(info["shape"]).clone()
    return out
