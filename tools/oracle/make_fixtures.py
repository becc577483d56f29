"""Makes the small random Qwen checkpoints and golden outputs under
packages/core/test/fixtures/.

Run from anywhere:  /usr/bin/python3 tools/oracle/make_fixtures.py
Deterministic: a fixed seed per fixture, so a rerun rewrites byte-identical files.
Needs only torch, numpy and the standard library.
"""

import json
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import qwen_forward  # noqa: E402
import tokenizer_writer  # noqa: E402
from safetensors_writer import read_safetensors, write_safetensors  # noqa: E402

FIXTURES_DIR = pathlib.Path(__file__).resolve().parents[2] / "packages" / "core" / "test" / "fixtures"

# The golden prompt: a user turn followed by the function head's tag.
INPUT_TEXT = "<|im_start|>user\nmove left and fire<|im_end|>\n<function>"
GREEDY_STEPS = 8
# Greedy ids must win by at least this logit margin, so fp32 runtimes agree on them.
MIN_GREEDY_GAP = 2e-3

STORAGE_DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}
TORCH_DTYPE_NAMES = {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}

# name -> architecture and shape. `vocab_size` may exceed the tokenizer's size (padded rows).
FIXTURES = {
    "qwen2-gqa": dict(
        arch="qwen2", dtype="F32", seed=1001, hidden=32, intermediate=64, heads=4, kv_heads=2,
        head_dim=None, vocab=352, tied=False, theta=10000.0, shards=1,
    ),
    "qwen3-tied": dict(
        arch="qwen3", dtype="F32", seed=1002, hidden=48, intermediate=96, heads=4, kv_heads=2,
        head_dim=16, vocab=None, tied=True, theta=1000000.0, shards=1,
    ),
    "qwen3-bf16": dict(
        arch="qwen3", dtype="BF16", seed=1003, hidden=32, intermediate=64, heads=4, kv_heads=2,
        head_dim=16, vocab=None, tied=True, theta=1000000.0, shards=1,
    ),
    "qwen2-f16": dict(
        arch="qwen2", dtype="F16", seed=1004, hidden=32, intermediate=64, heads=4, kv_heads=1,
        head_dim=None, vocab=None, tied=True, theta=1000000.0, shards=1,
    ),
    "qwen3-sharded": dict(
        arch="qwen3", dtype="F32", seed=1005, hidden=32, intermediate=64, heads=4, kv_heads=2,
        head_dim=16, vocab=344, tied=False, theta=1000000.0, shards=2,
    ),
}


def make_config(spec: dict) -> dict:
    """config.json as transformers writes it for Qwen2ForCausalLM / Qwen3ForCausalLM."""
    ids = tokenizer_writer.special_token_ids()
    qwen3 = spec["arch"] == "qwen3"
    cfg = {
        "architectures": ["Qwen3ForCausalLM" if qwen3 else "Qwen2ForCausalLM"],
        "attention_dropout": 0.0,
        "bos_token_id": ids["<|endoftext|>"],
        "eos_token_id": ids["<|im_end|>"],
        "hidden_act": "silu",
        "hidden_size": spec["hidden"],
        "initializer_range": 0.02,
        "intermediate_size": spec["intermediate"],
        "max_position_embeddings": 512,
        "max_window_layers": 2,
        "model_type": "qwen3" if qwen3 else "qwen2",
        "num_attention_heads": spec["heads"],
        "num_hidden_layers": 2,
        "num_key_value_heads": spec["kv_heads"],
        "rms_norm_eps": 1e-06,
        "rope_scaling": None,
        "rope_theta": spec["theta"],
        "sliding_window": None,
        "tie_word_embeddings": spec["tied"],
        "torch_dtype": TORCH_DTYPE_NAMES[spec["dtype"]],
        "transformers_version": "4.51.0",
        "use_cache": True,
        "use_sliding_window": False,
        "vocab_size": spec["vocab"] or tokenizer_writer.tokenizer_size(),
    }
    if qwen3:
        cfg["attention_bias"] = False
        cfg["head_dim"] = spec["head_dim"]
    return cfg


def make_weights(cfg: dict, seed: int) -> dict:
    """Random float32 weights with HF names. Scales keep logits O(1) and varied."""
    gen = torch.Generator().manual_seed(seed)
    qwen3 = cfg["model_type"] == "qwen3"
    hidden, inter, vocab = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    head_dim = qwen_forward.head_dim_of(cfg)
    q_out = cfg["num_attention_heads"] * head_dim
    kv_out = cfg["num_key_value_heads"] * head_dim

    def normal(*shape, std):
        return torch.randn(*shape, generator=gen, dtype=torch.float32) * std

    def norm_weight(size):
        return 1.0 + normal(size, std=0.1)

    w = {"model.embed_tokens.weight": normal(vocab, hidden, std=0.3)}
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}"
        w[f"{p}.input_layernorm.weight"] = norm_weight(hidden)
        w[f"{p}.self_attn.q_proj.weight"] = normal(q_out, hidden, std=0.2)
        w[f"{p}.self_attn.k_proj.weight"] = normal(kv_out, hidden, std=0.2)
        w[f"{p}.self_attn.v_proj.weight"] = normal(kv_out, hidden, std=0.2)
        if not qwen3:
            w[f"{p}.self_attn.q_proj.bias"] = normal(q_out, std=0.1)
            w[f"{p}.self_attn.k_proj.bias"] = normal(kv_out, std=0.1)
            w[f"{p}.self_attn.v_proj.bias"] = normal(kv_out, std=0.1)
        else:
            w[f"{p}.self_attn.q_norm.weight"] = norm_weight(head_dim)
            w[f"{p}.self_attn.k_norm.weight"] = norm_weight(head_dim)
        w[f"{p}.self_attn.o_proj.weight"] = normal(hidden, q_out, std=0.15)
        w[f"{p}.post_attention_layernorm.weight"] = norm_weight(hidden)
        w[f"{p}.mlp.gate_proj.weight"] = normal(inter, hidden, std=0.2)
        w[f"{p}.mlp.up_proj.weight"] = normal(inter, hidden, std=0.2)
        w[f"{p}.mlp.down_proj.weight"] = normal(hidden, inter, std=0.15)
    w["model.norm.weight"] = norm_weight(hidden)
    if not cfg["tie_word_embeddings"]:
        w["lm_head.weight"] = normal(vocab, hidden, std=0.3)
    return w


