#!/usr/bin/python3
"""Writes the TinyTransformer forward pass as StableHLO text in the form jax.export produces for a
Flax NNX model with a symbolic batch dimension ("b, 256"): a public @main taking the parameters
(the (predict_fn, params) pattern, flattened in sorted key order) and the int32 tokens, which
computes the dimension variable b and calls @_wrapped_jax_export_main; nested jitted functions
(jnp.take, jnp.where, jax.nn.gelu, jax.nn.softmax, integer_pow) become private functions that take
the dimension variable first; shapes that depend on b are built as i32 shape tensors and used by
dynamic_broadcast_in_dim / dynamic_reshape.

  gen_mlir.py OUT.mlir                          parameters passed as arguments
  gen_mlir.py OUT.mlir --baked W.safetensors    parameters baked in as constants (as jax.jit of a
                                                closure over the parameters lowers them)
"""
import sys

import tiny_transformer as tt

F32 = "f32"


def tensor(dims, dtype=F32):
    return "tensor<" + "".join(f"{d}x" for d in dims) + dtype + ">"


class Func:
    """Emits one function body, naming values the way stablehlo-opt prints them."""

    def __init__(self, name, params, results, private=True, attrs=None):
        self.name, self.params, self.results, self.private = name, params, results, private
        self.attrs = attrs or {}
        self.lines, self.n, self.const_counts = [], 0, {"c": 0, "cst": 0}

    def value(self):
        v = f"%{self.n}"
        self.n += 1
        return v

    def op(self, text, n_results=1):
        v = self.value()
        self.lines.append(f"    {v}{':' + str(n_results) if n_results > 1 else ''} = {text}")
        return v

    def const(self, literal, type_, is_float):
        prefix = "cst" if is_float else "c"
        k = self.const_counts[prefix]
        self.const_counts[prefix] += 1
        name = f"%{prefix}" if k == 0 else f"%{prefix}_{k - 1}"
        self.lines.append(f"    {name} = stablehlo.constant dense<{literal}> : {type_}")
        return name

    def text(self):
        vis = "private" if self.private else "public"
        args = ", ".join(f"%arg{i}: {t}" + (f" {{{a}}}" if a else "") for i, (t, a) in enumerate(self.params))
        if len(self.results) == 1 and not self.results[0][1]:
            res = self.results[0][0]
        else:
            res = "(" + ", ".join(t + (f" {{{a}}}" if a else "") for t, a in self.results) + ")"
        out = [f"  func.func {vis} @{self.name}({args}) -> {res} {{"]
        out += self.lines
        out.append("  }")
        return "\n".join(out)


B = "?"  # the symbolic batch dimension
S, D, H, HD, FFN, V = tt.MAX_SEQ, tt.D_MODEL, tt.HEADS, tt.HEAD_DIM, tt.FFN, tt.VOCAB
DIMVAR = ("tensor<i64>", 'jax.global_constant = "b"')


def shape_tensor(f, dims):
    """Builds the i32 shape tensor for `dims`, where "b" is the dimension variable %arg0."""
    parts = []
    for d in dims:
        if d == "b":
            b32 = f.op("stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>")
            parts.append(f.op(f"stablehlo.reshape {b32} : (tensor<i32>) -> tensor<1xi32>"))
        else:
            parts.append(f.const(str(d), "tensor<1xi32>", False))
    types = ", ".join("tensor<1xi32>" for _ in parts)
    return f.op(f"stablehlo.concatenate {', '.join(parts)}, dim = 0 : ({types}) -> tensor<{len(dims)}xi32>")


def dyn_broadcast(f, x, x_type, dims, bdims, dtype=F32):
    """dynamic_broadcast_in_dim of x to `dims` (which may contain "b")."""
    shape = shape_tensor(f, dims)
    out = tensor([B if d == "b" else d for d in dims], dtype)
    bd = ", ".join(str(i) for i in bdims)
    return f.op(f"stablehlo.dynamic_broadcast_in_dim {x}, {shape}, dims = [{bd}] : ({x_type}, tensor<{len(dims)}xi32>) -> {out}"), out


