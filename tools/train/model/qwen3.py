"""A Qwen3ForCausalLM-shaped decoder in plain PyTorch, with tree ("block") attention.

Parameter names, shapes and numerics follow Hugging Face's Qwen3 exactly (RMSNorm in float32,
per-head q_norm/k_norm before RoPE, rotate_half RoPE, GQA, SwiGLU, tied embeddings), so the
exported weights load through the same code path as any HF Qwen3 checkpoint.

Attention is expressed as "blocks behind a shared context": N blocks of T tokens each see every
context token (whose keys/values were computed earlier) plus the tokens of their own block allowed
by a per-block boolean mask. Every use is a case of that one op:
  - a causal prompt pass: context empty, one block, causal mask;
  - tree-packed training: context = the group's prefix, blocks = items (rest + head branches);
  - multi-head decoding: context = prompt, blocks = head branches (with their own cached tokens).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class Qwen3Config:
    vocab_size: int
    hidden_size: int = 256
    intermediate_size: int = 768
    num_hidden_layers: int = 6
    num_attention_heads: int = 4
    num_key_value_heads: int = 2
    head_dim: int = 64
    rope_theta: float = 10000.0
    rms_norm_eps: float = 1e-6
    max_position_embeddings: int = 4096
    initializer_range: float = 0.02

    def to_dict(self) -> dict:
        return asdict(self)


class RMSNorm(nn.Module):
    """Qwen3RMSNorm: normalise in float32, scale by `weight` (initialised to ones)."""

    def __init__(self, dim: int, eps: float):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dtype = x.dtype
        x32 = x.float()
        x32 = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x32.to(dtype)


def rope_cos_sin(positions: torch.Tensor, head_dim: int, theta: float) -> tuple[torch.Tensor, torch.Tensor]:
    """cos/sin tables [..., head_dim] for integer positions, HF layout (freqs repeated twice)."""
    inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float32, device=positions.device) / head_dim))
    freqs = positions.float()[..., None] * inv_freq
    emb = torch.cat([freqs, freqs], dim=-1)
    return emb.cos(), emb.sin()


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    return x * cos + rotate_half(x) * sin


class KV:
    """Keys and values of some tokens for one layer: [kv_heads, ..., tokens, head_dim]."""

    def __init__(self, k: torch.Tensor, v: torch.Tensor):
        self.k = k
        self.v = v


class BlockLayout:
    """Where the M real tokens sit in the padded [N, T] block grid. Per-token work (norms,
    projections, MLP) runs on the M real tokens only; attention runs on the padded grid."""

    def __init__(self, n: int, t: int, valid: torch.Tensor | None):
        self.n, self.t = n, t
        self.index = None if valid is None or bool(valid.all()) else valid.reshape(-1).nonzero().squeeze(1)

    def to_blocks(self, x: torch.Tensor) -> torch.Tensor:
        """[M, heads, hd] -> [heads, N, T, hd], zeros at pads."""
        if self.index is not None:
            padded = x.new_zeros(self.n * self.t, x.shape[1], x.shape[2])
            x = padded.index_copy(0, self.index, x)
        return x.view(self.n, self.t, x.shape[1], x.shape[2]).permute(2, 0, 1, 3)

    def from_blocks(self, x: torch.Tensor) -> torch.Tensor:
        """[heads, N, T, hd] -> [M, heads * hd]."""
        flat = x.permute(1, 2, 0, 3).reshape(self.n * self.t, -1)
        return flat if self.index is None else flat.index_select(0, self.index)

    def select(self, x: torch.Tensor) -> torch.Tensor:
        """[N, T, ...] -> [M, ...]."""
        flat = x.reshape(self.n * self.t, *x.shape[2:])
        return flat if self.index is None else flat.index_select(0, self.index)


class Attention(nn.Module):
    def __init__(self, cfg: Qwen3Config):
        super().__init__()
        self.cfg = cfg
        h, kvh, hd, d = cfg.num_attention_heads, cfg.num_key_value_heads, cfg.head_dim, cfg.hidden_size
        self.q_proj = nn.Linear(d, h * hd, bias=False)
        self.k_proj = nn.Linear(d, kvh * hd, bias=False)
        self.v_proj = nn.Linear(d, kvh * hd, bias=False)
        self.o_proj = nn.Linear(h * hd, d, bias=False)
        self.q_norm = RMSNorm(hd, cfg.rms_norm_eps)
        self.k_norm = RMSNorm(hd, cfg.rms_norm_eps)

    def forward(
        self,
        x: torch.Tensor,
        cos: torch.Tensor,
        sin: torch.Tensor,
        layout: "BlockLayout",
        block_mask: torch.Tensor,
        context: KV | None,
        past: KV | None,
    ) -> tuple[torch.Tensor, KV]:
        """x: [M, D], the real tokens of N blocks of T (see BlockLayout); block_mask: [N, T, Tpast + T]
        (True = may attend). Returns out [M, D] and the blocks' keys/values [kv_heads, N, Tpast + T, hd]."""
        cfg = self.cfg
        m = x.shape[0]
        h, kvh, hd = cfg.num_attention_heads, cfg.num_key_value_heads, cfg.head_dim
        # project, per-head q/k RMSNorm, rotary position embedding: [M, heads, hd]
        q = apply_rope(self.q_norm(self.q_proj(x).view(m, h, hd)), cos, sin)
        k = apply_rope(self.k_norm(self.k_proj(x).view(m, kvh, hd)), cos, sin)
        v = self.v_proj(x).view(m, kvh, hd)
        # into block layout: [heads, N, T, hd]
        q, k, v = layout.to_blocks(q), layout.to_blocks(k), layout.to_blocks(v)
        n, t = layout.n, layout.t
        if past is not None:
            k = torch.cat([past.k, k], dim=2)
            v = torch.cat([past.v, v], dim=2)
        block_kv = KV(k, v)
        # GQA: query head i reads kv head i // (h / kvh), as HF's repeat_kv
        rep = h // kvh
        kb = k.repeat_interleave(rep, dim=0)
        vb = v.repeat_interleave(rep, dim=0)
        scale = 1.0 / math.sqrt(hd)
        scores = torch.matmul(q, kb.transpose(-1, -2)) * scale  # [h, N, T, Tk]
        scores = scores.masked_fill(~block_mask, float("-inf"))
        if context is not None and context.k.shape[-2] > 0:
            kc = context.k.repeat_interleave(rep, dim=0)  # [h, C, hd]
            vc = context.v.repeat_interleave(rep, dim=0)
            ctx_scores = torch.matmul(q.reshape(h, n * t, hd), kc.transpose(-1, -2)) * scale
            ctx_scores = ctx_scores.view(h, n, t, -1)
            c = ctx_scores.shape[-1]
            probs = torch.softmax(torch.cat([ctx_scores, scores], dim=-1).float(), dim=-1).to(q.dtype)
            out = torch.matmul(probs[..., c:], vb)
            out = out + torch.matmul(probs[..., :c].reshape(h, n * t, c), vc).view(h, n, t, hd)
        else:
            probs = torch.softmax(scores.float(), dim=-1).to(q.dtype)
            out = torch.matmul(probs, vb)
        return self.o_proj(layout.from_blocks(out)), block_kv