def round7(x: float) -> float:
    """Seven significant digits: small files, far below the tests' tolerances."""
    return float(f"{x:.7g}")


def dumps_json(obj) -> str:
    """Pretty JSON as transformers writes it (2-space indent, sorted keys)."""
    return json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def dumps_golden(golden: dict) -> str:
    """One key per line, each value compact, in a fixed key order."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v, separators=(',', ':'), ensure_ascii=False)}" for k, v in golden.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def make_golden(stored: dict, cfg: dict, note: str) -> tuple:
    """Golden outputs from the weights as stored (low-precision weights upcast first)."""
    input_ids = tokenizer_writer.encode(INPUT_TEXT)
    logits = qwen_forward.forward(stored, cfg, input_ids)
    greedy, gap = qwen_forward.greedy(stored, cfg, input_ids, GREEDY_STEPS)
    golden = {
        "text": INPUT_TEXT,
        "input_ids": input_ids,
        "logits_last": [round7(float(x)) for x in logits[-1]],
        "greedy": greedy,
        "logits_all_sum": round7(float(logits.sum())),
        "golden_dtype": "float64",
        "note": note,
    }
    return golden, gap


def write_checkpoint(out_dir: pathlib.Path, stored: dict, shards: int) -> None:
    """model.safetensors, or `shards` files plus model.safetensors.index.json."""
    metadata = {"format": "pt"}
    if shards == 1:
        write_safetensors(out_dir / "model.safetensors", stored, metadata)
        assert_round_trip(out_dir / "model.safetensors", stored)
        return
    # Split by layer so each shard holds whole layers: embeddings with the first, head with the last.
    names = sorted(stored)
    files = [f"model-{i + 1:05d}-of-{shards:05d}.safetensors" for i in range(shards)]

    def shard_of(name: str) -> int:
        if name.startswith("model.layers."):
            return min(int(name.split(".")[2]), shards - 1)
        return 0 if name == "model.embed_tokens.weight" else shards - 1

    weight_map = {name: files[shard_of(name)] for name in names}
    total = 0
    for i, file in enumerate(files):
        part = {n: stored[n] for n in names if shard_of(n) == i}
        total += write_safetensors(out_dir / file, part, metadata)
        assert_round_trip(out_dir / file, part)
    index = {"metadata": {"total_size": total}, "weight_map": weight_map}
    (out_dir / "model.safetensors.index.json").write_text(dumps_json(index))


def assert_round_trip(path: pathlib.Path, tensors: dict) -> None:
    """Reads the file back and checks every tensor bit for bit."""
    back = read_safetensors(path)
    assert sorted(back) == sorted(tensors), path
    for name, t in tensors.items():
        assert back[name].dtype == t.dtype and torch.equal(back[name], t), (path, name)


def write_tokenizer_files(out_dir: pathlib.Path) -> None:
    """tokenizer.json, tokenizer_config.json and generation_config.json."""
    ids = tokenizer_writer.special_token_ids()
    (out_dir / "tokenizer.json").write_text(
        json.dumps(tokenizer_writer.build_tokenizer_json(), indent=1, ensure_ascii=False) + "\n"
    )
    (out_dir / "tokenizer_config.json").write_text(dumps_json(tokenizer_writer.build_tokenizer_config_json()))
    generation = {
        "bos_token_id": ids["<|endoftext|>"],
        "do_sample": False,
        "eos_token_id": [ids["<|im_end|>"], ids["<|endoftext|>"]],
        "pad_token_id": ids["<|endoftext|>"],
        "transformers_version": "4.51.0",
    }
    (out_dir / "generation_config.json").write_text(dumps_json(generation))


def make_fixture(name: str, spec: dict) -> None:
    cfg = make_config(spec)
    # Bump the seed deterministically until greedy picks are clear and not one id repeated.
    for attempt in range(50):
        weights = make_weights(cfg, spec["seed"] + 7919 * attempt)
        stored = {n: t.to(STORAGE_DTYPES[spec["dtype"]]) for n, t in weights.items()}
        note = f"golden computed in float64 from the {spec['dtype']} weights as stored"
        golden, gap = make_golden(stored, cfg, note)
        if gap >= MIN_GREEDY_GAP and len(set(golden["greedy"])) >= 3:
            break
    else:
        raise RuntimeError(f"{name}: no seed gave a clear greedy continuation")
    out_dir = FIXTURES_DIR / name
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.glob("model*.safetensors*"):
        stale.unlink()
    (out_dir / "config.json").write_text(dumps_json(cfg))
    write_checkpoint(out_dir, stored, spec["shards"])
    write_tokenizer_files(out_dir)
    (out_dir / "golden.json").write_text(dumps_golden(golden))
    print(f"{name}: seed attempt {attempt}, greedy {golden['greedy']}, min top1-top2 gap {gap:.4f}")


def main() -> None:
    torch.set_num_threads(1)
    for name, spec in FIXTURES.items():
        make_fixture(name, spec)


if __name__ == "__main__":
    main()
