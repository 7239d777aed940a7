"""JAX's CPU custom calls on the real cases of ../shared/real/vhlo (jax.export back-compat payloads
with JAX's own outputs): every CPU case that calls a custom-call target is run through `hlorun run`
(the portable artifact, and its text twin) and compared with `expected/` within JAX's back-compat
tolerances. A case whose target hlorun does not have yet is listed (target named) and counted,
never passed; any other failure fails.

What is compared is what JAX's back-compat test compares. Results defined only up to sign or
phase are checked as JAX checks them:
  eigh (syevd/heevd)  eigenvalues close; the eigenvectors V (any basis of each eigenspace: several
                      cases have a 6-fold eigenvalue 0) satisfy A V = V diag(w) and V^H V = I, with
                      A rebuilt from JAX's own results (A = Ve diag(we) Ve^H)
  eig (geev)          eigenvalues close, in LAPACK's order; every eigenvector of unit norm and a
                      (left or right) eigenvector of A = Vr diag(w) Vr^-1 from JAX's results
  schur (gees)        A = Q T Q^H with A rebuilt from JAX's Q and T, Q unitary, T upper
                      (quasi-)triangular: the Schur form is unique only up to such factors
A text twin holding raw NUL bytes (two 2023 cuda cases, whose descriptors' escapes like "\\08"
were decoded into a NUL and a '8' when the text was saved) is not MLIR JAX printed and is passed
over; its bytecode runs. Every other output is compared element-wise: rtol = atol = 1e-4 for f32/c64 (JAX uses 1e-4 to
1e-5 for these cases), 1e-9 for f64/c128, exactly for integers (pivots, info).

With --gpu the cuda and rocm cases run instead, on the CPU: the GPU solver targets whose
semantics are a CPU target's run through it (docs/custom-calls.md). With --tpu the tpu cases run
(XLA's own targets: Eigh, LuDecomposition, ApproxTopK, AllocateBuffer,
stablehlo.dynamic_reduce_window); two of them recorded what only a TPU computes:
  Eigh                the TPU's Jacobi eigenvalues of an ill-conditioned matrix (JAX skips this
                      test for that reason) are off by 1e-3 near 0: eigenvalues are compared
                      within the tolerance times max |A| (a backward-stable method's accuracy),
                      as are those cuSOLVER and hipSOLVER recorded (--gpu)
  dynamic_reduce_window (variadic)  its init values (1, 2) are not identities of its body (add,
                      subtract), and the TPU folds them in more than once per window, as
                      StableHLO allows (the result is implementation-defined then): its results
                      are compared with reduce_window's reference semantics (the init value
                      folded once, then the window's elements in row-major order), computed here

  custom_call_cases.py --bin HLORUN --cases DIR --min-passed N [--gpu | --tpu]"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

import numpy as np


def tolerance(dtype):
    return 1e-4 if dtype in (np.float32, np.complex64) else 1e-9


def close(got, want):
    if got.shape != want.shape:
        return f"shape {got.shape}, JAX {want.shape}"
    if want.dtype.kind not in "fc":
        return None if np.array_equal(got, want) else "differs"
    tol = tolerance(want.dtype)
    if np.allclose(got, want, rtol=tol, atol=tol, equal_nan=True):
        return None
    return f"max |diff| {np.nanmax(np.abs(got - want)):.3g} (tolerance {tol:g})"


def check_eigh(got, want, scaled=False):
    """out0: eigenvectors (columns), out1: eigenvalues, out2...: compared element-wise. `scaled`:
    eigenvalues within the tolerance times max |A| (the TPU's Jacobi ones)."""
    v, w, ve, we = got[0], got[1], want[0], want[1]
    tol = tolerance(we.dtype) * 10
    a = (ve * we[..., None, :]) @ np.conj(np.swapaxes(ve, -1, -2))
    scale = max(1.0, float(np.max(np.abs(a))))
    if scaled and w.shape == we.shape:
        diff = float(np.max(np.abs(w - we), initial=0.0))
        bad = None if diff <= tolerance(we.dtype) * scale else f"max |diff| {diff:.3g} (tolerance {tolerance(we.dtype):g} x {scale:.3g})"
    else:
        bad = close(w, we)
    if bad:
        return "eigenvalues: " + bad
    if v.shape != ve.shape:
        return f"eigenvectors: shape {v.shape}, JAX {ve.shape}"
    if np.max(np.abs(a @ v - v * w[..., None, :])) > tol * scale:
        return "A V != V diag(w)"
    eye = np.eye(v.shape[-1])
    if np.max(np.abs(np.conj(np.swapaxes(v, -1, -2)) @ v - eye)) > tol:
        return "V is not orthonormal"
    for i in range(2, len(want)):
        bad = close(got[i], want[i])
        if bad:
            return f"out{i}: {bad}"
    return None


def check_eig(got, want):
    """out0: eigenvalues (in LAPACK's order), then left and right eigenvectors where present: each
    an eigenvector of A (rebuilt from JAX's right eigenvectors: A = Vr diag(w) Vr^-1) of unit
    norm, as JAX's test checks (several cases have a double eigenvalue 0, whose eigenvectors are
    any basis of its plane)."""
    bad = close(got[0], want[0])
    if bad:
        return "eigenvalues: " + bad
    tol = tolerance(want[0].dtype) * 100
    w = want[0]
    if len(want) < 2:
        return None
    vr = want[-1]
    a = vr @ (w[..., :, None] * np.linalg.inv(vr))
    scale = max(1.0, float(np.max(np.abs(a))))
    h = lambda x: np.conj(np.swapaxes(x, -1, -2))
    for i in range(1, len(want)):
        v = got[i]
        if v.shape != want[i].shape:
            return f"out{i}: shape {v.shape}, JAX {want[i].shape}"
        left = i == 1 and len(want) == 3
        residual = h(a) @ v - v * np.conj(w)[..., None, :] if left else a @ v - v * w[..., None, :]
        if np.max(np.abs(residual)) > tol * scale:
            return f"out{i}: not {'left ' if left else ''}eigenvectors of A"
        if not np.allclose(np.linalg.norm(v, axis=-2), 1, atol=tol):
            return f"out{i}: eigenvectors are not of unit norm"
    return None


def check_schur(got, want):
    """out0: Schur form T, out1: Schur vectors Q: A = Q T Q^H with A from JAX's own results, Q unitary,
    T (quasi-)upper triangular."""
    t, q, te, qe = got[0], got[1], want[0], want[1]
    if t.shape != te.shape or q.shape != qe.shape:
        return "shapes differ"
    h = lambda x: np.conj(np.swapaxes(x, -1, -2))
    a = qe @ te @ h(qe)
    tol = tolerance(te.dtype) * 100
    scale = max(1.0, float(np.max(np.abs(a))))
    if np.max(np.abs(q @ t @ h(q) - a)) > tol * scale:
        return "Q T Q^H != A"
    if np.max(np.abs(h(q) @ q - np.eye(q.shape[-1]))) > tol:
        return "Q is not unitary"
    if np.max(np.abs(np.tril(t, -2))) > tol * scale:
        return "T is not upper (quasi-)triangular"
    return None


def variadic_reduce_window(inputs):
    """JAX's back-compat reduce_window of (x, y) by (add, subtract) from init values (1, 2) over
    windows (2, x.shape[0]), strides 1, no padding: reduce_window's reference semantics."""
    x, y = inputs
    wr, wc = 2, x.shape[0]
    rows, cols = x.shape[0] - wr + 1, x.shape[1] - wc + 1
    fx, fy = np.full((rows, cols), 1, x.dtype), np.full((rows, cols), 2, y.dtype)
    for i in range(rows):
        for j in range(cols):
            for a in range(wr):
                for b in range(wc):
                    fx[i, j] += x[i + a, j + b]
                    fy[i, j] -= y[i + a, j + b]
    return [fx, fy]


# Cases whose recorded results only their TPU computes: what reduce_window's semantics give instead.
REFERENCE = {"tpu_stablehlo_dynamic_reduce_window__data_variadic_2023_06_17": variadic_reduce_window}


def checker(name):
    if name.startswith(("tpu_", "cuda_", "rocm_")) and ("eigh" in name.lower() or "syev" in name):
        return lambda got, want: check_eigh(got, want, scaled=True)
    if "syev" in name or "eigh" in name:
        return check_eigh
    if "geev" in name:
        return check_eig
    if "gees" in name:
        return check_schur
    return None


def run(bin_path, case_dir, model, out):
    """Runs the model on the case's inputs; returns (ok, stderr)."""
    inputs = sorted(glob.glob(os.path.join(case_dir, "inputs", "arg*.npy")))
    for naming in ("index", "arg"):
        args = [bin_path, "run", os.path.join(case_dir, model), "--output", out, "--quiet"]
        for f in inputs:
            stem = os.path.basename(f)[:-4]
            args += ["--input", f"{stem[3:] if naming == 'index' else stem}={f}"]
        done = subprocess.run(args, capture_output=True, text=True, timeout=300)
        if done.returncode == 0 or "has no input" not in done.stderr:
            return done.returncode == 0, done.stderr.strip()
    return False, done.stderr.strip()


def compare(case_dir, out, name):
    want = [np.load(f) for f in sorted(glob.glob(os.path.join(case_dir, "expected", "out*.npy")))]
    if name in REFERENCE:
        want = REFERENCE[name]([np.load(f) for f in sorted(glob.glob(os.path.join(case_dir, "inputs", "arg*.npy")))])
    got = []
    for i in range(len(want)):
        path = os.path.join(out, f"out{i}.npy")
        if not os.path.exists(path):
            return f"out{i}.npy missing"
        got.append(np.load(path))
    check = checker(name)
    if check:
        return check(got, want)
    for i, (g, w) in enumerate(zip(got, want)):
        bad = close(g, w)
        if bad:
            return f"out{i}: {bad}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--min-passed", type=int, default=0)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--gpu", action="store_true", help="the cuda and rocm cases instead (run on the CPU)")
    mode.add_argument("--tpu", action="store_true", help="the tpu cases instead (XLA's own targets)")
    args = ap.parse_args()
    passed, failed, missing = 0, 0, {}
    platforms = ("cuda", "rocm") if args.gpu else ("tpu",) if args.tpu else ("cpu",)
    label = "GPU" if args.gpu else "TPU" if args.tpu else "CPU"
    with tempfile.TemporaryDirectory() as tmp:
        for case_dir in sorted(glob.glob(os.path.join(args.cases, "*"))):
            name = os.path.basename(case_dir)
            meta = json.load(open(os.path.join(case_dir, "meta.json")))
            targets = [t for t in meta.get("custom_call_targets", []) if t != "shape_assertion"]
            if meta.get("platform") not in platforms or not targets or not os.path.isdir(os.path.join(case_dir, "expected")):
                continue
            for model in ("module.mlirbc", "module.mlir"):
                if model == "module.mlir" and b"\0" in open(os.path.join(case_dir, model), "rb").read():
                    continue  # a text twin whose string escapes were decoded into raw NUL bytes
                out = os.path.join(tmp, name + model)
                ok, err = run(args.bin, case_dir, model, out)
                if not ok and ("is not supported" in err or args.gpu or args.tpu) and "custom_call @" in err:
                    target = err.split("custom_call @")[1].split()[0]
                    missing.setdefault(target, []).append(name)
                    break
                bad = err if not ok else compare(case_dir, out, name)
                if bad:
                    print(f"FAIL {name} ({model}): {bad[:300]}")
                    failed += 1
                else:
                    passed += 1
    for target, cases in sorted(missing.items()):
        print(f"not yet supported: @{target} ({len(cases)} cases)")
    print(f"{label} custom-call cases: {passed} runs reproduce JAX, {failed} fail, "
          f"{sum(len(c) for c in missing.values())} cases call a target hlorun lacks")
    if passed < args.min_passed:
        print(f"FAIL: fewer than {args.min_passed} runs reproduce JAX")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
