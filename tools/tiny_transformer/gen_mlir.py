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
  gen_mlir.py OUT.mlir --generate               one module with @main (the forward pass above),
                                                @prefill and @decode: the prefill/decode convention
                                                of docs/generation.md (KV cache f32[b, 256, 4, 64]
                                                per layer for keys and values; decode's cache
                                                arguments donated, tf.aliasing_output). @prefill's
                                                prompt length is symbolic too (tokens i32[b, t],
                                                as jax.export.symbolic_shape("b, t") with t <= 256
                                                lowers it): the forward runs over t positions
"""
import sys

import tiny_transformer as tt

F32 = "f32"


def tensor(dims, dtype=F32):
    """The tensor type of `dims`, where "?" (B) and the dimension variable names are dynamic."""
    return "tensor<" + "".join(f"{'?' if d in ('?', 'b', 't') else d}x" for d in dims) + dtype + ">"


class Func:
    """Emits one function body, naming values the way stablehlo-opt prints them."""

    def __init__(self, name, params, results, private=True, attrs=None, dimvars=("b",)):
        self.name, self.params, self.results, self.private = name, params, results, private
        self.attrs = attrs or {}
        self.dimvars = list(dimvars)  # the dimension variables, the first parameters (%arg0, ...)
        self.lines, self.n, self.const_counts = [], 0, {"c": 0, "cst": 0}
        self.n_args = len(params)  # block arguments of nested regions are numbered after these

    def dv(self, name):
        """The parameter holding dimension variable `name`."""
        return f"%arg{self.dimvars.index(name)}"

    def dv_args(self):
        """The dimension variables as a call passes them on: "%arg0" or "%arg0, %arg1"."""
        return ", ".join(f"%arg{i}" for i in range(len(self.dimvars)))

    def dv_types(self):
        return ", ".join("tensor<i64>" for _ in self.dimvars)

    def arg(self, i):
        """The i-th parameter after the dimension variables."""
        return f"%arg{len(self.dimvars) + i}"

    def region_args(self, count):
        names = [f"%arg{self.n_args + i}" for i in range(count)]
        self.n_args += count
        return names

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
T = "t"  # the symbolic prompt length of the prefill (jax.export.symbolic_shape("b, t"), t <= S)


def dimvar_params(names):
    return [("tensor<i64>", f'jax.global_constant = "{n}"') for n in names]


def kv_len(s):
    """The key length attended to by queries of length s: the cache (S) for the forward pass and
    the decode step, the prompt itself (t) for a prefill of symbolic length."""
    return T if s == T else S


def dims_of(s):
    """The dimension variables a function over query length s takes (JAX passes every dimension
    variable of the exported function to each of its private functions)."""
    return ["b", T] if s == T else ["b"]


def shape_tensor(f, dims):
    """Builds the i32 shape tensor for `dims`, where "b" and "t" are dimension variables (the
    function's parameters of those names)."""
    parts = []
    for d in dims:
        if d in ("b", T):
            b32 = f.op(f"stablehlo.convert {f.dv(d)} : (tensor<i64>) -> tensor<i32>")
            parts.append(f.op(f"stablehlo.reshape {b32} : (tensor<i32>) -> tensor<1xi32>"))
        else:
            parts.append(f.const(str(d), "tensor<1xi32>", False))
    types = ", ".join("tensor<1xi32>" for _ in parts)
    return f.op(f"stablehlo.concatenate {', '.join(parts)}, dim = 0 : ({types}) -> tensor<{len(dims)}xi32>")


def dyn_broadcast(f, x, x_type, dims, bdims, dtype=F32):
    """dynamic_broadcast_in_dim of x to `dims` (which may contain "b")."""
    shape = shape_tensor(f, dims)
    out = tensor(dims, dtype)
    bd = ", ".join(str(i) for i in bdims)
    return f.op(f"stablehlo.dynamic_broadcast_in_dim {x}, {shape}, dims = [{bd}] : ({x_type}, tensor<{len(dims)}xi32>) -> {out}"), out


def dyn_reshape(f, x, x_type, dims):
    shape = shape_tensor(f, dims)
    out = tensor(dims)
    return f.op(f"stablehlo.dynamic_reshape {x}, {shape} : ({x_type}, tensor<{len(dims)}xi32>) -> {out}"), out


def take_fn(name="_take", rows=V, seq=S, lead="b", dimvars=("b",)):
    """jnp.take(embedding, tokens, axis=0) with mode='fill': a gather of rows, where rows for
    out-of-range tokens are filled with NaN. `tokens` is i32[lead, seq] (lead: "b", or 1 for the
    position rows jnp.arange(t)[None]), the table f32[rows, D]; `dimvars`, the dimension variables
    the function takes first."""
    t_tok, t_emb, t_out = tensor([lead, seq], "i32"), tensor([rows, D]), tensor([lead, seq, D])
    f = Func(name, dimvar_params(dimvars) + [(t_emb, ""), (t_tok, "")], [(t_out, "")], dimvars=dimvars)
    idx = f.op(f"stablehlo.convert {f.arg(1)} : ({t_tok}) -> {tensor([lead, seq], 'i64')}")
    shape = shape_tensor(f, [lead, seq, 1])
    t_idx = tensor([lead, seq, 1], "i64")
    idx = f.op(f"stablehlo.dynamic_reshape {idx}, {shape} : ({tensor([lead, seq], 'i64')}, tensor<3xi32>) -> {t_idx}")
    zero = f.const("0", "tensor<i64>", False)
    zero_b, _ = dyn_broadcast(f, zero, "tensor<i64>", [lead, seq, 1], [], "i64")
    ge = f.op(f"stablehlo.compare  GE, {idx}, {zero_b},  SIGNED : ({t_idx}, {t_idx}) -> {tensor([lead, seq, 1], 'i1')}")
    upper = f.const(str(rows - 1), "tensor<i64>", False)
    upper_b, _ = dyn_broadcast(f, upper, "tensor<i64>", [lead, seq, 1], [], "i64")
    le = f.op(f"stablehlo.compare  LE, {idx}, {upper_b},  SIGNED : ({t_idx}, {t_idx}) -> {tensor([lead, seq, 1], 'i1')}")
    both = f.op(f"stablehlo.and {ge}, {le} : {tensor([lead, seq, 1], 'i1')}")
    true = f.const("true", "tensor<i1>", False)
    mask = f.op(f"stablehlo.reduce({both} init: {true}) applies stablehlo.and across dimensions = [2] : ({tensor([lead, seq, 1], 'i1')}, tensor<i1>) -> {tensor([lead, seq], 'i1')}")
    rows_ = f.op(f'"stablehlo.gather"({f.arg(0)}, {idx}) <{{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, {D}>}}> : ({t_emb}, {t_idx}) -> {t_out}')
    mask_b, _ = dyn_broadcast(f, mask, tensor([lead, seq], "i1"), [lead, seq, D], [0, 1], "i1")
    nan = f.const("0x7FC00000", "tensor<f32>", True)
    nan_b, _ = dyn_broadcast(f, nan, "tensor<f32>", [lead, seq, D], [])
    out = f.op(f"stablehlo.select {mask_b}, {rows_}, {nan_b} : {tensor([lead, seq, D], 'i1')}, {t_out}")
    f.lines.append(f"    return {out} : {t_out}")
    return f


def take_along_axis_fn(s=S):
    """jnp.take_along_axis(x, (lengths - 1)[:, None, None], axis=1) on x f32[b, s, D] (mode 'fill'):
    int64 indices (the array has a symbolic dimension), negative indices wrapped, the batch
    dimension a gather batching dimension, the row of an out-of-range index filled with NaN.
    With s = "t" the axis size in the wrapping and the bound is the dimension variable t (as JAX
    lowers core.dimension_as_value), and the function takes both dimension variables."""
    t_x, t_in, t_out = tensor([B, s, D]), tensor([B, 1, 1], "i32"), tensor([B, 1, D])
    t_idx, t_m = tensor([B, 1, 1], "i64"), tensor([B, 1, 1], "i1")
    dimvars = dims_of(s)
    f = Func("take_along_axis", dimvar_params(dimvars) + [(t_x, ""), (t_in, "")], [(t_out, "")], dimvars=dimvars)
    idx = f.op(f"stablehlo.convert {f.arg(1)} : ({t_in}) -> {t_idx}")
    zero = f.const("0", "tensor<i64>", False)
    zb, _ = dyn_broadcast(f, zero, "tensor<i64>", ["b", 1, 1], [], "i64")
    neg = f.op(f"stablehlo.compare  LT, {idx}, {zb},  SIGNED : ({t_idx}, {t_idx}) -> {t_m}")
    size = f.dv(T) if s == T else f.const(str(S), "tensor<i64>", False)
    sb, _ = dyn_broadcast(f, size, "tensor<i64>", ["b", 1, 1], [], "i64")
    wrapped = f.op(f"stablehlo.add {idx}, {sb} : {t_idx}")
    idx = f.op(f"stablehlo.select {neg}, {wrapped}, {idx} : {t_m}, {t_idx}")
    zb, _ = dyn_broadcast(f, zero, "tensor<i64>", ["b", 1, 1], [], "i64")
    ge = f.op(f"stablehlo.compare  GE, {idx}, {zb},  SIGNED : ({t_idx}, {t_idx}) -> {t_m}")
    if s == T:
        one = f.const("1", "tensor<i64>", False)
        upper = f.op(f"stablehlo.subtract {f.dv(T)}, {one} : tensor<i64>")
    else:
        upper = f.const(str(S - 1), "tensor<i64>", False)
    ub, _ = dyn_broadcast(f, upper, "tensor<i64>", ["b", 1, 1], [], "i64")
    le = f.op(f"stablehlo.compare  LE, {idx}, {ub},  SIGNED : ({t_idx}, {t_idx}) -> {t_m}")
    both = f.op(f"stablehlo.and {ge}, {le} : {t_m}")
    true = f.const("true", "tensor<i1>", False)
    mask = f.op(f"stablehlo.reduce({both} init: {true}) applies stablehlo.and across dimensions = [2] : ({t_m}, tensor<i1>) -> {tensor([B, 1], 'i1')}")
    rows = f.op(f'"stablehlo.gather"({f.arg(0)}, {idx}) <{{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, {D}>}}> : ({t_x}, {t_idx}) -> {t_out}')
    mask_b, _ = dyn_broadcast(f, mask, tensor([B, 1], "i1"), ["b", 1, D], [0, 1], "i1")
    nan = f.const("0x7FC00000", "tensor<f32>", True)
    nan_b, _ = dyn_broadcast(f, nan, "tensor<f32>", ["b", 1, D], [])
    out = f.op(f"stablehlo.select {mask_b}, {rows}, {nan_b} : {tensor([B, 1, D], 'i1')}, {t_out}")
    f.lines.append(f"    return {out} : {t_out}")
    return f


def helper_names(s):
    """Names of the private functions for query length s: JAX's for the forward pass (s = S), with a
    suffix for the decode step's shapes (s = 1) and the prefill's (s = "t"), as JAX renames a
    function lowered more than once."""
    if s == S:
        return {"where": "_where", "softmax": "_softmax", "gelu": "gelu", "integer_pow": "integer_pow"}
    k = 2 if s == T else 1
    return {"where": f"_where_{k}", "softmax": f"_softmax_{k}", "gelu": f"gelu_{k}", "integer_pow": f"integer_pow_{k}"}


def helper_func(s, kind, params, results):
    """A private helper over query length s: the dimension variables first (dims_of(s))."""
    dimvars = dims_of(s)
    return Func(helper_names(s)[kind], dimvar_params(dimvars) + params, results, dimvars=dimvars)


def where_fn(s=S):
    """jnp.where(mask, scores, finfo.min) over the attention scores [b, H, s, kv_len(s)]."""
    kv = kv_len(s)
    t_s, t_m = tensor([B, H, s, kv]), tensor([B, H, s, kv], "i1")
    f = helper_func(s, "where", [(t_m, ""), (t_s, ""), ("tensor<f32>", "")], [(t_s, "")])
    low, _ = dyn_broadcast(f, f.arg(2), "tensor<f32>", ["b", H, s, kv], [])
    out = f.op(f"stablehlo.select {f.arg(0)}, {f.arg(1)}, {low} : {t_m}, {t_s}")
    f.lines.append(f"    return {out} : {t_s}")
    return f


def integer_pow_fn(s=S):
    """x ** 3 as jax lowers lax.integer_pow: repeated multiplication."""
    t = tensor([B, s, FFN])
    f = helper_func(s, "integer_pow", [(t, "")], [(t, "")])
    x = f.arg(0)
    sq = f.op(f"stablehlo.multiply {x}, {x} : {t}")
    cube = f.op(f"stablehlo.multiply {x}, {sq} : {t}")
    f.lines.append(f"    return {cube} : {t}")
    return f


def gelu_fn(s=S):
    """jax.nn.gelu(x, approximate=True) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    t = tensor([B, s, FFN])
    names = helper_names(s)
    f = helper_func(s, "gelu", [(t, "")], [(t, "")])
    x = f.arg(0)
    dims = ["b", s, FFN]
    cube = f.op(f"call @{names['integer_pow']}({f.dv_args()}, {x}) : ({f.dv_types()}, {t}) -> {t}")
    k = f.const("4.471500e-02", "tensor<f32>", True)
    kb, _ = dyn_broadcast(f, k, "tensor<f32>", dims, [])
    y = f.op(f"stablehlo.multiply {kb}, {cube} : {t}")
    y = f.op(f"stablehlo.add {x}, {y} : {t}")
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
    y = f.op(f"stablehlo.multiply {x}, {y} : {t}")
    f.lines.append(f"    return {y} : {t}")
    return f


def softmax_fn(s=S):
    """jax.nn.softmax(x, axis=-1): exp(x - max) / sum(exp(x - max)) over scores [b, H, s, kv]."""
    kv = kv_len(s)
    t, t_r = tensor([B, H, s, kv]), tensor([B, H, s])
    f = helper_func(s, "softmax", [(t, "")], [(t, "")])
    x = f.arg(0)
    dims = ["b", H, s, kv]
    ninf = f.const("0xFF800000", "tensor<f32>", True)
    mx = f.op(f"stablehlo.reduce({x} init: {ninf}) applies stablehlo.maximum across dimensions = [3] : ({t}, tensor<f32>) -> {t_r}")
    mxb, _ = dyn_broadcast(f, mx, t_r, dims, [0, 1, 2])
    y = f.op(f"stablehlo.subtract {x}, {mxb} : {t}")
    e = f.op(f"stablehlo.exponential {y} : {t}")
    zero = f.const("0.000000e+00", "tensor<f32>", True)
    sm = f.op(f"stablehlo.reduce({e} init: {zero}) applies stablehlo.add across dimensions = [3] : ({t}, tensor<f32>) -> {t_r}")
    smb, _ = dyn_broadcast(f, sm, t_r, dims, [0, 1, 2])
    out = f.op(f"stablehlo.divide {e}, {smb} : {t}")
    f.lines.append(f"    return {out} : {t}")
    return f


CACHE = [B, S, H, HD]  # one layer's key or value cache: f32[b, S, H, HD]
N_CACHE = 2 * tt.LAYERS  # k0, v0, k1, v1, ...


class Model:
    """Emits the private body of one public function over the flattened parameters, which are
    either arguments or (baked) constants holding `weights`:
      kind "main"    @_wrapped_jax_export_main(b, params..., tokens) -> logits [b, S, V]
      kind "prefill" @_wrapped_jax_export_prefill(b, params..., tokens, lengths)
                         -> (logits [b, V], k0, v0, ..., k3, v3)
      kind "decode"  @_wrapped_jax_export_decode(b, params..., k0, v0, ..., token, position)
                         -> (logits [b, V], k0', v0', ...)
    The layers take the sequence length s of their activations [b, s, D]: S for the forward pass,
    the dimension variable "t" for the prefill (exported with jax.export.symbolic_shape("b, t"),
    t <= S: @_wrapped_jax_export_prefill and its private functions take b and t first), 1 for the
    decode step."""

    def __init__(self, weights=None, kind="main"):
        self.names = list(tt.param_shapes().items())
        self.baked = weights is not None
        self.kind = kind
        if kind == "main":
            inputs, results = [tensor([B, S], "i32")], [(tensor([B, S, V]), "")]
        elif kind == "prefill":
            inputs = [tensor([B, T], "i32"), tensor([B], "i32")]
            results = [(tensor([B, V]), "")] + [(tensor(CACHE), "")] * N_CACHE
        else:
            inputs = [tensor(CACHE)] * N_CACHE + [tensor([B], "i32"), tensor([B], "i32")]
            results = [(tensor([B, V]), "")] + [(tensor(CACHE), "")] * N_CACHE
        name = f"_wrapped_jax_export_{kind}"
        self.dimvars = ["b", T] if kind == "prefill" else ["b"]
        dims = dimvar_params(self.dimvars)
        nd = len(dims)
        if self.baked:
            self.f = Func(name, dims + [(t, "") for t in inputs], results, dimvars=self.dimvars)
            first = nd
            self.arg = {n: self.f.const(hex_literal(weights[n]), tensor(shape), True) for n, shape in self.names}
        else:
            params = dims + [(tensor(shape), "") for _, shape in self.names] + [(t, "") for t in inputs]
            self.f = Func(name, params, results, dimvars=self.dimvars)
            self.arg = {n: f"%arg{i + nd}" for i, (n, _) in enumerate(self.names)}
            first = len(self.names) + nd
        self.inputs = [f"%arg{first + i}" for i in range(len(inputs))]
        self.tokens = self.inputs[0]

    def linear(self, x, x_type, prefix, n_in, n_out, bias=True, s=S):
        """nnx.Linear: x @ kernel (+ bias) over the last dimension of x [b, s, n_in]."""
        f, t_out = self.f, tensor([B, s, n_out])
        y = f.op(f"stablehlo.dot_general {x}, {self.arg[prefix + '.kernel']}, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : ({x_type}, {tensor([n_in, n_out])}) -> {t_out}")
        if bias:
            b3 = f.op(f"stablehlo.reshape {self.arg[prefix + '.bias']} : ({tensor([n_out])}) -> {tensor([1, 1, n_out])}")
            bb, _ = dyn_broadcast(f, b3, tensor([1, 1, n_out]), ["b", s, n_out], [0, 1, 2])
            y = f.op(f"stablehlo.add {y}, {bb} : {t_out}")
        return y, t_out

    def layer_norm(self, x, prefix, s=S):
        """nnx.LayerNorm with Flax's fast variance: var = max(0, E[x^2] - E[x]^2)."""
        f, t, t_r = self.f, tensor([B, s, D]), tensor([B, s])
        dims = ["b", s, D]
        zero = f.const("0.000000e+00", "tensor<f32>", True)
        sm = f.op(f"stablehlo.reduce({x} init: {zero}) applies stablehlo.add across dimensions = [2] : ({t}, tensor<f32>) -> {t_r}")
        n = f.const(f"{float(D):.6e}", "tensor<f32>", True)
        nb, _ = dyn_broadcast(f, n, "tensor<f32>", ["b", s], [])
        mean = f.op(f"stablehlo.divide {sm}, {nb} : {t_r}")
        sq = f.op(f"stablehlo.multiply {x}, {x} : {t}")
        sm2 = f.op(f"stablehlo.reduce({sq} init: {zero}) applies stablehlo.add across dimensions = [2] : ({t}, tensor<f32>) -> {t_r}")
        mean2 = f.op(f"stablehlo.divide {sm2}, {nb} : {t_r}")
        msq = f.op(f"stablehlo.multiply {mean}, {mean} : {t_r}")
        var = f.op(f"stablehlo.subtract {mean2}, {msq} : {t_r}")
        zb, _ = dyn_broadcast(f, zero, "tensor<f32>", ["b", s], [])
        var = f.op(f"stablehlo.maximum {zb}, {var} : {t_r}")
        mb, _ = dyn_broadcast(f, mean, t_r, dims, [0, 1])
        y = f.op(f"stablehlo.subtract {x}, {mb} : {t}")
        eps = f.const("9.99999997E-7", "tensor<f32>", True)
        eb, _ = dyn_broadcast(f, eps, "tensor<f32>", ["b", s], [])
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

    def write_cache(self, cache, update, position):
        """jax.vmap(lambda c, u, p: lax.dynamic_update_slice(c, u, (p, 0, 0)))(cache, update, position)
        with cache f32[b, S, H, HD], update f32[b, 1, H, HD], position i32[b], as JAX lowers it:
        dynamic_update_slice's index normalization (p < 0 -> p + S), the batching rule's index
        rows [b, 3] (_batch_dynamic_slice_indices) and a scatter with the batch dimension as a
        batching dimension, indices sorted and unique, mode clip: the indices clamped to
        [0, (S - 1, 0, 0)] (_clamp_scatter_indices)."""
        f, ti, tm = self.f, tensor([B], "i32"), tensor([B], "i1")
        zero = f.const("0", "tensor<i32>", False)
        zb, _ = dyn_broadcast(f, zero, "tensor<i32>", ["b"], [], "i32")
        neg = f.op(f"stablehlo.compare  LT, {position}, {zb},  SIGNED : ({ti}, {ti}) -> {tm}")
        size = f.const(str(S), "tensor<i32>", False)
        sb, _ = dyn_broadcast(f, size, "tensor<i32>", ["b"], [], "i32")
        wrapped = f.op(f"stablehlo.add {position}, {sb} : {ti}")
        p = f.op(f"stablehlo.select {neg}, {wrapped}, {position} : {tm}, {ti}")
        t1 = tensor([B, 1], "i32")
        cols = [dyn_broadcast(f, p, ti, ["b", 1], [0], "i32")[0]]
        for _ in range(2):
            cols.append(dyn_broadcast(f, zero, "tensor<i32>", ["b", 1], [], "i32")[0])
        t3 = tensor([B, 3], "i32")
        idx = f.op(f"stablehlo.concatenate {', '.join(cols)}, dim = 1 : ({t1}, {t1}, {t1}) -> {t3}")
        upper = f.const(f"[{S - 1}, 0, 0]", "tensor<3xi32>", False)
        imax = f.const("2147483647", "tensor<3xi32>", False)
        upper = f.op(f"stablehlo.minimum {upper}, {imax} : tensor<3xi32>")
        ub, _ = dyn_broadcast(f, upper, "tensor<3xi32>", ["b", 3], [1], "i32")
        lb, _ = dyn_broadcast(f, zero, "tensor<i32>", ["b", 3], [], "i32")
        idx = f.op(f"stablehlo.clamp {lb}, {idx}, {ub} : {t3}")
        tc, tu = tensor(CACHE), tensor([B, 1, H, HD])
        out = f.value()
        a, b = f.region_args(2)
        f.lines += [
            f'    {out} = "stablehlo.scatter"({cache}, {idx}, {update}) <{{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 2, 3], index_vector_dim = 1>, unique_indices = true}}> ({{',
            f"    ^bb0({a}: tensor<f32>, {b}: tensor<f32>):",
            f"      stablehlo.return {b} : tensor<f32>",
            f"    }}) : ({tc}, {t3}, {tu}) -> {tc}"]
        return out

    def attention(self, h, prefix, mask, s=S, cache=None):
        """Multi-head self-attention of h [b, s, D]. Without a cache the keys and values are those
        of h (s = S); with cache = (k_cache, v_cache, position) the step's key and value (s = 1)
        are first written into the caches at each row's position, and the query attends to the S
        cached positions. Returns the output projection and the layer's keys and values
        [b, S, H, HD]: for the prefill, its cache; for the decode step, the updated caches."""
        f, t = self.f, tensor([B, s, D])
        names = helper_names(s)
        heads = {}
        for name in ("query", "key", "value"):
            y, _ = self.linear(h, t, f"{prefix}.attn.{name}", D, D, s=s)
            heads[name], _ = dyn_reshape(f, y, t, ["b", s, H, HD])
        t4 = tensor([B, s, H, HD])
        if cache is None:
            keys, values = heads["key"], heads["value"]
        else:
            k_cache, v_cache, position = cache
            keys = self.write_cache(k_cache, heads["key"], position)
            values = self.write_cache(v_cache, heads["value"], position)
        kv = kv_len(s)
        tk = tensor([B, kv, H, HD])
        scale = f.const("1.250000e-01", "tensor<f32>", True)
        sb, _ = dyn_broadcast(f, scale, "tensor<f32>", ["b", s, H, HD], [])
        q = f.op(f"stablehlo.multiply {heads['query']}, {sb} : {t4}")
        ts = tensor([B, H, s, kv])
        scores = f.op(f"stablehlo.dot_general {q}, {keys}, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : ({t4}, {tk}) -> {ts}")
        low = f.const("-3.40282347E+38", "tensor<f32>", True)
        dv, dvt = f.dv_args(), f.dv_types()
        scores = f.op(f"call @{names['where']}({dv}, {mask}, {scores}, {low}) : ({dvt}, {tensor([B, H, s, kv], 'i1')}, {ts}, tensor<f32>) -> {ts}")
        w = f.op(f"call @{names['softmax']}({dv}, {scores}) : ({dvt}, {ts}) -> {ts}")
        tv = tensor([B, H, s, HD])
        o = f.op(f"stablehlo.dot_general {w}, {values}, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : ({ts}, {tk}) -> {tv}")
        o = f.op(f"stablehlo.transpose {o}, dims = [0, 2, 1, 3] : ({tv}) -> {t4}")
        o, _ = dyn_reshape(f, o, t4, ["b", s, D])
        o, _ = self.linear(o, t, f"{prefix}.attn.out", D, D, s=s)
        return o, keys, values

    def causal_mask(self, s=S):
        """nnx.make_causal_mask: (b, 1, s, s) of query_pos >= key_pos, broadcast over heads. With
        s = "t" the iotas are dynamic_iota over the shape tensor [t, t]."""
        f = self.f
        ti = tensor([s, s], "i32")
        if s == T:
            shape = shape_tensor(f, [T, T])
            rows = f.op(f"stablehlo.dynamic_iota {shape}, dim = 0 : (tensor<2xi32>) -> {ti}")
            shape = shape_tensor(f, [T, T])
            cols = f.op(f"stablehlo.dynamic_iota {shape}, dim = 1 : (tensor<2xi32>) -> {ti}")
        else:
            rows = f.op(f"stablehlo.iota dim = 0 : {ti}")
            cols = f.op(f"stablehlo.iota dim = 1 : {ti}")
        m = f.op(f"stablehlo.compare  GE, {rows}, {cols},  SIGNED : ({ti}, {ti}) -> {tensor([s, s], 'i1')}")
        mb, _ = dyn_broadcast(f, m, tensor([s, s], "i1"), ["b", H, s, s], [2, 3], "i1")
        return mb

    def position_mask(self, position):
        """The decode step's mask: jnp.arange(S)[None, :] <= position[:, None] (the cached
        positions up to the step's own), broadcast over heads: [b, H, 1, S]."""
        f = self.f
        key_pos = f.op(f"stablehlo.iota dim = 0 : {tensor([S], 'i32')}")
        kp = f.op(f"stablehlo.broadcast_in_dim {key_pos}, dims = [1] : ({tensor([S], 'i32')}) -> {tensor([1, S], 'i32')}")
        pos = dyn_broadcast(f, position, tensor([B], "i32"), ["b", 1], [0], "i32")[0]
        kpb, _ = dyn_broadcast(f, kp, tensor([1, S], "i32"), ["b", S], [0, 1], "i32")
        posb, _ = dyn_broadcast(f, pos, tensor([B, 1], "i32"), ["b", S], [0, 1], "i32")
        m = f.op(f"stablehlo.compare  LE, {kpb}, {posb},  SIGNED : ({tensor([B, S], 'i32')}, {tensor([B, S], 'i32')}) -> {tensor([B, S], 'i1')}")
        mb, _ = dyn_broadcast(f, m, tensor([B, S], "i1"), ["b", H, 1, S], [0, 3], "i1")
        return mb

    def block(self, x, layer, mask, s=S, cache=None):
        """One pre-norm block on x [b, s, D]; returns x and the layer's keys and values."""
        f, t = self.f, tensor([B, s, D])
        p = f"blocks.{layer}"
        names = helper_names(s)
        h = self.layer_norm(x, f"{p}.ln1", s)
        a, keys, values = self.attention(h, p, mask, s, cache)
        x = f.op(f"stablehlo.add {x}, {a} : {t}")
        h = self.layer_norm(x, f"{p}.ln2", s)
        h, th = self.linear(h, t, f"{p}.ffn_in", D, FFN, s=s)
        h = f.op(f"call @{names['gelu']}({f.dv_args()}, {h}) : ({f.dv_types()}, {th}) -> {th}")
        h, _ = self.linear(h, th, f"{p}.ffn_out", FFN, D, s=s)
        x = f.op(f"stablehlo.add {x}, {h} : {t}")
        return x, keys, values

    def head(self, x, s):
        """ln_f and lm_head on x [b, s, D] -> logits [b, s, V]."""
        x = self.layer_norm(x, "ln_f", s)
        return self.linear(x, tensor([B, s, D]), "lm_head", D, V, bias=False, s=s)

    def embed_sequence(self, s=S):
        """Token and position embeddings of the whole sequence [b, s, D]: embed[tokens] +
        pos_embed[jnp.arange(s)[None]] (s = S, or "t": the iota a dynamic_iota and the position rows
        a gather with dynamic shapes)."""
        f, t = self.f, tensor([B, s, D])
        dv, dvt = f.dv_args(), f.dv_types()
        if s == T:
            tok = f.op(f"call @_take_3({dv}, {self.arg['embed.embedding']}, {self.tokens}) : ({dvt}, {tensor([V, D])}, {tensor([B, T], 'i32')}) -> {t}")
            shape = shape_tensor(f, [T])
            pos = f.op(f"stablehlo.dynamic_iota {shape}, dim = 0 : (tensor<1xi32>) -> {tensor([T], 'i32')}")
            pos2, t_pos2 = dyn_broadcast(f, pos, tensor([T], "i32"), [1, T], [1], "i32")
            pe = f.op(f"call @_take_4({dv}, {self.arg['pos_embed.embedding']}, {pos2}) : ({dvt}, {tensor([S, D])}, {t_pos2}) -> {tensor([1, T, D])}")
        else:
            tok = f.op(f"call @_take({dv}, {self.arg['embed.embedding']}, {self.tokens}) : ({dvt}, {tensor([V, D])}, {tensor([B, S], 'i32')}) -> {t}")
            pos = f.op(f"stablehlo.iota dim = 0 : {tensor([S], 'i32')}")
            pos2 = f.op(f"stablehlo.broadcast_in_dim {pos}, dims = [1] : ({tensor([S], 'i32')}) -> {tensor([1, S], 'i32')}")
            pe = f.op(f"call @_take_0({self.arg['pos_embed.embedding']}, {pos2}) : ({tensor([S, D])}, {tensor([1, S], 'i32')}) -> {tensor([1, S, D])}")
        peb, _ = dyn_broadcast(f, pe, tensor([1, s, D]), ["b", s, D], [0, 1, 2])
        return f.op(f"stablehlo.add {tok}, {peb} : {t}")

    def body(self):
        if self.kind == "prefill":
            return self.prefill_body()
        if self.kind == "decode":
            return self.decode_body()
        f = self.f
        x = self.embed_sequence()
        mask = self.causal_mask()
        for layer in range(tt.LAYERS):
            x, _, _ = self.block(x, layer, mask)
        logits, tl = self.head(x, S)
        f.lines.append(f"    return {logits} : {tl}")
        return f

    def returns(self, logits_3d, caches):
        """Returns (logits [b, 1, V] reshaped to [b, V], the caches)."""
        f = self.f
        logits, tl = dyn_reshape(f, logits_3d, tensor([B, 1, V]), ["b", V])
        vals = [logits] + caches
        types = [tl] + [tensor(CACHE)] * len(caches)
        f.lines.append(f"    return {', '.join(vals)} : {', '.join(types)}")
        return f

    def prefill_body(self):
        """The causal forward over the t positions of the prompts; each layer's keys and values
        [b, t, H, HD] placed at position 0 of a zero cache [b, S, H, HD] (as
        lax.dynamic_update_slice(jnp.zeros((b, S, H, HD)), k, (0, 0, 0, 0)) lowers); the logits of
        the last prompt token (position lengths - 1, a jnp.take_along_axis of the final hidden
        states [b, t, D])."""
        f = self.f
        x = self.embed_sequence(T)
        mask = self.causal_mask(T)
        caches = []
        for layer in range(tt.LAYERS):
            x, keys, values = self.block(x, layer, mask, T)
            caches += [self.place_in_cache(keys), self.place_in_cache(values)]
        lengths = self.inputs[1]
        one = f.const("1", "tensor<i32>", False)
        ob, _ = dyn_broadcast(f, one, "tensor<i32>", ["b"], [], "i32")
        last = f.op(f"stablehlo.subtract {lengths}, {ob} : {tensor([B], 'i32')}")
        last, t_last = dyn_broadcast(f, last, tensor([B], "i32"), ["b", 1, 1], [0], "i32")
        x = f.op(f"call @take_along_axis({f.dv_args()}, {x}, {last}) : ({f.dv_types()}, {tensor([B, T, D])}, {t_last}) -> {tensor([B, 1, D])}")
        logits, _ = self.head(x, 1)
        return self.returns(logits, caches)

    def place_in_cache(self, kv):
        """lax.dynamic_update_slice(jnp.zeros((b, S, H, HD)), kv, (0, 0, 0, 0)) for kv [b, t, H, HD]:
        jnp.zeros a broadcast of a zero constant, the constant start indices int32 scalars."""
        f = self.f
        zero = f.const("0.000000e+00", "tensor<f32>", True)
        zeros, tc = dyn_broadcast(f, zero, "tensor<f32>", ["b", S, H, HD], [])
        i0 = f.const("0", "tensor<i32>", False)
        return f.op(f"stablehlo.dynamic_update_slice {zeros}, {kv}, {i0}, {i0}, {i0}, {i0} : ({tc}, {tensor([B, T, H, HD])}, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> {tc}")

    def decode_body(self):
        """One token per row at its position: x = embed[token] + pos_embed[position] [b, 1, D];
        per layer the step's key and value are written into the caches, the query attends to
        the cached positions 0..position."""
        f, t = self.f, tensor([B, 1, D])
        caches_in = self.inputs[:N_CACHE]
        token, position = self.inputs[N_CACHE], self.inputs[N_CACHE + 1]
        tok2, t2 = dyn_broadcast(f, token, tensor([B], "i32"), ["b", 1], [0], "i32")
        tok = f.op(f"call @_take_1({f.dv_args()}, {self.arg['embed.embedding']}, {tok2}) : ({f.dv_types()}, {tensor([V, D])}, {t2}) -> {t}")
        pos2, _ = dyn_broadcast(f, position, tensor([B], "i32"), ["b", 1], [0], "i32")
        pe = f.op(f"call @_take_2({f.dv_args()}, {self.arg['pos_embed.embedding']}, {pos2}) : ({f.dv_types()}, {tensor([S, D])}, {t2}) -> {t}")
        x = f.op(f"stablehlo.add {tok}, {pe} : {t}")
        mask = self.position_mask(position)
        caches = []
        for layer in range(tt.LAYERS):
            cache = (caches_in[2 * layer], caches_in[2 * layer + 1], position)
            x, keys, values = self.block(x, layer, mask, 1, cache)
            caches += [keys, values]
        logits, _ = self.head(x, 1)
        return self.returns(logits, caches)


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


def generation_fn(model):
    """The public @prefill or @decode (as jax.jit(..., donate_argnums=cache) lowers decode: each
    cache argument aliased to the output that replaces it): the parameters, then the runtime
    inputs. The dimension variables: for the prefill b and t, dimensions 0 and 1 of tokens; for
    decode b, read from the last input (row count of position)."""
    replicated = 'mhlo.sharding = "{replicated}"'
    params = [] if model.baked else [
        (tensor(shape), f'jax.arg_info = "{arg_info(name)}", {replicated}') for name, shape in model.names]
    if model.kind == "prefill":
        params.append((tensor([B, T], "i32"), f'jax.arg_info = "tokens", {replicated}'))
        params.append((tensor([B], "i32"), f'jax.arg_info = "lengths", {replicated}'))
    else:
        for i in range(N_CACHE):
            params.append((tensor(CACHE), f'jax.arg_info = "cache[{i}]", {replicated}, tf.aliasing_output = {i + 1} : i32'))
        params.append((tensor([B], "i32"), f'jax.arg_info = "token", {replicated}'))
        params.append((tensor([B], "i32"), f'jax.arg_info = "position", {replicated}'))
    results = [(tensor([B, V]), 'jax.result_info = "[0]"')]
    results += [(tensor(CACHE), f'jax.result_info = "[1][{i}]"') for i in range(N_CACHE)]
    f = Func(model.kind, params, results, private=False)
    if model.kind == "prefill":
        tokens, t_tok = f"%arg{len(params) - 2}", tensor([B, T], "i32")
        dvs = []
        for dim in range(2):
            d = f.op(f"stablehlo.get_dimension_size {tokens}, dim = {dim} : ({t_tok}) -> tensor<i32>")
            dvs.append(f.op(f"stablehlo.convert {d} : (tensor<i32>) -> tensor<i64>"))
    else:
        last = f"%arg{len(params) - 1}"
        d = f.op(f"stablehlo.get_dimension_size {last}, dim = 0 : ({tensor([B], 'i32')}) -> tensor<i32>")
        dvs = [f.op(f"stablehlo.convert {d} : (tensor<i32>) -> tensor<i64>")]
    args = ", ".join(dvs + [f"%arg{i}" for i in range(len(params))])
    types = ", ".join(["tensor<i64>"] * len(dvs) + [t for t, _ in params])
    out_types = ", ".join(t for t, _ in results)
    out = f.op(f"call @_wrapped_jax_export_{model.kind}({args}) : ({types}) -> ({out_types})", n_results=len(results))
    f.lines.append(f"    return {', '.join(f'{out}#{i}' for i in range(len(results)))} : {out_types}")
    return f


HEADER = ("module @{} attributes {{jax.uses_shape_polymorphism = true, "
          "mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}} {{")


def module_text(weights=None):
    model = Model(weights)
    funcs = [main_fn(model), model.body(), take_fn(), take_static_fn(), where_fn(), softmax_fn(), gelu_fn(), integer_pow_fn()]
    return "\n".join([HEADER.format("jit_forward")] + [f.text() for f in funcs] + ["}"]) + "\n"


def generate_module_text(weights=None):
    """@main (the forward pass, as module_text writes it), @prefill and @decode in one module."""
    main, prefill, decode = Model(weights), Model(weights, "prefill"), Model(weights, "decode")
    funcs = [main_fn(main), main.body(), generation_fn(prefill), prefill.body(), generation_fn(decode), decode.body(),
             take_fn(), take_static_fn(), where_fn(), softmax_fn(), gelu_fn(), integer_pow_fn(),
             take_along_axis_fn(T), take_fn("_take_1", V, 1), take_fn("_take_2", S, 1),
             where_fn(1), softmax_fn(1), gelu_fn(1), integer_pow_fn(1),
             take_fn("_take_3", V, T, dimvars=dims_of(T)), take_fn("_take_4", S, T, lead=1, dimvars=dims_of(T)),
             where_fn(T), softmax_fn(T), gelu_fn(T), integer_pow_fn(T)]
    return "\n".join([HEADER.format("jit_generate")] + [f.text() for f in funcs] + ["}"]) + "\n"


if __name__ == "__main__":
    args = sys.argv[1:]
    generate = "--generate" in args
    if generate:
        args.remove("--generate")
    if len(args) == 1:
        weights = None
    elif len(args) == 3 and args[1] == "--baked":
        weights = tt.load_safetensors(args[2])
    else:
        sys.exit(__doc__)
    with open(args[0], "w") as out:
        out.write(generate_module_text(weights) if generate else module_text(weights))
