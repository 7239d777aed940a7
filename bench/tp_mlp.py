#!/usr/bin/env python3
"""Writes a tensor-parallel MLP as an SPMD StableHLO module for N devices (bench/spmd.sh).

Each device holds x [B, D], a column shard of W1 [D, F/N] and the matching row shard of W2
[F/N, D]; it computes gelu(x @ W1_shard) @ W2_shard, and an all_reduce over the N partitions
sums the partial products into the full [B, D] result on every device. With --inputs DIR it also
writes the inputs of every device (x, and the shards of one W1 and W2) as .npy files named
x@d.npy, w1@d.npy, w2@d.npy, from a fixed seed, so that runs at different N compute the same
function of the same weights.

With --shard-map the module is the global program JAX exports for a shard_map of that body over
a mesh of N devices: @main takes x and the whole W1 and W2 (x.npy, w1.npy, w2.npy with --inputs;
also w.safetensors, whose "w1" and "w2" the parameters' jax.arg_info names, to bind them as
weights) and holds the body in an sdy.manual_computation that cuts W1 by columns and W2 by rows.

usage: tp_mlp.py N OUT.mlir [--batch 64] [--dim 1024] [--hidden 4096] [--inputs DIR] [--shard-map]
"""
import argparse
import os


def body_ops(n, batch, dim, hidden, indent):
    """One device's ops from %x, %w1, %w2 to the all-reduced result %r, each line indented."""
    h = hidden // n
    w1, w2 = f"tensor<{dim}x{h}xf32>", f"tensor<{h}x{dim}xf32>"
    x, hh, y = f"tensor<{batch}x{dim}xf32>", f"tensor<{batch}x{h}xf32>", f"tensor<{batch}x{dim}xf32>"
    ids = ", ".join(str(i) for i in range(n))
    lines = [f"%h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : ({x}, {w1}) -> {hh}"]
    # gelu, tanh approximation: 0.5 h (1 + tanh(sqrt(2/pi) (h + 0.044715 h^3)))
    for name, value in (("half", "5.000000e-01"), ("one", "1.000000e+00"), ("k", "7.978846e-01"),
                        ("c", "4.471500e-02")):
        lines.append(f"%{name} = stablehlo.constant dense<{value}> : {hh}")
    lines += [
        f"%h2 = stablehlo.multiply %h, %h : {hh}",
        f"%h3 = stablehlo.multiply %h2, %h : {hh}",
        f"%ch3 = stablehlo.multiply %c, %h3 : {hh}",
        f"%in = stablehlo.add %h, %ch3 : {hh}",
        f"%kin = stablehlo.multiply %k, %in : {hh}",
        f"%t = stablehlo.tanh %kin : {hh}",
        f"%t1 = stablehlo.add %one, %t : {hh}",
        f"%hh = stablehlo.multiply %half, %h : {hh}",
        f"%g = stablehlo.multiply %hh, %t1 : {hh}",
        f"%p = stablehlo.dot_general %g, %w2, contracting_dims = [1] x [0] : ({hh}, {w2}) -> {y}",
        f'%r = "stablehlo.all_reduce"(%p) ({{',
        f"^bb0(%a: tensor<f32>, %b: tensor<f32>):",
        f"  %s = stablehlo.add %a, %b : tensor<f32>",
        f"  stablehlo.return %s : tensor<f32>",
        f"}}) {{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
        f"replica_groups = dense<[[{ids}]]> : tensor<1x{n}xi64>, use_global_device_ids}} : ({y}) -> {y}",
    ]
    return "".join(indent + line + "\n" for line in lines)


def module_text(n, batch, dim, hidden):
    """The per-device program of a module with mhlo.num_partitions = n."""
    h = hidden // n
    x, w1, w2 = f"tensor<{batch}x{dim}xf32>", f"tensor<{dim}x{h}xf32>", f"tensor<{h}x{dim}xf32>"
    y = f"tensor<{batch}x{dim}xf32>"
    return (
        f"module @tp_mlp attributes {{mhlo.num_partitions = {n} : i32, mhlo.num_replicas = 1 : i32}} {{\n"
        f"  func.func public @main(%x: {x}, %w1: {w1}, %w2: {w2}) -> {y} {{\n"
        + body_ops(n, batch, dim, hidden, "    ") +
        f"    return %r : {y}\n"
        f"  }}\n"
        f"}}\n"
    )


