"""Writes and reads a Hugging Face Qwen3 model directory: config.json, model.safetensors (F16),
tokenizer.json, tokenizer_config.json, generation_config.json.
"""

from __future__ import annotations

import json
import os
import shutil

import torch

from .decode import read_special_ids
from .qwen3 import Qwen3Config, Qwen3ForCausalLM
from .safetensors_io import read_safetensors, write_safetensors

F16_MAX = 65504.0


class ExportError(ValueError):
    """A weight or file that cannot be exported as asked; names it."""

    def __init__(self, subject: str, message: str):
        super().__init__(f"{subject}: {message}")
        self.subject = subject


def hf_config(cfg: Qwen3Config, special: dict[str, int], dtype: str = "float16") -> dict:
    """config.json of a Qwen3ForCausalLM with tied embeddings, every standard field spelled out."""
    eos = special.get("<|im_end|>")
    return {
        "architectures": ["Qwen3ForCausalLM"],
        "model_type": "qwen3",
        "vocab_size": cfg.vocab_size,
        "hidden_size": cfg.hidden_size,
        "intermediate_size": cfg.intermediate_size,
        "num_hidden_layers": cfg.num_hidden_layers,
        "num_attention_heads": cfg.num_attention_heads,
        "num_key_value_heads": cfg.num_key_value_heads,
        "head_dim": cfg.head_dim,
        "hidden_act": "silu",
        "max_position_embeddings": cfg.max_position_embeddings,
        "rms_norm_eps": cfg.rms_norm_eps,
        "rope_theta": cfg.rope_theta,
        "rope_scaling": None,
        "attention_bias": False,
        "attention_dropout": 0.0,
        "use_sliding_window": False,
        "sliding_window": None,
        "max_window_layers": cfg.num_hidden_layers,
        "initializer_range": cfg.initializer_range,
        "tie_word_embeddings": True,
        "use_cache": True,
        "torch_dtype": dtype,
        "bos_token_id": None,
        "eos_token_id": eos,
        "pad_token_id": special.get("<|endoftext|>"),
        "transformers_version": "4.51.0",
    }


def tokenizer_config(special: dict[str, int], max_length: int) -> dict:
    decoder = {
        str(i): {"content": name, "lstrip": False, "normalized": False, "rstrip": False, "single_word": False, "special": True}
        for name, i in sorted(special.items(), key=lambda kv: kv[1])
    }
    return {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "added_tokens_decoder": decoder,
        "bos_token": None,
        "eos_token": "<|im_end|>",
        "pad_token": "<|endoftext|>" if "<|endoftext|>" in special else None,
        "unk_token": None,
        "clean_up_tokenization_spaces": False,
        "model_max_length": max_length,
        "split_special_tokens": False,
    }


def generation_config(special: dict[str, int]) -> dict:
    eos = [special[n] for n in ("<|im_end|>", "<|endoftext|>") if n in special]
    return {
        "bos_token_id": None,
        "eos_token_id": eos,
        "pad_token_id": special.get("<|endoftext|>"),
        "do_sample": False,
        "temperature": 0.0,
        "max_new_tokens": 32,
        "transformers_version": "4.51.0",
    }


def write_hf_dir(model: Qwen3ForCausalLM, tokenizer_path: str, dest: str) -> list[str]:
    """Writes the model directory (F16 weights, no lm_head since it is tied); returns the files.
    `tokenizer_config.json` is copied from beside `tokenizer_path` when present, else written."""
    os.makedirs(dest, exist_ok=True)
    special = read_special_ids(tokenizer_path)
    tensors: dict[str, torch.Tensor] = {}
    for name, tensor in model.state_dict().items():
        peak = float(tensor.abs().max())
        if peak > F16_MAX:
            raise ExportError(name, f"|w| reaches {peak}, beyond float16")
        tensors[name] = tensor.detach().to(torch.float16)
    write_safetensors(os.path.join(dest, "model.safetensors"), tensors, {"format": "pt"})
    files = {
        "config.json": hf_config(model.cfg, special),
        "generation_config.json": generation_config(special),
    }
    # the tokenizer's own config travels with it when the data build wrote one
    beside = os.path.join(os.path.dirname(tokenizer_path), "tokenizer_config.json")
    if os.path.exists(beside):
        shutil.copyfile(beside, os.path.join(dest, "tokenizer_config.json"))
    else:
        files["tokenizer_config.json"] = tokenizer_config(special, model.cfg.max_position_embeddings)
    for name, data in files.items():
        with open(os.path.join(dest, name), "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2, ensure_ascii=False)
            f.write("\n")
    shutil.copyfile(tokenizer_path, os.path.join(dest, "tokenizer.json"))
    return ["config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json", "generation_config.json"]


def load_hf_dir(path: str) -> Qwen3ForCausalLM:
    """Loads a Qwen3 directory (as written above, or any tied-embedding Qwen3 of this shape) in float32."""
    with open(os.path.join(path, "config.json"), encoding="utf-8") as f:
        raw = json.load(f)
    if raw.get("model_type") != "qwen3":
        raise ExportError(os.path.join(path, "config.json"), f"model_type {raw.get('model_type')!r} is not qwen3")
    cfg = Qwen3Config(
        vocab_size=raw["vocab_size"],
        hidden_size=raw["hidden_size"],
        intermediate_size=raw["intermediate_size"],
        num_hidden_layers=raw["num_hidden_layers"],
        num_attention_heads=raw["num_attention_heads"],
        num_key_value_heads=raw["num_key_value_heads"],
        head_dim=raw["head_dim"],
        rope_theta=raw["rope_theta"],
        rms_norm_eps=raw["rms_norm_eps"],
        max_position_embeddings=raw["max_position_embeddings"],
    )
    model = Qwen3ForCausalLM(cfg)
    weights = {k: v.float() for k, v in read_safetensors(os.path.join(path, "model.safetensors")).items()}
    weights.pop("lm_head.weight", None)
    model.load_state_dict(weights, strict=True)
    return model.eval()


def load_checkpoint(path: str) -> Qwen3ForCausalLM:
    """Model of a training checkpoint written by train_tiny.py."""
    state = torch.load(path, map_location="cpu")
    model = Qwen3ForCausalLM(Qwen3Config(**state["config"]))
    model.load_state_dict(state["model"])
    return model.eval()
