#!/usr/bin/python3
"""The TinyTransformer in PyTorch, loading the same safetensors weights as hlorun.

Numerically it is the model of tools/tiny_transformer/tiny_transformer.py (the float64 numpy
reference): pre-norm blocks with LayerNorm eps 1e-6, causal multi-head attention with separate
query/key/value/out projections with bias, tanh-GELU FFN, final LayerNorm, lm_head without bias.
Flax kernels are stored [in, out]; they are used as they are (x @ W + b), never transposed.

Commands:
  tiny_transformer_torch.py check WEIGHTS.safetensors TOKENS.npy REFERENCE.npy [--tolerance 1e-4]
      max |torch - numpy reference| of the logits; fails above the tolerance
  tiny_transformer_torch.py bench WEIGHTS.safetensors [--batches 1,4,16,64] [--threads 2]
                                  [--min-time S] [--min-iters N] [--budget S] [--json OUT]
      tokens/s per batch size (batch x 256 tokens), torch.inference_mode, fp32
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools", "tiny_transformer"))
import tiny_transformer as tt  # noqa: E402  (config, safetensors loader, numpy reference)


class Block(torch.nn.Module):
    """One pre-norm block on activations flattened to [batch * seq, d_model] rows."""

    def __init__(self, p, prefix):
        super().__init__()

        def param(name):
            return torch.nn.Parameter(torch.from_numpy(np.array(p[prefix + name], dtype=np.float32)), requires_grad=False)

        self.ln1_scale, self.ln1_bias = param("ln1.scale"), param("ln1.bias")
        self.ln2_scale, self.ln2_bias = param("ln2.scale"), param("ln2.bias")
        for proj in ("query", "key", "value", "out"):
            setattr(self, f"{proj}_kernel", param(f"attn.{proj}.kernel"))
            setattr(self, f"{proj}_bias", param(f"attn.{proj}.bias"))
        self.ffn_in_kernel, self.ffn_in_bias = param("ffn_in.kernel"), param("ffn_in.bias")
        self.ffn_out_kernel, self.ffn_out_bias = param("ffn_out.kernel"), param("ffn_out.bias")
        self.explicit_gelu = False  # set by export_onnx.py: the form ONNX Runtime fuses into FastGelu

    def gelu(self, x):
        if self.explicit_gelu:
            # GPT-2's "gelu_new", the pattern of ORT's FastGeluFusion; the same function as
            # F.gelu(approximate="tanh") (0.7978845608 = sqrt(2 / pi)).
            return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
        return F.gelu(x, approximate="tanh")

    def forward(self, x, mask, s):
        # x: [batch * s, d_model]; mask: [s, s] additive causal mask (0 or float32 min)
        d = tt.D_MODEL
        h = F.layer_norm(x, (d,), self.ln1_scale, self.ln1_bias, tt.LN_EPS)

        def heads(y):  # [batch * s, d] -> [batch, heads, s, head_dim]
            return y.reshape(-1, s, tt.HEADS, tt.HEAD_DIM).transpose(1, 2)

        q = heads(torch.matmul(h, self.query_kernel) + self.query_bias)
        k = heads(torch.matmul(h, self.key_kernel) + self.key_bias)
        v = heads(torch.matmul(h, self.value_kernel) + self.value_bias)
        scores = torch.matmul(q, k.transpose(-1, -2)) * (1.0 / math.sqrt(tt.HEAD_DIM)) + mask
        attn = torch.matmul(torch.softmax(scores, dim=-1), v)  # [batch, heads, s, head_dim]
        attn = attn.transpose(1, 2).reshape(-1, d)
        x = x + (torch.matmul(attn, self.out_kernel) + self.out_bias)
        h = F.layer_norm(x, (d,), self.ln2_scale, self.ln2_bias, tt.LN_EPS)
        h = self.gelu(torch.matmul(h, self.ffn_in_kernel) + self.ffn_in_bias)
        return x + (torch.matmul(h, self.ffn_out_kernel) + self.ffn_out_bias)


class TinyTransformer(torch.nn.Module):
    def __init__(self, params):
        super().__init__()

        def param(name):
            return torch.nn.Parameter(torch.from_numpy(np.array(params[name], dtype=np.float32)), requires_grad=False)

        self.embed = param("embed.embedding")
        self.pos_embed = param("pos_embed.embedding")
        self.blocks = torch.nn.ModuleList(Block(params, f"blocks.{i}.") for i in range(tt.LAYERS))
        self.ln_f_scale, self.ln_f_bias = param("ln_f.scale"), param("ln_f.bias")
        self.lm_head = param("lm_head.kernel")
        # Added to the attention scores: 0 where a query may attend, float32 min above the diagonal
        # (as the numpy reference's np.where; exp() of it is exactly 0 after the max subtraction).
        causal = torch.triu(torch.ones(tt.MAX_SEQ, tt.MAX_SEQ, dtype=torch.bool), diagonal=1)
        self.register_buffer("mask", torch.zeros(tt.MAX_SEQ, tt.MAX_SEQ).masked_fill(causal, float(np.finfo(np.float32).min)))

    def set_explicit_gelu(self, on):
        for block in self.blocks:
            block.explicit_gelu = on

    def forward(self, tokens):
        """tokens: int64 [batch, seq] byte ids -> float32 logits [batch, seq, 256].

        The sequence length is a Python int here, so an ONNX export has it static (the batch
        dimension stays dynamic) and the activations flow as [batch * seq, d_model] matrices:
        ONNX Runtime then fuses each projection with its bias into one Gemm."""
        s = int(tokens.shape[1])
        x = F.embedding(tokens, self.embed) + self.pos_embed[:s].unsqueeze(0)
        x = x.reshape(-1, tt.D_MODEL)
        mask = self.mask[:s, :s]
        for block in self.blocks:
            x = block(x, mask, s)
        x = F.layer_norm(x, (tt.D_MODEL,), self.ln_f_scale, self.ln_f_bias, tt.LN_EPS)
        return torch.matmul(x, self.lm_head).reshape(-1, s, tt.VOCAB)


def load_model(weights):
    params = tt.load_safetensors(weights)
    expected = tt.param_shapes()
    if set(params) != set(expected):
        missing, extra = sorted(set(expected) - set(params)), sorted(set(params) - set(expected))
        raise SystemExit(f"{weights}: parameter names differ from the TinyTransformer's (missing {missing[:3]}, extra {extra[:3]})")
    for name, shape in expected.items():
        if tuple(params[name].shape) != shape:
            raise SystemExit(f"{weights}: {name} has shape {params[name].shape}, expected {shape}")
    return TinyTransformer(params).eval()


def cmd_check(args):
    model = load_model(args.weights)
    tokens = torch.from_numpy(np.load(args.tokens).astype(np.int64))
    ref = np.load(args.reference)
    with torch.inference_mode():
        out = model(tokens).numpy()
    if out.shape != ref.shape:
        raise SystemExit(f"logits shape {out.shape} != reference {ref.shape}")
    diff = float(np.abs(out.astype(np.float64) - ref).max())
    ok = diff < args.tolerance
    print(f"logits {'x'.join(map(str, out.shape))}: max |torch - numpy float64| = {diff:.3e} "
          f"({'ok' if ok else 'TOO LARGE'}, limit {args.tolerance:g})")
    return 0 if ok else 1


def cmd_bench(args):
    torch.set_num_threads(args.threads)
    model = load_model(args.weights)
    batches = [int(b) for b in args.batches.split(",")]
    result = {"engine": "torch", "version": torch.__version__, "threads": torch.get_num_threads(), "rows": []}
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, fp32, inference_mode")
    print(f"  {'batch':>6} {'iters':>6} {'latency ms':>11} {'min ms':>9} {'tokens/s':>10}")
    with torch.inference_mode():
        for b in batches:
            tokens = torch.from_numpy(tt.make_tokens(b).astype(np.int64))
            for _ in range(args.warmup):
                model(tokens)
            times = []
            while len(times) < args.min_iters or sum(times) < args.min_time:
                t0 = time.perf_counter()
                model(tokens)
                times.append(time.perf_counter() - t0)
                if sum(times) >= args.budget:
                    break
            mean = sum(times) / len(times)
            row = {"batch": b, "iters": len(times), "latency_ms": mean * 1e3, "min_ms": min(times) * 1e3,
                   "tokens_per_s": b * tt.MAX_SEQ / mean}
            result["rows"].append(row)
            print(f"  {b:>6} {row['iters']:>6} {row['latency_ms']:>11.2f} {row['min_ms']:>9.2f} {row['tokens_per_s']:>10.0f}",
                  flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("weights")
    c.add_argument("tokens")
    c.add_argument("reference")
    c.add_argument("--tolerance", type=float, default=1e-4)
    b = sub.add_parser("bench")
    b.add_argument("weights")
    b.add_argument("--batches", default="1,4,16,64")
    b.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    b.add_argument("--min-time", type=float, default=1.0)
    b.add_argument("--min-iters", type=int, default=3)
    b.add_argument("--budget", type=float, default=20.0)
    b.add_argument("--warmup", type=int, default=2)
    b.add_argument("--json")
    args = ap.parse_args(argv)
    return cmd_check(args) if args.cmd == "check" else cmd_bench(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