def dyn_reshape(f, x, x_type, dims):
    shape = shape_tensor(f, dims)
    out = tensor([B if d == "b" else d for d in dims])
    return f.op(f"stablehlo.dynamic_reshape {x}, {shape} : ({x_type}, tensor<{len(dims)}xi32>) -> {out}"), out


def take_fn():
    """jnp.take(embedding, tokens, axis=0) with mode='fill': a gather of rows, where rows for
    out-of-range tokens are filled with NaN."""
    t_tok, t_emb, t_out = tensor([B, S], "i32"), tensor([V, D]), tensor([B, S, D])
    f = Func("_take", [DIMVAR, (t_emb, ""), (t_tok, "")], [(t_out, "")])
    idx = f.op(f"stablehlo.convert %arg2 : ({t_tok}) -> {tensor([B, S], 'i64')}")
    shape = shape_tensor(f, ["b", S, 1])
    t_idx = tensor([B, S, 1], "i64")
    idx = f.op(f"stablehlo.dynamic_reshape {idx}, {shape} : ({tensor([B, S], 'i64')}, tensor<3xi32>) -> {t_idx}")
    zero = f.const("0", "tensor<i64>", False)
    zero_b, _ = dyn_broadcast(f, zero, "tensor<i64>", ["b", S, 1], [], "i64")
    ge = f.op(f"stablehlo.compare  GE, {idx}, {zero_b},  SIGNED : ({t_idx}, {t_idx}) -> {tensor([B, S, 1], 'i1')}")
    upper = f.const(str(V - 1), "tensor<i64>", False)
    upper_b, _ = dyn_broadcast(f, upper, "tensor<i64>", ["b", S, 1], [], "i64")
    le = f.op(f"stablehlo.compare  LE, {idx}, {upper_b},  SIGNED : ({t_idx}, {t_idx}) -> {tensor([B, S, 1], 'i1')}")
    both = f.op(f"stablehlo.and {ge}, {le} : {tensor([B, S, 1], 'i1')}")
    true = f.const("true", "tensor<i1>", False)
    mask = f.op(f"stablehlo.reduce({both} init: {true}) applies stablehlo.and across dimensions = [2] : ({tensor([B, S, 1], 'i1')}, tensor<i1>) -> {tensor([B, S], 'i1')}")
    rows = f.op(f'"stablehlo.gather"(%arg1, {idx}) <{{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, {D}>}}> : ({t_emb}, {t_idx}) -> {t_out}')
    mask_b, _ = dyn_broadcast(f, mask, tensor([B, S], "i1"), ["b", S, D], [0, 1], "i1")
    nan = f.const("0x7FC00000", "tensor<f32>", True)
    nan_b, _ = dyn_broadcast(f, nan, "tensor<f32>", ["b", S, D], [])
    out = f.op(f"stablehlo.select {mask_b}, {rows}, {nan_b} : {tensor([B, S, D], 'i1')}, {t_out}")
    f.lines.append(f"    return {out} : {t_out}")
    return f


def where_fn():
    """jnp.where(mask, scores, finfo.min) over the attention scores."""
    t_s, t_m = tensor([B, H, S, S]), tensor([B, H, S, S], "i1")
    f = Func("_where", [DIMVAR, (t_m, ""), (t_s, ""), ("tensor<f32>", "")], [(t_s, "")])
    low, _ = dyn_broadcast(f, "%arg3", "tensor<f32>", ["b", H, S, S], [])
    out = f.op(f"stablehlo.select %arg1, %arg2, {low} : {t_m}, {t_s}")
    f.lines.append(f"    return {out} : {t_s}")
    return f


def integer_pow_fn():
    """x ** 3 as jax lowers lax.integer_pow: repeated multiplication."""
    t = tensor([B, S, FFN])
    f = Func("integer_pow", [DIMVAR, (t, "")], [(t, "")])
    sq = f.op(f"stablehlo.multiply %arg1, %arg1 : {t}")
    cube = f.op(f"stablehlo.multiply %arg1, {sq} : {t}")
    f.lines.append(f"    return {cube} : {t}")
    return f


