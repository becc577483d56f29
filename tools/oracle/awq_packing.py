"""AWQ GEMM 4-bit quantization and packing, written independently in PyTorch.

Layout of one quantized Linear with in_features I, out_features O, group G
(as AutoAWQ's WQLinear_GEMM stores it):
  qweight int32 [I, O/8]   8 4-bit weights per word
  qzeros  int32 [I/G, O/8] 8 4-bit zero points per word
  scales  fp16  [I/G, O]
Word c of a row holds output columns 8c..8c+7 in AWQ's interleaved order:
the nibble at bits 4i..4i+3 holds column 8c + AWQ_ORDER[i].
Dequantized weight, [I, O] (the transpose of nn.Linear's [O, I]):
  w[k, n] = (q[k, n] - z[k // G, n]) * s[k // G, n]
"""

import torch

AWQ_ORDER = (0, 2, 4, 6, 1, 3, 5, 7)
BITS = 4
PACK = 32 // BITS
# Scales keep this many significant bits, so (q - z) * s (at most 4 + 7 bits) is exact
# in fp16 as well as fp32: AWQ's fp16 dequantization and an fp32 one agree bit for bit.
SCALE_SIGNIFICANT_BITS = 7


def _to_int32(words: torch.Tensor) -> torch.Tensor:
    """Reinterprets uint32 values held in int64 as two's-complement int32."""
    words = words & 0xFFFFFFFF
    return torch.where(words >= 2**31, words - 2**32, words).to(torch.int32)


def pack_awq(values: torch.Tensor) -> torch.Tensor:
    """Packs 4-bit ints [rows, cols] (cols % 8 == 0) into int32 [rows, cols/8], AWQ order."""
    rows, cols = values.shape
    assert cols % PACK == 0 and int(values.min()) >= 0 and int(values.max()) < 2**BITS
    grouped = values.to(torch.int64).view(rows, cols // PACK, PACK)
    words = torch.zeros(rows, cols // PACK, dtype=torch.int64)
    for nibble, column in enumerate(AWQ_ORDER):
        words |= grouped[:, :, column] << (BITS * nibble)
    return _to_int32(words)


def unpack_awq(words: torch.Tensor) -> torch.Tensor:
    """Inverse of pack_awq: int32 [rows, cols/8] -> 4-bit ints [rows, cols] in natural column order."""
    rows, packed = words.shape
    out = torch.zeros(rows, packed, PACK, dtype=torch.int64)
    as_unsigned = words.to(torch.int64) & 0xFFFFFFFF
    for nibble, column in enumerate(AWQ_ORDER):
        out[:, :, column] = (as_unsigned >> (BITS * nibble)) & 0xF
    return out.view(rows, packed * PACK)


def _round_significant_bits(x: torch.Tensor, bits: int) -> torch.Tensor:
    mantissa, exponent = torch.frexp(x)
    return torch.ldexp(torch.round(mantissa * 2**bits) / 2**bits, exponent)


def quantize_linear(weight: torch.Tensor, group_size: int) -> dict:
    """Asymmetric min-max 4-bit quantization of an nn.Linear weight [O, I], per group of G inputs.

    Returns the unpacked parts (`intweight` [I, O], `zeros` [I/G, O], `scales` fp16 [I/G, O])
    and the packed AWQ tensors (`qweight`, `qzeros`).
    """
    out_features, in_features = weight.shape
    assert in_features % group_size == 0 and out_features % PACK == 0
    wt = weight.to(torch.float64).T.reshape(in_features // group_size, group_size, out_features)
    w_max = wt.amax(dim=1).clamp(min=0.0)
    w_min = wt.amin(dim=1).clamp(max=0.0)
    scales = ((w_max - w_min) / (2**BITS - 1)).clamp(min=1e-3)
    scales = _round_significant_bits(scales, SCALE_SIGNIFICANT_BITS).to(torch.float16)
    s = scales.to(torch.float64)
    zeros = torch.round(-w_min / s).clamp(0, 2**BITS - 1).to(torch.int64)
    intweight = (torch.round(wt / s[:, None, :]) + zeros[:, None, :]).clamp(0, 2**BITS - 1).to(torch.int64)
    intweight = intweight.reshape(in_features, out_features)
    return {
        "intweight": intweight,
        "zeros": zeros,
        "scales": scales,
        "qweight": pack_awq(intweight),
        "qzeros": pack_awq(zeros),
    }


def dequantize(intweight: torch.Tensor, zeros: torch.Tensor, scales: torch.Tensor, group_size: int) -> torch.Tensor:
    """w = (q - z) * s, [I, O], in float32 (exact: see SCALE_SIGNIFICANT_BITS)."""
    z = zeros.repeat_interleave(group_size, dim=0)
    s = scales.to(torch.float32).repeat_interleave(group_size, dim=0)
    w = (intweight - z).to(torch.float32) * s
    # The same product in fp16, as AWQ's own dequantize_gemm computes it, must agree exactly.
    w16 = (intweight - z).to(torch.float16) * scales.repeat_interleave(group_size, dim=0)
    assert torch.equal(w16.to(torch.float32), w), "fp16 and fp32 dequantization differ"
    return w


def self_check() -> None:
    """Pins the nibble order and the round trip before anything is written."""
    # Columns 0..7 holding the values 0..7: nibbles low to high are 0,2,4,6,1,3,5,7.
    word = pack_awq(torch.arange(8).view(1, 8))
    assert int(word) & 0xFFFFFFFF == 0x75316420, hex(int(word) & 0xFFFFFFFF)
    # A high nibble >= 8 sets the sign bit of the int32 word.
    assert int(pack_awq(torch.tensor([[0, 0, 0, 0, 0, 0, 0, 15]]))) == -(2**28)
    gen = torch.Generator().manual_seed(7)
    values = torch.randint(0, 16, (5, 24), generator=gen)
    assert torch.equal(unpack_awq(pack_awq(values)), values)
