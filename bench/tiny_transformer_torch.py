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
  tiny_transformer_torch.py generate-bench WEIGHTS.safetensors [--concurrency 1,4,16,64] [--prompt-len 32]
                                  [--max-tokens 128] [--threads 2] [--repeats N] [--json OUT]
      text generation with a KV cache (docs/generation.md's prefill/decode): per concurrency c,
      c prompts prefilled together, then one decode step per token for all c sequences, greedy;
      generated tokens/s (all sequences), time to first token (the prefill) and inter-token
      latency (a decode step) p50/p99 in ms
  tiny_transformer_torch.py generate-check WEIGHTS.safetensors --prompt TEXT [--prompt TEXT]...
                                  --max-tokens N
      greedy tokens of the KV-cache loop (the prompts batched together) against the float64 numpy
      reference (tiny_transformer.py generate); fails if any token differs
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


def _attention(q, k, v, causal=False, mask=None):
    """softmax(q k^T / sqrt(head_dim) + mask) v over [batch, heads, s, head_dim]: PyTorch's fused
    scaled_dot_product_attention (torch >= 2.0), else the same in matmuls (Debian's torch 1.13)."""
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
    scores = torch.matmul(q, k.transpose(-1, -2)) * (1.0 / math.sqrt(q.shape[-1]))
    low = torch.finfo(scores.dtype).min
    if causal:
        n = q.shape[-2]
        scores = scores.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), low)
    if mask is not None:
        scores = scores.masked_fill(~mask, low)
    return torch.matmul(torch.softmax(scores, dim=-1), v)


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

    # The KV-cache generation path (docs/generation.md): activations [batch, s, d_model], caches
    # [batch, MAX_SEQ, heads, head_dim] preallocated per layer for keys and for values.

    def _qkv(self, x):
        b, s, _ = x.shape
        h = F.layer_norm(x, (tt.D_MODEL,), self.ln1_scale, self.ln1_bias, tt.LN_EPS)
        return [(torch.matmul(h, getattr(self, f"{n}_kernel")) + getattr(self, f"{n}_bias")).view(b, s, tt.HEADS, tt.HEAD_DIM)
                for n in ("query", "key", "value")]

    def _rest(self, x, attn):
        # attn: [batch, heads, s, head_dim]
        b, s, d = x.shape
        x = x + (torch.matmul(attn.transpose(1, 2).reshape(b, s, d), self.out_kernel) + self.out_bias)
        h = F.layer_norm(x, (d,), self.ln2_scale, self.ln2_bias, tt.LN_EPS)
        h = self.gelu(torch.matmul(h, self.ffn_in_kernel) + self.ffn_in_bias)
        return x + (torch.matmul(h, self.ffn_out_kernel) + self.ffn_out_bias)

    def prefill(self, x, k_cache, v_cache):
        """x: [batch, p, d] (the padded prompts); keys and values written to the caches' first p
        positions; causal attention among them."""
        p = x.shape[1]
        q, k, v = self._qkv(x)
        k_cache[:, :p] = k
        v_cache[:, :p] = v
        attn = _attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), causal=True)
        return self._rest(x, attn)

    def decode(self, x, k_cache, v_cache, rows, position, mask):
        """x: [batch, 1, d]; each row's key and value written at its position, then the query
        attends to the cached positions 0..position (mask: [batch, 1, 1, n] over the first n
        cache positions, n = the largest position + 1)."""
        n = mask.shape[-1]
        q, k, v = self._qkv(x)
        k_cache[rows, position] = k[:, 0]
        v_cache[rows, position] = v[:, 0]
        attn = _attention(q.transpose(1, 2), k_cache[:, :n].transpose(1, 2), v_cache[:, :n].transpose(1, 2), mask=mask)
        return self._rest(x, attn)


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

    def new_cache(self, batch):
        """Preallocated KV cache: [k0, v0, k1, v1, ...], each [batch, MAX_SEQ, heads, head_dim]."""
        return [torch.zeros(batch, tt.MAX_SEQ, tt.HEADS, tt.HEAD_DIM) for _ in range(2 * tt.LAYERS)]

    def _logits(self, x):
        x = F.layer_norm(x, (tt.D_MODEL,), self.ln_f_scale, self.ln_f_bias, tt.LN_EPS)
        return torch.matmul(x, self.lm_head)

    def prefill(self, tokens, lengths, cache):
        """tokens: int64 [batch, p] prompts right-padded to the longest, lengths: int64 [batch] ->
        logits [batch, 256] of the token after each prompt; the cache's first p positions filled
        (the padding's entries are overwritten by the decode steps before they are attended)."""
        p = tokens.shape[1]
        x = F.embedding(tokens, self.embed) + self.pos_embed[:p].unsqueeze(0)
        for i, block in enumerate(self.blocks):
            x = block.prefill(x, cache[2 * i], cache[2 * i + 1])
        last = x[torch.arange(x.shape[0]), lengths - 1]  # [batch, d]
        return self._logits(last)

    def decode(self, token, position, cache):
        """token, position: int64 [batch] -> logits [batch, 256]; writes each row's keys and
        values at its position."""
        b = token.shape[0]
        rows = torch.arange(b)
        x = (F.embedding(token, self.embed) + self.pos_embed[position]).unsqueeze(1)
        n = int(position.max()) + 1
        mask = (torch.arange(n).unsqueeze(0) <= position.unsqueeze(1)).view(b, 1, 1, n)
        for i, block in enumerate(self.blocks):
            x = block.decode(x, cache[2 * i], cache[2 * i + 1], rows, position, mask)
        return self._logits(x[:, 0])


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