def gelu_fn():
    """jax.nn.gelu(x, approximate=True) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    t = tensor([B, S, FFN])
    f = Func("gelu", [DIMVAR, (t, "")], [(t, "")])
    dims = ["b", S, FFN]
    cube = f.op(f"call @integer_pow(%arg0, %arg1) : (tensor<i64>, {t}) -> {t}")
    k = f.const("4.471500e-02", "tensor<f32>", True)
    kb, _ = dyn_broadcast(f, k, "tensor<f32>", dims, [])
    y = f.op(f"stablehlo.multiply {kb}, {cube} : {t}")
    y = f.op(f"stablehlo.add %arg1, {y} : {t}")
    c = f.const("0.797884583", "tensor<f32>", True)
    cb, _ = dyn_broadcast(f, c, "tensor<f32>", dims, [])
    y = f.op(f"stablehlo.multiply {cb}, {y} : {t}")
    y = f.op(f"stablehlo.tanh {y} : {t}")
    one = f.const("1.000000e+00", "tensor<f32>", True)
    oneb, _ = dyn_broadcast(f, one, "tensor<f32>", dims, [])
    y = f.op(f"stablehlo.add {oneb}, {y} : {t}")
    half = f.const("5.000000e-01", "tensor<f32>", True)
    halfb, _ = dyn_broadcast(f, half, "tensor<f32>", dims, [])
    y = f.op(f"stablehlo.multiply {halfb}, {y} : {t}")
    y = f.op(f"stablehlo.multiply %arg1, {y} : {t}")
    f.lines.append(f"    return {y} : {t}")
    return f


def softmax_fn():
    """jax.nn.softmax(x, axis=-1): exp(x - max) / sum(exp(x - max))."""
    t, t_r = tensor([B, H, S, S]), tensor([B, H, S])
    f = Func("_softmax", [DIMVAR, (t, "")], [(t, "")])
    dims = ["b", H, S, S]
    ninf = f.const("0xFF800000", "tensor<f32>", True)
    mx = f.op(f"stablehlo.reduce(%arg1 init: {ninf}) applies stablehlo.maximum across dimensions = [3] : ({t}, tensor<f32>) -> {t_r}")
    mxb, _ = dyn_broadcast(f, mx, t_r, dims, [0, 1, 2])
    y = f.op(f"stablehlo.subtract %arg1, {mxb} : {t}")
    e = f.op(f"stablehlo.exponential {y} : {t}")
    zero = f.const("0.000000e+00", "tensor<f32>", True)
    sm = f.op(f"stablehlo.reduce({e} init: {zero}) applies stablehlo.add across dimensions = [3] : ({t}, tensor<f32>) -> {t_r}")
    smb, _ = dyn_broadcast(f, sm, t_r, dims, [0, 1, 2])
    out = f.op(f"stablehlo.divide {e}, {smb} : {t}")
    f.lines.append(f"    return {out} : {t}")
    return f


class Model:
    """Emits @_wrapped_jax_export_main: the forward pass over the flattened parameters, which are
    either arguments or (baked) constants holding `weights`."""

    def __init__(self, weights=None):
        self.names = list(tt.param_shapes().items())
        self.baked = weights is not None
        if self.baked:
            self.f = Func("_wrapped_jax_export_main", [DIMVAR, (tensor([B, S], "i32"), "")], [(tensor([B, S, V]), "")])
            self.tokens = "%arg1"
            self.arg = {name: self.f.const(hex_literal(weights[name]), tensor(shape), True) for name, shape in self.names}
        else:
            params = [DIMVAR] + [(tensor(shape), "") for _, shape in self.names] + [(tensor([B, S], "i32"), "")]
            self.f = Func("_wrapped_jax_export_main", params, [(tensor([B, S, V]), "")])
            self.arg = {name: f"%arg{i + 1}" for i, (name, _) in enumerate(self.names)}
            self.tokens = f"%arg{len(self.names) + 1}"

    def linear(self, x, x_type, prefix, n_in, n_out, bias=True):
        """nnx.Linear: x @ kernel (+ bias) over the last dimension."""
        f, t_out = self.f, tensor([B, S, n_out])
        y = f.op(f"stablehlo.dot_general {x}, {self.arg[prefix + '.kernel']}, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : ({x_type}, {tensor([n_in, n_out])}) -> {t_out}")
        if bias:
            b3 = f.op(f"stablehlo.reshape {self.arg[prefix + '.bias']} : ({tensor([n_out])}) -> {tensor([1, 1, n_out])}")
            bb, _ = dyn_broadcast(f, b3, tensor([1, 1, n_out]), ["b", S, n_out], [0, 1, 2])
            y = f.op(f"stablehlo.add {y}, {bb} : {t_out}")
        return y, t_out

    def layer_norm(self, x, prefix):
        """nnx.LayerNorm with Flax's fast variance: var = max(0, E[x^2] - E[x]^2)."""
        f, t, t_r = self.f, tensor([B, S, D]), tensor([B, S])
        dims = ["b", S, D]
        zero = f.const("0.000000e+00", "tensor<f32>", True)
        sm = f.op(f"stablehlo.reduce({x} init: {zero}) applies stablehlo.add across dimensions = [2] : ({t}, tensor<f32>) -> {t_r}")
        n = f.const(f"{float(D):.6e}", "tensor<f32>", True)
        nb, _ = dyn_broadcast(f, n, "tensor<f32>", ["b", S], [])
        mean = f.op(f"stablehlo.divide {sm}, {nb} : {t_r}")
        sq = f.op(f"stablehlo.multiply {x}, {x} : {t}")
        sm2 = f.op(f"stablehlo.reduce({sq} init: {zero}) applies stablehlo.add across dimensions = [2] : ({t}, tensor<f32>) -> {t_r}")
        mean2 = f.op(f"stablehlo.divide {sm2}, {nb} : {t_r}")
        msq = f.op(f"stablehlo.multiply {mean}, {mean} : {t_r}")
        var = f.op(f"stablehlo.subtract {mean2}, {msq} : {t_r}")
        zb, _ = dyn_broadcast(f, zero, "tensor<f32>", ["b", S], [])
        var = f.op(f"stablehlo.maximum {zb}, {var} : {t_r}")
        mb, _ = dyn_broadcast(f, mean, t_r, dims, [0, 1])
        y = f.op(f"stablehlo.subtract {x}, {mb} : {t}")
        eps = f.const("9.99999997E-7", "tensor<f32>", True)
        eb, _ = dyn_broadcast(f, eps, "tensor<f32>", ["b", S], [])
        v = f.op(f"stablehlo.add {var}, {eb} : {t_r}")
        r = f.op(f"stablehlo.rsqrt {v} : {t_r}")
        rb, _ = dyn_broadcast(f, r, t_r, dims, [0, 1])
        s3 = f.op(f"stablehlo.reshape {self.arg[prefix + '.scale']} : ({tensor([D])}) -> {tensor([1, 1, D])}")
        sb, _ = dyn_broadcast(f, s3, tensor([1, 1, D]), dims, [0, 1, 2])
        mul = f.op(f"stablehlo.multiply {rb}, {sb} : {t}")
        y = f.op(f"stablehlo.multiply {y}, {mul} : {t}")
        b3 = f.op(f"stablehlo.reshape {self.arg[prefix + '.bias']} : ({tensor([D])}) -> {tensor([1, 1, D])}")
        bb, _ = dyn_broadcast(f, b3, tensor([1, 1, D]), dims, [0, 1, 2])
        return f.op(f"stablehlo.add {y}, {bb} : {t}")

    def attention(self, h, prefix, mask):
        f, t = self.f, tensor([B, S, D])
        heads = {}
        for name in ("query", "key", "value"):
            y, _ = self.linear(h, t, f"{prefix}.attn.{name}", D, D)
            heads[name], _ = dyn_reshape(f, y, t, ["b", S, H, HD])
        t4 = tensor([B, S, H, HD])
        scale = f.const("1.250000e-01", "tensor<f32>", True)
        sb, _ = dyn_broadcast(f, scale, "tensor<f32>", ["b", S, H, HD], [])
        q = f.op(f"stablehlo.multiply {heads['query']}, {sb} : {t4}")
        ts = tensor([B, H, S, S])
        scores = f.op(f"stablehlo.dot_general {q}, {heads['key']}, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : ({t4}, {t4}) -> {ts}")
        low = f.const("-3.40282347E+38", "tensor<f32>", True)
        scores = f.op(f"call @_where(%arg0, {mask}, {scores}, {low}) : (tensor<i64>, {tensor([B, H, S, S], 'i1')}, {ts}, tensor<f32>) -> {ts}")
        w = f.op(f"call @_softmax(%arg0, {scores}) : (tensor<i64>, {ts}) -> {ts}")
        tv = tensor([B, H, S, HD])
        o = f.op(f"stablehlo.dot_general {w}, {heads['value']}, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : ({ts}, {t4}) -> {tv}")
        o = f.op(f"stablehlo.transpose {o}, dims = [0, 2, 1, 3] : ({tv}) -> {t4}")
        o, _ = dyn_reshape(f, o, t4, ["b", S, D])
        o, _ = self.linear(o, t, f"{prefix}.attn.out", D, D)
        return o

    def causal_mask(self):
        """nnx.make_causal_mask: (b, 1, s, s) of query_pos >= key_pos, broadcast over heads."""
        f = self.f
        ti = tensor([S, S], "i32")
        rows = f.op(f"stablehlo.iota dim = 0 : {ti}")
        cols = f.op(f"stablehlo.iota dim = 1 : {ti}")
        m = f.op(f"stablehlo.compare  GE, {rows}, {cols},  SIGNED : ({ti}, {ti}) -> {tensor([S, S], 'i1')}")
        mb, _ = dyn_broadcast(f, m, tensor([S, S], "i1"), ["b", H, S, S], [2, 3], "i1")
        return mb

    def body(self):
        f, t = self.f, tensor([B, S, D])
        tok = f.op(f"call @_take(%arg0, {self.arg['embed.embedding']}, {self.tokens}) : (tensor<i64>, {tensor([V, D])}, {tensor([B, S], 'i32')}) -> {t}")
        pos = f.op(f"stablehlo.iota dim = 0 : {tensor([S], 'i32')}")
        pos2 = f.op(f"stablehlo.broadcast_in_dim {pos}, dims = [1] : ({tensor([S], 'i32')}) -> {tensor([1, S], 'i32')}")
        pe = f.op(f"call @_take_0({self.arg['pos_embed.embedding']}, {pos2}) : ({tensor([S, D])}, {tensor([1, S], 'i32')}) -> {tensor([1, S, D])}")
        peb, _ = dyn_broadcast(f, pe, tensor([1, S, D]), ["b", S, D], [0, 1, 2])
        x = f.op(f"stablehlo.add {tok}, {peb} : {t}")
        mask = self.causal_mask()
        for layer in range(tt.LAYERS):
            p = f"blocks.{layer}"
            h = self.layer_norm(x, f"{p}.ln1")
            a = self.attention(h, p, mask)
            x = f.op(f"stablehlo.add {x}, {a} : {t}")
            h = self.layer_norm(x, f"{p}.ln2")
            h, th = self.linear(h, t, f"{p}.ffn_in", D, FFN)
            h = f.op(f"call @gelu(%arg0, {h}) : (tensor<i64>, {th}) -> {th}")
            h, _ = self.linear(h, th, f"{p}.ffn_out", FFN, D)
            x = f.op(f"stablehlo.add {x}, {h} : {t}")
        x = self.layer_norm(x, "ln_f")
        logits, tl = self.linear(x, t, "lm_head", D, V, bias=False)
        f.lines.append(f"    return {logits} : {tl}")
        return f