class MLP(nn.Module):
    def __init__(self, cfg: Qwen3Config):
        super().__init__()
        self.gate_proj = nn.Linear(cfg.hidden_size, cfg.intermediate_size, bias=False)
        self.up_proj = nn.Linear(cfg.hidden_size, cfg.intermediate_size, bias=False)
        self.down_proj = nn.Linear(cfg.intermediate_size, cfg.hidden_size, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderLayer(nn.Module):
    def __init__(self, cfg: Qwen3Config):
        super().__init__()
        self.input_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.self_attn = Attention(cfg)
        self.post_attention_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.mlp = MLP(cfg)

    def forward(self, x, cos, sin, layout, block_mask, context, past):
        # attention rmsnorm, attention, residual
        attn_out, kv = self.self_attn(self.input_layernorm(x), cos, sin, layout, block_mask, context, past)
        x = x + attn_out
        # ffn rmsnorm, SwiGLU, residual
        x = x + self.mlp(self.post_attention_layernorm(x))
        return x, kv


class Qwen3Backbone(nn.Module):
    def __init__(self, cfg: Qwen3Config):
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.layers = nn.ModuleList([DecoderLayer(cfg) for _ in range(cfg.num_hidden_layers)])
        self.norm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)


class Qwen3ForCausalLM(nn.Module):
    """State dict keys are HF's (`model.layers.0.self_attn.q_proj.weight`, ...); lm_head is tied."""

    def __init__(self, cfg: Qwen3Config):
        super().__init__()
        self.cfg = cfg
        self.model = Qwen3Backbone(cfg)
        self.apply(self._init_weights)

    def _init_weights(self, module: nn.Module) -> None:
        std = self.cfg.initializer_range
        if isinstance(module, nn.Linear):
            nn.init.normal_(module.weight, mean=0.0, std=std)
        elif isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, mean=0.0, std=std)

    def blocks(
        self,
        ids: torch.Tensor,
        positions: torch.Tensor,
        block_mask: torch.Tensor,
        context: list[KV] | None = None,
        past: list[KV] | None = None,
        valid: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, list[KV]]:
        """Runs N blocks of T tokens behind a shared context. Returns the final-normed hidden states
        ([N, T, D], or [M, D] for the real tokens in order when `valid` [N, T] marks pads) and each
        layer's block keys/values (past + new)."""
        n, t = ids.shape
        layout = BlockLayout(n, t, valid)
        x = self.model.embed_tokens(layout.select(ids))
        cos, sin = rope_cos_sin(layout.select(positions), self.cfg.head_dim, self.cfg.rope_theta)
        cos, sin = cos[:, None, :].to(x.dtype), sin[:, None, :].to(x.dtype)
        new_kv: list[KV] = []
        for i, layer in enumerate(self.model.layers):
            x, kv = layer(
                x,
                cos,
                sin,
                layout,
                block_mask,
                None if context is None else context[i],
                None if past is None else past[i],
            )
            new_kv.append(kv)
        hidden = self.model.norm(x)
        return (hidden if valid is not None else hidden.view(n, t, -1)), new_kv

    def logits(self, hidden: torch.Tensor) -> torch.Tensor:
        """Tied lm_head: hidden @ embed_tokens^T."""
        return torch.matmul(hidden, self.model.embed_tokens.weight.t())

    def causal(self, ids: torch.Tensor, positions: torch.Tensor | None = None, context: list[KV] | None = None):
        """Plain causal pass over one sequence ids [T] (optionally behind a context);
        returns hidden [T, D] and per-layer KV flattened to [kv_heads, T, hd]."""
        t = ids.shape[0]
        if positions is None:
            start = 0 if context is None else context[0].k.shape[-2]
            positions = torch.arange(start, start + t, device=ids.device)
        mask = torch.ones(t, t, dtype=torch.bool, device=ids.device).tril()[None]
        hidden, kv = self.blocks(ids[None], positions[None], mask, context)
        return hidden[0], [KV(layer.k[:, 0], layer.v[:, 0]) for layer in kv]


def concat_context(a: list[KV], b: list[KV]) -> list[KV]:
    """Context a followed by context b (each [kv_heads, C, hd] per layer)."""
    return [KV(torch.cat([x.k, y.k], dim=-2), torch.cat([x.v, y.v], dim=-2)) for x, y in zip(a, b)]


def count_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