def generate_greedy(model, prompts, max_tokens, step_times=None):
    """Greedy generation for a batch of prompts (lists of byte values) with the KV cache: the
    generated token lists (each stops at max_tokens or when its sequence fills MAX_SEQ). With
    step_times, appends the prefill's and every decode step's seconds."""
    b = len(prompts)
    lengths = torch.tensor([len(p) for p in prompts], dtype=torch.int64)
    tokens = torch.zeros(b, int(lengths.max()), dtype=torch.int64)
    for i, p in enumerate(prompts):
        tokens[i, :len(p)] = torch.tensor(list(p), dtype=torch.int64)
    limits = [min(max_tokens, tt.MAX_SEQ - len(p)) for p in prompts]
    out = [[] for _ in prompts]
    cache = model.new_cache(b)
    t0 = time.perf_counter()
    logits = model.prefill(tokens, lengths, cache)
    token = torch.argmax(logits, dim=1)  # the first largest logit
    if step_times is not None:
        step_times.append(time.perf_counter() - t0)
    position = lengths.clone()
    for step in range(max(limits)):
        for i in range(b):
            if step < limits[i]:
                out[i].append(int(token[i]))
        if step + 1 >= max(limits):
            break
        # finished rows keep stepping (at most to the last cache position) so the batch stays whole
        t0 = time.perf_counter()
        logits = model.decode(token, torch.clamp(position, max=tt.MAX_SEQ - 1), cache)
        token = torch.argmax(logits, dim=1)
        if step_times is not None:
            step_times.append(time.perf_counter() - t0)
        position += 1
    return out


def cmd_generate_check(args):
    params = tt.load_safetensors(args.weights)
    model = load_model(args.weights)
    prompts = [p.encode() for p in args.prompt]
    with torch.inference_mode():
        got = generate_greedy(model, prompts, args.max_tokens)
    bad = 0
    for p, g in zip(prompts, got):
        ref = tt.generate_greedy(params, p, args.max_tokens)
        first = next((i for i, (a, b) in enumerate(zip(g, ref)) if a != b), None if len(g) == len(ref) else min(len(g), len(ref)))
        ok = first is None
        bad += not ok
        print(f"prompt {p!r} ({len(p)} bytes): {len(g)} tokens, torch KV cache {'==' if ok else '!='} numpy float64"
              + ("" if ok else f" (first difference at token {first})"))
        print(f"  {bytes(g)!r}")
    return 1 if bad else 0


def cmd_generate_bench(args):
    torch.set_num_threads(args.threads)
    model = load_model(args.weights)
    if not 1 <= args.prompt_len or args.prompt_len + args.max_tokens > tt.MAX_SEQ:
        raise SystemExit(f"prompt-len + max-tokens must be at most {tt.MAX_SEQ}")
    result = {"engine": "torch", "version": torch.__version__, "threads": torch.get_num_threads(),
              "prompt_len": args.prompt_len, "max_tokens": args.max_tokens, "rows": []}
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, fp32, inference_mode, KV cache "
          f"[b, {tt.MAX_SEQ}, {tt.HEADS}, {tt.HEAD_DIM}] per layer; prompts of {args.prompt_len} bytes, "
          f"{args.max_tokens} tokens each, greedy")
    print(f"  {'conc':>5} {'tokens':>7} {'seconds':>8} {'tokens/s':>9} {'TTFT ms':>8} {'ITL p50':>8} {'ITL p99':>8}")
    rng = np.random.default_rng(args.seed)
    with torch.inference_mode():
        for c in [int(x) for x in args.concurrency.split(",")]:
            prompts = [bytes(rng.integers(32, 127, size=args.prompt_len, dtype=np.uint8)) for _ in range(c)]
            generate_greedy(model, prompts, min(args.max_tokens, 8))  # warm-up
            ttft, itl, total, n_tokens = [], [], 0.0, 0
            for _ in range(args.repeats):
                times = []
                t0 = time.perf_counter()
                out = generate_greedy(model, prompts, args.max_tokens, times)
                total += time.perf_counter() - t0
                n_tokens += sum(len(o) for o in out)
                ttft.append(times[0])
                itl += times[1:]
            itl_ms = np.array(itl) * 1e3
            row = {"concurrency": c, "generated_tokens": n_tokens, "seconds": total, "tokens_per_s": n_tokens / total,
                   "ttft_ms": float(np.mean(ttft)) * 1e3,
                   "itl_p50_ms": float(np.percentile(itl_ms, 50)) if len(itl) else None,
                   "itl_p99_ms": float(np.percentile(itl_ms, 99)) if len(itl) else None}
            result["rows"].append(row)
            print(f"  {c:>5} {n_tokens:>7} {total:>8.2f} {row['tokens_per_s']:>9.0f} {row['ttft_ms']:>8.2f} "
                  f"{row['itl_p50_ms'] or 0:>8.2f} {row['itl_p99_ms'] or 0:>8.2f}", flush=True)
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
    g = sub.add_parser("generate-bench")
    g.add_argument("weights")
    g.add_argument("--concurrency", default="1,4,16,64")
    g.add_argument("--prompt-len", type=int, default=32)
    g.add_argument("--max-tokens", type=int, default=128)
    g.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    g.add_argument("--repeats", type=int, default=1)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--json")
    gc = sub.add_parser("generate-check")
    gc.add_argument("weights")
    gc.add_argument("--prompt", action="append", required=True)
    gc.add_argument("--max-tokens", type=int, default=16)
    args = ap.parse_args(argv)
    return {"check": cmd_check, "bench": cmd_bench, "generate-bench": cmd_generate_bench,
            "generate-check": cmd_generate_check}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
