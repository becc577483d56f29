"""Unit tests of the offline training tool (run: /usr/bin/python3 -m unittest tools/train/test_tiny.py).

The central check: a tree-packed forward gives each item the same logits as the plain causal
forward of prefix + rest + head alone, and batched multi-head decoding equals decoding each head
alone.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from make_synthetic import make_group, special_ids  # noqa: E402
from model.decode import STOP_NAMES, greedy_heads, prompt_context  # noqa: E402
from model.packing import chunk_items, pack, packed_hidden  # noqa: E402
from model.qwen3 import Qwen3Config, Qwen3ForCausalLM  # noqa: E402
from model.safetensors_io import read_safetensors, write_safetensors  # noqa: E402


def tiny_model(seed: int = 0) -> Qwen3ForCausalLM:
    torch.manual_seed(seed)
    cfg = Qwen3Config(vocab_size=512, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, head_dim=16)
    model = Qwen3ForCausalLM(cfg).eval()
    # non-trivial norms, so q_norm/k_norm and RMSNorm scales are exercised
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("norm.weight"):
                p.add_(torch.randn_like(p) * 0.3)
    return model


class PackingTest(unittest.TestCase):
    def test_packed_logits_equal_unpacked(self):
        torch.set_num_threads(1)
        model = tiny_model()
        group = make_group(random.Random(1), items_per_group=5, lang="en", fmt="v1")
        seq = pack(group["prefix"], group["items"])
        with torch.no_grad():
            packed = model.logits(packed_hidden(model, seq))
        row = 0
        for item in group["items"]:
            for head, start in zip(item["heads"], item["target_from"]):
                full = group["prefix"] + item["rest"] + head
                with torch.no_grad():
                    hidden, _ = model.causal(torch.tensor(full))
                    logits = model.logits(hidden)
                # plain positions of prefix+rest+head are exactly the packed positions
                base = len(group["prefix"]) + len(item["rest"])
                for j in range(start, len(head)):
                    torch.testing.assert_close(packed[row], logits[base + j - 1], atol=1e-4, rtol=1e-4)
                    self.assertEqual(int(seq.labels[row]), head[j])
                    row += 1
        self.assertEqual(row, seq.num_targets)

    def test_rest_targets_equal_unpacked_next_token_logits(self):
        # the auxiliary user-turn loss (--rest-loss) reads the logits of prefix + rest alone
        torch.set_num_threads(1)
        model = tiny_model(5)
        group = make_group(random.Random(6), items_per_group=4, lang="en", fmt="v2")
        seq = pack(group["prefix"], group["items"], rest_targets=True)
        with torch.no_grad():
            packed = model.logits(packed_hidden(model, seq, seq.aux_index))
        row = 0
        for item in group["items"]:
            with torch.no_grad():
                hidden, _ = model.causal(torch.tensor(group["prefix"] + item["rest"]))
                logits = model.logits(hidden)
            base = len(group["prefix"])
            for j in range(1, len(item["rest"])):
                torch.testing.assert_close(packed[row], logits[base + j - 1], atol=1e-4, rtol=1e-4)
                self.assertEqual(int(seq.aux_labels[row]), item["rest"][j])
                row += 1
        self.assertEqual(row, int(seq.aux_labels.shape[0]))
        # without the flag, the head targets alone, as before
        self.assertIsNone(pack(group["prefix"], group["items"]).aux_index)

    def test_chunks_respect_budget_and_keep_every_item(self):
        group = make_group(random.Random(2), items_per_group=30, lang="en", fmt="v1")
        chunks = chunk_items(group["items"], max_block_tokens=200)
        self.assertEqual(sum(len(c) for c in chunks), 30)
        self.assertGreater(len(chunks), 1)


class DecodeTest(unittest.TestCase):
    def test_multi_head_decoding_equals_each_head_alone(self):
        torch.set_num_threads(1)
        model = tiny_model(3)
        sp = special_ids()
        stop = {sp[n] for n in STOP_NAMES if n in sp}
        group = make_group(random.Random(4), items_per_group=1, lang="en", fmt="v1")
        item = group["items"][0]
        prompt = group["prefix"] + item["rest"]
        forced = [h[:s] for h, s in zip(item["heads"], item["target_from"])]
        forced[0] = forced[0] + [77]  # uneven forced lengths exercise the padding path
        context = prompt_context(model, group["prefix"])
        context = prompt_context(model, item["rest"], context)
        batched = greedy_heads(model, context, forced, stop, max_tokens=6)
        for f, got in zip(forced, batched):
            seq = list(f)
            alone: list[int] = []
            with torch.no_grad():
                while len(alone) < 6:
                    hidden, _ = model.causal(torch.tensor(prompt + seq + alone))
                    token = int(model.logits(hidden[-1]).argmax())
                    alone.append(token)
                    if token in stop:
                        break
            self.assertEqual(got, alone)


class SafetensorsTest(unittest.TestCase):
    def test_round_trip(self):
        tensors = {
            "a": torch.randn(3, 5).half(),
            "b": torch.randn(7).bfloat16(),
            "c": torch.randn(2, 2),
        }
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m.safetensors")
            write_safetensors(path, tensors)
            with open(path, "rb") as f:
                header_len = int.from_bytes(f.read(8), "little")
            self.assertEqual(header_len % 8, 0)
            back = read_safetensors(path)
        for name, t in tensors.items():
            self.assertEqual(back[name].dtype, t.dtype)
            self.assertTrue(torch.equal(back[name], t))


class SoupTest(unittest.TestCase):
    """soup.py: the weighted mean of models of one shape; other shapes and bad weights refused."""

    def test_weighted_mean_of_every_tensor(self):
        from soup import average

        a, b = tiny_model(1), tiny_model(2)
        want = {n: 0.75 * t.clone() + 0.25 * b.state_dict()[n] for n, t in a.state_dict().items()}
        soup = average([a, b], [3.0, 1.0])
        for name, tensor in soup.state_dict().items():
            self.assertTrue(torch.allclose(tensor, want[name], atol=1e-6), name)

    def test_refuses_other_shapes_and_bad_weights(self):
        from soup import SoupError, average, parse_ingredient

        torch.manual_seed(0)
        other = Qwen3ForCausalLM(Qwen3Config(vocab_size=512, hidden_size=32, intermediate_size=64,
                                             num_hidden_layers=2, num_attention_heads=2,
                                             num_key_value_heads=1, head_dim=16))
        with self.assertRaises(SoupError):
            average([tiny_model(1), other], [1.0, 1.0])
        self.assertEqual(parse_ingredient("a/b:c:0.3"), ("a/b:c", 0.3))
        for bad in ("model", "model:x", "model:0", ":1"):
            with self.assertRaises(SoupError):
                parse_ingredient(bad)


class DeepenTest(unittest.TestCase):
    """deepen.py: a deeper model that computes the same logits, whose new layers can still learn."""

    def test_same_logits_and_new_layers_get_gradients(self):
        from deepen import deepen

        torch.manual_seed(0)
        model = Qwen3ForCausalLM(Qwen3Config(vocab_size=64, hidden_size=32, intermediate_size=48, num_hidden_layers=3,
                                             num_attention_heads=2, num_key_value_heads=1, head_dim=16))
        deeper = deepen(model, [0, 2])
        self.assertEqual(deeper.cfg.num_hidden_layers, 5)
        ids = torch.randint(0, 64, (12,))
        with torch.no_grad():
            self.assertTrue(torch.allclose(model.logits(model.causal(ids)[0]), deeper.logits(deeper.causal(ids)[0]), atol=1e-5))
        deeper.logits(deeper.causal(ids)[0]).logsumexp(-1).sum().backward()
        # the silenced output projections are where training starts moving a new layer
        for i in (1, 4):
            self.assertGreater(float(deeper.model.layers[i].self_attn.o_proj.weight.grad.abs().sum()), 0)
        with self.assertRaises(ValueError):
            deepen(model, [3])


class GpuScriptTest(unittest.TestCase):
    """tools/train/gpu/train.sh, the prepared GPU run, end to end on the CPU with a few steps."""

    def test_shards_train_and_export_on_cpu(self):
        here = os.path.dirname(os.path.abspath(__file__))
        with tempfile.TemporaryDirectory() as tmp:
            corpus, shards, dest = (os.path.join(tmp, d) for d in ("corpus", "shards", "dest"))
            subprocess.run([sys.executable, os.path.join(here, "make_synthetic.py"), corpus, "--groups", "8", "--heldout-groups", "2"], check=True)
            with open(os.path.join(corpus, "tokenizer_config.json"), "w", encoding="utf-8") as f:
                f.write("{}")
            open(os.path.join(corpus, "READY"), "w").close()
            subprocess.run(["bash", os.path.join(here, "gpu", "make-shards.sh"), shards, corpus], check=True)
            env = {**os.environ, "SMOKE": "1"}
            subprocess.run(["bash", os.path.join(here, "gpu", "train.sh"), shards, dest], check=True, env=env)
            self.assertTrue(os.path.getsize(os.path.join(dest, "model.safetensors")) > 0)
            with open(os.path.join(dest, "config.json"), encoding="utf-8") as f:
                self.assertEqual(json.load(f)["model_type"], "qwen3")


if __name__ == "__main__":
    unittest.main()