def take_static_fn():
    """jnp.take for the (static) position embedding rows: same fill-mode gather, no batch."""
    t_idx_in, t_emb, t_out = tensor([1, S], "i32"), tensor([S, D]), tensor([1, S, D])
    f = Func("_take_0", [(t_emb, ""), (t_idx_in, "")], [(t_out, "")])
    t_i64 = tensor([1, S], "i64")
    idx = f.op(f"stablehlo.convert %arg1 : ({t_idx_in}) -> {t_i64}")
    t_idx = tensor([1, S, 1], "i64")
    idx = f.op(f"stablehlo.reshape {idx} : ({t_i64}) -> {t_idx}")
    zero = f.const("0", t_idx, False)
    ge = f.op(f"stablehlo.compare  GE, {idx}, {zero},  SIGNED : ({t_idx}, {t_idx}) -> {tensor([1, S, 1], 'i1')}")
    upper = f.const(str(S - 1), t_idx, False)
    le = f.op(f"stablehlo.compare  LE, {idx}, {upper},  SIGNED : ({t_idx}, {t_idx}) -> {tensor([1, S, 1], 'i1')}")
    both = f.op(f"stablehlo.and {ge}, {le} : {tensor([1, S, 1], 'i1')}")
    true = f.const("true", "tensor<i1>", False)
    mask = f.op(f"stablehlo.reduce({both} init: {true}) applies stablehlo.and across dimensions = [2] : ({tensor([1, S, 1], 'i1')}, tensor<i1>) -> {tensor([1, S], 'i1')}")
    rows = f.op(f'"stablehlo.gather"(%arg0, {idx}) <{{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, {D}>}}> : ({t_emb}, {t_idx}) -> {t_out}')
    mask_b = f.op(f"stablehlo.broadcast_in_dim {mask}, dims = [0, 1] : ({tensor([1, S], 'i1')}) -> {tensor([1, S, D], 'i1')}")
    nan = f.const("0x7FC00000", t_out, True)
    out = f.op(f"stablehlo.select {mask_b}, {rows}, {nan} : {tensor([1, S, D], 'i1')}, {t_out}")
    f.lines.append(f"    return {out} : {t_out}")
    return f


