#!/usr/bin/python3
"""The TinyTransformer: configuration, deterministic Flax-style weights, and an independent numpy
reference of its forward pass.

The model is the Flax NNX model the examples describe: byte vocabulary 256, d_model 256, 4 heads
of 64, FFN 1024, 4 pre-norm blocks (LayerNorm eps 1e-6, causal multi-head attention with separate
query/key/value/out projections with bias, tanh-GELU FFN 256->1024->256), final LayerNorm and an
lm_head without bias. Parameter names follow the flattened NNX state: "blocks.0.attn.query.kernel".

Commands:
  tiny_transformer.py weights OUT.safetensors [--seed N]
  tiny_transformer.py tokens OUT.npy --batch B [--seed N]
  tiny_transformer.py reference WEIGHTS.safetensors TOKENS.npy OUT.npy
"""
import argparse
import json
import struct
import sys

import numpy as np

VOCAB = 256
D_MODEL = 256
HEADS = 4
HEAD_DIM = D_MODEL // HEADS
FFN = 1024
LAYERS = 4
MAX_SEQ = 256
LN_EPS = 1e-6


def param_shapes():
    """Every parameter's name and shape, in the order JAX flattens the state (sorted keys)."""
    shapes = {}
    for layer in range(LAYERS):
        p = f"blocks.{layer}."
        for proj in ("key", "out", "query", "value"):
            shapes[p + f"attn.{proj}.bias"] = (D_MODEL,)
            shapes[p + f"attn.{proj}.kernel"] = (D_MODEL, D_MODEL)
        shapes[p + "ffn_in.bias"] = (FFN,)
        shapes[p + "ffn_in.kernel"] = (D_MODEL, FFN)
        shapes[p + "ffn_out.bias"] = (D_MODEL,)
        shapes[p + "ffn_out.kernel"] = (FFN, D_MODEL)
        for ln in ("ln1", "ln2"):
            shapes[p + f"{ln}.bias"] = (D_MODEL,)
            shapes[p + f"{ln}.scale"] = (D_MODEL,)
    shapes["embed.embedding"] = (VOCAB, D_MODEL)
    shapes["lm_head.kernel"] = (D_MODEL, VOCAB)
    shapes["ln_f.bias"] = (D_MODEL,)
    shapes["ln_f.scale"] = (D_MODEL,)
    shapes["pos_embed.embedding"] = (MAX_SEQ, D_MODEL)
    return dict(sorted(shapes.items(), key=lambda kv: _sort_key(kv[0])))


def _sort_key(name):
    # JAX sorts dict keys as strings and list indices numerically.
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in name.split(".")]


def _truncated_normal(rng, shape, stddev):
    """Flax's variance-scaling 'truncated_normal': N(0, 1) truncated to [-2, 2], rescaled so the
    result has the requested standard deviation."""
    out = rng.standard_normal(size=shape)
    bad = np.abs(out) > 2.0
    while bad.any():
        out[bad] = rng.standard_normal(size=int(bad.sum()))
        bad = np.abs(out) > 2.0
    return (out * (stddev / 0.87962566103423978)).astype(np.float32)


def init_params(seed=0):
    """Flax-style initialisation: lecun-normal kernels (std 1/sqrt(fan_in)) and variance-scaled
    embeddings. Biases and LayerNorm parameters, which Flax initialises to 0 and 1, get a small
    deterministic perturbation (as after training) so that every parameter affects the logits."""
    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in param_shapes().items():
        if name.endswith(".kernel"):
            params[name] = _truncated_normal(rng, shape, 1.0 / np.sqrt(shape[0]))
        elif name.endswith(".embedding"):
            params[name] = _truncated_normal(rng, shape, 1.0 / np.sqrt(shape[1]))
        elif name.endswith(".scale"):
            params[name] = (1.0 + 0.1 * rng.standard_normal(size=shape)).astype(np.float32)
        else:  # biases
            params[name] = (0.02 * rng.standard_normal(size=shape)).astype(np.float32)
    return params


def save_safetensors(path, params):
    header, offset, blobs = {}, 0, []
    for name, value in params.items():
        data = np.ascontiguousarray(value, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(value.shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    header["__metadata__"] = {"format": "pt", "model": "TinyTransformer"}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def load_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    base = 8 + n
    params = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        assert info["dtype"] == "F32", name
        begin, end = info["data_offsets"]
        params[name] = np.frombuffer(raw[base + begin : base + end], dtype="<f4").reshape(info["shape"])
    return params


def _layer_norm(x, scale, bias):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + LN_EPS) * scale + bias


def _gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def forward(params, tokens, dtype=np.float64):
    """Logits (batch, seq, vocab) for int tokens (batch, seq), computed in `dtype`."""
    p = {k: v.astype(dtype) for k, v in params.items()}
    b, s = tokens.shape
    x = p["embed.embedding"][tokens] + p["pos_embed.embedding"][np.arange(s)][None]
    causal = np.tril(np.ones((s, s), dtype=bool))
    for layer in range(LAYERS):
        q_ = f"blocks.{layer}."
        h = _layer_norm(x, p[q_ + "ln1.scale"], p[q_ + "ln1.bias"])
        proj = {}
        for name in ("query", "key", "value"):
            y = h @ p[q_ + f"attn.{name}.kernel"] + p[q_ + f"attn.{name}.bias"]
            proj[name] = y.reshape(b, s, HEADS, HEAD_DIM)
        scores = np.einsum("bqhd,bkhd->bhqk", proj["query"] / np.sqrt(HEAD_DIM), proj["key"])
        scores = np.where(causal, scores, np.finfo(np.float32).min)
        weights = _softmax(scores)
        attn = np.einsum("bhqk,bkhd->bqhd", weights, proj["value"]).reshape(b, s, D_MODEL)
        x = x + attn @ p[q_ + "attn.out.kernel"] + p[q_ + "attn.out.bias"]
        h = _layer_norm(x, p[q_ + "ln2.scale"], p[q_ + "ln2.bias"])
        h = _gelu_tanh(h @ p[q_ + "ffn_in.kernel"] + p[q_ + "ffn_in.bias"])
        x = x + h @ p[q_ + "ffn_out.kernel"] + p[q_ + "ffn_out.bias"]
    x = _layer_norm(x, p["ln_f.scale"], p["ln_f.bias"])
    return (x @ p["lm_head.kernel"]).astype(np.float32)


def make_tokens(batch, seed=1):
    return np.random.default_rng(seed).integers(0, VOCAB, size=(batch, MAX_SEQ), dtype=np.int32)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("weights")
    w.add_argument("out")
    w.add_argument("--seed", type=int, default=0)
    t = sub.add_parser("tokens")
    t.add_argument("out")
    t.add_argument("--batch", type=int, required=True)
    t.add_argument("--seed", type=int, default=1)
    r = sub.add_parser("reference")
    r.add_argument("weights")
    r.add_argument("tokens")
    r.add_argument("out")
    args = ap.parse_args(argv)
    if args.cmd == "weights":
        save_safetensors(args.out, init_params(args.seed))
    elif args.cmd == "tokens":
        np.save(args.out, make_tokens(args.batch, args.seed))
    else:
        np.save(args.out, forward(load_safetensors(args.weights), np.load(args.tokens)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
