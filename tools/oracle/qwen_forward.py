"""Reference Qwen2 / Qwen3 forward pass in float64, written from the model math.

Independent of `transformers`: one function per block, in the order of the
model, so it can be checked line by line against the paper and against
rtool's ONNX graph builder. Weights are taken as stored and upcast to float64.
"""

import math

import torch


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """x * rsqrt(mean(x^2) + eps) * weight, over the last dimension."""
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps) * weight


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    """HF convention: (x1, x2) -> (-x2, x1) on the two halves of the last dim."""
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def rope(x: torch.Tensor, positions: torch.Tensor, theta: float) -> torch.Tensor:
    """Rotary embedding on [T, heads, head_dim] with cos/sin of pos*inv_freq repeated twice."""
    head_dim = x.shape[-1]
    inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim))
    freqs = positions.to(torch.float64)[:, None] * inv_freq[None, :]
    angles = torch.cat((freqs, freqs), dim=-1)[:, None, :]
    return x * torch.cos(angles) + rotate_half(x) * torch.sin(angles)


def linear(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
    """PyTorch Linear: weight is [out, in]."""
    y = x @ weight.T
    return y if bias is None else y + bias


def attention(x: torch.Tensor, w: dict, prefix: str, cfg: dict, positions: torch.Tensor) -> torch.Tensor:
    """Causal grouped-query self-attention of one layer (input already normed)."""
    t = x.shape[0]
    n_heads, n_kv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    head_dim = head_dim_of(cfg)
    bias = lambda name: w.get(f"{prefix}.self_attn.{name}.bias")  # noqa: E731 - Qwen2 only
    q = linear(x, w[f"{prefix}.self_attn.q_proj.weight"], bias("q_proj")).view(t, n_heads, head_dim)
    k = linear(x, w[f"{prefix}.self_attn.k_proj.weight"], bias("k_proj")).view(t, n_kv, head_dim)
    v = linear(x, w[f"{prefix}.self_attn.v_proj.weight"], bias("v_proj")).view(t, n_kv, head_dim)
    if f"{prefix}.self_attn.q_norm.weight" in w:  # Qwen3: per-head RMSNorm before RoPE
        q = rms_norm(q, w[f"{prefix}.self_attn.q_norm.weight"], cfg["rms_norm_eps"])
        k = rms_norm(k, w[f"{prefix}.self_attn.k_norm.weight"], cfg["rms_norm_eps"])
    q = rope(q, positions, cfg["rope_theta"])
    k = rope(k, positions, cfg["rope_theta"])
    # GQA: kv head j serves query heads j*group .. j*group+group-1.
    group = n_heads // n_kv
    k = k.repeat_interleave(group, dim=1)
    v = v.repeat_interleave(group, dim=1)
    scores = torch.einsum("qhd,khd->hqk", q, k) / math.sqrt(head_dim)
    causal = torch.ones(t, t, dtype=torch.bool).tril()
    scores = scores.masked_fill(~causal, float("-inf"))
    probs = torch.softmax(scores, dim=-1)
    out = torch.einsum("hqk,khd->qhd", probs, v).reshape(t, n_heads * head_dim)
    return linear(out, w[f"{prefix}.self_attn.o_proj.weight"])


def swiglu(x: torch.Tensor, w: dict, prefix: str) -> torch.Tensor:
    """down(silu(gate(x)) * up(x))."""
    gate = linear(x, w[f"{prefix}.mlp.gate_proj.weight"])
    up = linear(x, w[f"{prefix}.mlp.up_proj.weight"])
    return linear(torch.nn.functional.silu(gate) * up, w[f"{prefix}.mlp.down_proj.weight"])


def head_dim_of(cfg: dict) -> int:
    """Explicit `head_dim` when the config has one, else hidden / heads."""
    return cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]


def forward(weights: dict, cfg: dict, input_ids: list) -> torch.Tensor:
    """Logits [T, vocab] in float64 for every position of `input_ids`."""
    w = {name: t.to(torch.float64) for name, t in weights.items()}
    eps = cfg["rms_norm_eps"]
    positions = torch.arange(len(input_ids))
    x = w["model.embed_tokens.weight"][torch.tensor(input_ids)]
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}"
        # attention rmsnorm, attention, residual
        x = x + attention(rms_norm(x, w[f"{p}.input_layernorm.weight"], eps), w, p, cfg, positions)
        # ffn rmsnorm, SwiGLU, residual
        x = x + swiglu(rms_norm(x, w[f"{p}.post_attention_layernorm.weight"], eps), w, p)
    x = rms_norm(x, w["model.norm.weight"], eps)
    lm_head = w["model.embed_tokens.weight"] if cfg["tie_word_embeddings"] else w["lm_head.weight"]
    return linear(x, lm_head)


def greedy(weights: dict, cfg: dict, input_ids: list, steps: int) -> tuple:
    """Greedy continuation by full recompute; also the smallest top-1/top-2 logit gap seen."""
    ids = list(input_ids)
    min_gap = float("inf")
    out = []
    for _ in range(steps):
        last = forward(weights, cfg, ids)[-1]
        top = torch.topk(last, 2).values
        min_gap = min(min_gap, float(top[0] - top[1]))
        nxt = int(torch.argmax(last))
        out.append(nxt)
        ids.append(nxt)
    return out, min_gap
