"""Makes the AWQ GEMM fixtures `awq-qwen2` and `awq-qwen3` under packages/core/test/fixtures/.

Run from anywhere:  /usr/bin/python3 tools/oracle/make_awq_fixtures.py
Random Qwen weights; every q/k/v/o and gate/up/down projection is quantized to
4 bits and packed AWQ-style (see awq_packing.py); embeddings, norms, biases and
lm_head stay fp16, as AutoAWQ checkpoints keep them. The golden is the float64
forward of the dequantized model. Deterministic: reruns are byte-identical.
"""

import json
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import awq_packing  # noqa: E402
import make_fixtures  # noqa: E402
from make_fixtures import FIXTURES_DIR, dumps_golden, dumps_json, make_config, make_golden  # noqa: E402
from safetensors_writer import read_safetensors, write_safetensors  # noqa: E402

QUANTIZED_PROJECTIONS = (
    "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
    "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj",
)
# Projections whose dequantized weights go into dequant.json for the bit-exactness check.
DEQUANT_CHECKED = ("model.layers.0.self_attn.q_proj", "model.layers.1.mlp.down_proj")

# Wider than the float fixtures' margin: quantized matmul kernels may accumulate differently.
MIN_GREEDY_GAP = 2e-2

AWQ_FIXTURES = {
    "awq-qwen2": dict(
        arch="qwen2", dtype="F16", seed=2001, hidden=32, intermediate=64, heads=4, kv_heads=2,
        head_dim=None, vocab=None, tied=False, theta=1000000.0, shards=1, group_size=16,
    ),
    "awq-qwen3": dict(
        arch="qwen3", dtype="F16", seed=2002, hidden=32, intermediate=64, heads=4, kv_heads=2,
        head_dim=16, vocab=None, tied=True, theta=1000000.0, shards=1, group_size=32,
    ),
}


def awq_config(spec: dict) -> dict:
    """config.json with the `quantization_config` AutoAWQ writes for GEMM checkpoints."""
    cfg = make_config(spec)
    cfg["quantization_config"] = {
        "bits": 4,
        "group_size": spec["group_size"],
        "modules_to_not_convert": None,
        "quant_method": "awq",
        "version": "gemm",
        "zero_point": True,
    }
    return cfg


def quantize_checkpoint(weights: dict, group_size: int) -> tuple:
    """(stored tensors for the safetensors file, float weights the golden uses, dequantized [I, O] per module)."""
    stored, effective, dequantized = {}, {}, {}
    for name, tensor in weights.items():
        module = name.rsplit(".", 1)[0]
        if name.endswith(".weight") and module.split(".", 3)[-1] in QUANTIZED_PROJECTIONS:
            parts = awq_packing.quantize_linear(tensor, group_size)
            stored[f"{module}.qweight"] = parts["qweight"]
            stored[f"{module}.qzeros"] = parts["qzeros"]
            stored[f"{module}.scales"] = parts["scales"]
            w = awq_packing.dequantize(parts["intweight"], parts["zeros"], parts["scales"], group_size)
            dequantized[module] = w
            effective[name] = w.T  # back to nn.Linear's [out, in]
        else:
            stored[name] = tensor.to(torch.float16)
            effective[name] = stored[name]
    return stored, effective, dequantized


def check_packed_file(path: pathlib.Path, dequantized: dict, group_size: int) -> None:
    """Reads the written file, unpacks it, and checks it dequantizes to the golden's weights."""
    back = read_safetensors(path)
    for module, w in dequantized.items():
        q = awq_packing.unpack_awq(back[f"{module}.qweight"])
        z = awq_packing.unpack_awq(back[f"{module}.qzeros"])
        again = awq_packing.dequantize(q, z, back[f"{module}.scales"], group_size)
        assert torch.equal(again, w), module


def dequant_json(dequantized: dict, stored: dict, group_size: int) -> str:
    """Dequantized weights of the checked modules, exact float values, [in, out] row-major."""
    entries = {}
    for module in DEQUANT_CHECKED:
        w = dequantized[module]
        entries[module] = {
            "shape": list(w.shape),
            "qweight_shape": list(stored[f"{module}.qweight"].shape),
            "weight": [float(x) for x in w.flatten()],
        }
    doc = {
        "layout": "[in_features, out_features] row-major: w[k][n] = (q[k][n] - z[k/G][n]) * s[k/G][n], "
        "the transpose of nn.Linear's weight, as AWQ's dequantize_gemm returns it",
        "group_size": group_size,
        "exact": "scales carry 7 significant bits, so every value is exact in fp16 and fp32",
        "tensors": entries,
    }
    lines = [f"  {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in doc.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def make_awq_fixture(name: str, spec: dict) -> None:
    cfg = awq_config(spec)
    g = spec["group_size"]
    for attempt in range(50):
        weights = make_fixtures.make_weights(cfg, spec["seed"] + 7919 * attempt)
        stored, effective, dequantized = quantize_checkpoint(weights, g)
        note = f"golden computed in float64 from the dequantized AWQ weights (group {g}) and fp16 tensors as stored"
        golden, gap = make_golden(effective, cfg, note)
        if gap >= MIN_GREEDY_GAP and len(set(golden["greedy"])) >= 3:
            break
    else:
        raise RuntimeError(f"{name}: no seed gave a clear greedy continuation")
    out_dir = FIXTURES_DIR / name
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "config.json").write_text(dumps_json(cfg))
    write_safetensors(out_dir / "model.safetensors", stored, {"format": "pt"})
    check_packed_file(out_dir / "model.safetensors", dequantized, g)
    make_fixtures.write_tokenizer_files(out_dir)
    (out_dir / "golden.json").write_text(dumps_golden(golden))
    (out_dir / "dequant.json").write_text(dequant_json(dequantized, stored, g))
    print(f"{name}: seed attempt {attempt}, greedy {golden['greedy']}, min top1-top2 gap {gap:.4f}")


def main() -> None:
    torch.set_num_threads(1)
    awq_packing.self_check()
    for name, spec in AWQ_FIXTURES.items():
        make_awq_fixture(name, spec)


if __name__ == "__main__":
    main()
