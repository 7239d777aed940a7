#!/usr/bin/env python3
"""Writes a tensor-parallel MLP as an SPMD StableHLO module for N devices (bench/spmd.sh).

Each device holds x [B, D], a column shard of W1 [D, F/N] and the matching row shard of W2
[F/N, D]; it computes gelu(x @ W1_shard) @ W2_shard, and an all_reduce over the N partitions
sums the partial products into the full [B, D] result on every device. With --inputs DIR it also
writes the inputs of every device (x, and the shards of one W1 and W2) as .npy files named
x@d.npy, w1@d.npy, w2@d.npy, from a fixed seed, so that runs at different N compute the same
function of the same weights.

usage: tp_mlp.py N OUT.mlir [--batch 64] [--dim 1024] [--hidden 4096] [--inputs DIR]
"""
import argparse
import os


def module_text(n, batch, dim, hidden):
    """The per-device program of a module with mhlo.num_partitions = n."""
    h = hidden // n
    x, w1, w2 = f"tensor<{batch}x{dim}xf32>", f"tensor<{dim}x{h}xf32>", f"tensor<{h}x{dim}xf32>"
    hh, y = f"tensor<{batch}x{h}xf32>", f"tensor<{batch}x{dim}xf32>"
    ids = ", ".join(str(i) for i in range(n))

    def splat(name, value):
        return f"    %{name} = stablehlo.constant dense<{value}> : {hh}\n"

    return (
        f"module @tp_mlp attributes {{mhlo.num_partitions = {n} : i32, mhlo.num_replicas = 1 : i32}} {{\n"
        f"  func.func public @main(%x: {x}, %w1: {w1}, %w2: {w2}) -> {y} {{\n"
        f"    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : ({x}, {w1}) -> {hh}\n"
        # gelu, tanh approximation: 0.5 h (1 + tanh(sqrt(2/pi) (h + 0.044715 h^3)))
        + splat("half", "5.000000e-01") + splat("one", "1.000000e+00") + splat("k", "7.978846e-01")
        + splat("c", "4.471500e-02") +
        f"    %h2 = stablehlo.multiply %h, %h : {hh}\n"
        f"    %h3 = stablehlo.multiply %h2, %h : {hh}\n"
        f"    %ch3 = stablehlo.multiply %c, %h3 : {hh}\n"
        f"    %in = stablehlo.add %h, %ch3 : {hh}\n"
        f"    %kin = stablehlo.multiply %k, %in : {hh}\n"
        f"    %t = stablehlo.tanh %kin : {hh}\n"
        f"    %t1 = stablehlo.add %one, %t : {hh}\n"
        f"    %hh = stablehlo.multiply %half, %h : {hh}\n"
        f"    %g = stablehlo.multiply %hh, %t1 : {hh}\n"
        f"    %p = stablehlo.dot_general %g, %w2, contracting_dims = [1] x [0] : ({hh}, {w2}) -> {y}\n"
        f'    %r = "stablehlo.all_reduce"(%p) ({{\n'
        f"    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        f"      %s = stablehlo.add %a, %b : tensor<f32>\n"
        f"      stablehlo.return %s : tensor<f32>\n"
        f"    }}) {{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
        f"replica_groups = dense<[[{ids}]]> : tensor<1x{n}xi64>, use_global_device_ids}} : ({y}) -> {y}\n"
        f"    return %r : {y}\n"
        f"  }}\n"
        f"}}\n"
    )


def write_inputs(directory, n, batch, dim, hidden):
    """x (the same on every device) and the devices' shards of W1 (columns) and W2 (rows)."""
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, dim), dtype=np.float32)
    w1 = (rng.standard_normal((dim, hidden), dtype=np.float32) / np.sqrt(dim)).astype(np.float32)
    w2 = (rng.standard_normal((hidden, dim), dtype=np.float32) / np.sqrt(hidden)).astype(np.float32)
    os.makedirs(directory, exist_ok=True)
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
    a = ap.parse_args()
    if a.n < 1 or a.hidden % a.n:
        ap.error("N must be positive and divide --hidden")
    with open(a.out, "w") as f:
        f.write(module_text(a.n, a.batch, a.dim, a.hidden))
    if a.inputs:
        write_inputs(a.inputs, a.n, a.batch, a.dim, a.hidden)


if __name__ == "__main__":
    main()