def shard_map_text(n, batch, dim, hidden):
    """The global program of a shard_map of the body over the N devices of mesh axis "model"."""
    h = hidden // n
    x, y = f"tensor<{batch}x{dim}xf32>", f"tensor<{batch}x{dim}xf32>"
    w1, w2 = f"tensor<{dim}x{hidden}xf32>", f"tensor<{hidden}x{dim}xf32>"
    w1s, w2s = f"tensor<{dim}x{h}xf32>", f"tensor<{h}x{dim}xf32>"
    return (
        f"module @tp_mlp_shard_map attributes {{mhlo.num_partitions = {n} : i32, mhlo.num_replicas = 1 : i32}} {{\n"
        f'  sdy.mesh @mesh = <["model"={n}]>\n'
        f"  func.func public @main(%gx: {x}, %gw1: {w1} {{jax.arg_info = \"params['w1']\"}}, "
        f"%gw2: {w2} {{jax.arg_info = \"params['w2']\"}}) -> {y} {{\n"
        f"    %0 = sdy.manual_computation(%gx, %gw1, %gw2) "
        f'in_shardings=[<@mesh, [{{}}, {{}}]>, <@mesh, [{{}}, {{"model"}}]>, <@mesh, [{{"model"}}, {{}}]>] '
        f'out_shardings=[<@mesh, [{{}}, {{}}]>] manual_axes={{"model"}} '
        f"(%x: {x}, %w1: {w1s}, %w2: {w2s}) {{\n"
        + body_ops(n, batch, dim, hidden, "      ") +
        f"      sdy.return %r : {y}\n"
        f"    }} : ({x}, {w1}, {w2}) -> {y}\n"
        f"    return %0 : {y}\n"
        f"  }}\n"
        f"}}\n"
    )


def write_safetensors(path, tensors):
    """f32 arrays as a safetensors file: a little-endian u64 header size, the JSON header, the data."""
    import json
    import struct

    header, offset = {}, 0
    for name, value in tensors.items():
        header[name] = {"dtype": "F32", "shape": list(value.shape), "data_offsets": [offset, offset + value.nbytes]}
        offset += value.nbytes
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for value in tensors.values():
            f.write(value.astype("<f4").tobytes())


def write_inputs(directory, n, batch, dim, hidden, whole):
    """x (the same on every device) and the devices' shards of W1 (columns) and W2 (rows), or with
    `whole` x, W1 and W2 once."""
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, dim), dtype=np.float32)
    w1 = (rng.standard_normal((dim, hidden), dtype=np.float32) / np.sqrt(dim)).astype(np.float32)
    w2 = (rng.standard_normal((hidden, dim), dtype=np.float32) / np.sqrt(hidden)).astype(np.float32)
    os.makedirs(directory, exist_ok=True)
    if whole:
        for name, value in (("x", x), ("w1", w1), ("w2", w2)):
            np.save(os.path.join(directory, f"{name}.npy"), value)
        write_safetensors(os.path.join(directory, "w.safetensors"), {"w1": w1, "w2": w2})
        return
    h = hidden // n
    for d in range(n):
        np.save(os.path.join(directory, f"x@{d}.npy"), x)
        np.save(os.path.join(directory, f"w1@{d}.npy"), np.ascontiguousarray(w1[:, d * h:(d + 1) * h]))
        np.save(os.path.join(directory, f"w2@{d}.npy"), np.ascontiguousarray(w2[d * h:(d + 1) * h, :]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int)
    ap.add_argument("out")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--dim", type=int, default=1024)
    ap.add_argument("--hidden", type=int, default=4096)
    ap.add_argument("--inputs")
    ap.add_argument("--shard-map", action="store_true")
    a = ap.parse_args()
    if a.n < 1 or a.hidden % a.n:
        ap.error("N must be positive and divide --hidden")
    with open(a.out, "w") as f:
        f.write((shard_map_text if a.shard_map else module_text)(a.n, a.batch, a.dim, a.hidden))
    if a.inputs:
        write_inputs(a.inputs, a.n, a.batch, a.dim, a.hidden, a.shard_map)


if __name__ == "__main__":
    main()