def hex_literal(array):
    """MLIR's hex form of dense data: the raw little-endian bytes."""
    return '"0x' + array.astype("<f4").tobytes().hex().upper() + '"'


def arg_info(name):
    """The key path JAX prints for a flattened parameter: params['blocks'][0]['attn']['key']['bias']."""
    return "params" + "".join(f"[{p}]" if p.isdigit() else f"['{p}']" for p in name.split("."))


def main_fn(model):
    params = [] if model.baked else [
        (tensor(shape), f'jax.arg_info = "{arg_info(name)}", mhlo.sharding = "{{replicated}}"')
        for name, shape in model.names]
    params.append((tensor([B, S], "i32"), 'jax.arg_info = "tokens", mhlo.sharding = "{replicated}"'))
    f = Func("main", params, [(tensor([B, S, V]), 'jax.result_info = ""')], private=False)
    tokens = f"%arg{len(params) - 1}"
    d = f.op(f"stablehlo.get_dimension_size {tokens}, dim = 0 : ({tensor([B, S], 'i32')}) -> tensor<i32>")
    d = f.op(f"stablehlo.convert {d} : (tensor<i32>) -> tensor<i64>")
    args = ", ".join([d] + [f"%arg{i}" for i in range(len(params))])
    types = ", ".join(["tensor<i64>"] + [t for t, _ in params])
    out = f.op(f"call @_wrapped_jax_export_main({args}) : ({types}) -> {tensor([B, S, V])}")
    f.lines.append(f"    return {out} : {tensor([B, S, V])}")
    return f


def module_text(weights=None):
    model = Model(weights)
    funcs = [main_fn(model), model.body(), take_fn(), take_static_fn(), where_fn(), softmax_fn(), gelu_fn(), integer_pow_fn()]
    header = ("module @jit_forward attributes {jax.uses_shape_polymorphism = true, "
              "mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {")
    return "\n".join([header] + [f.text() for f in funcs] + ["}"]) + "\n"


if __name__ == "__main__":
    if len(sys.argv) == 2:
        weights = None
    elif len(sys.argv) == 4 and sys.argv[2] == "--baked":
        weights = tt.load_safetensors(sys.argv[3])
    else:
        sys.exit(__doc__)
    with open(sys.argv[1], "w") as out:
        out.write(module_text(weights))
