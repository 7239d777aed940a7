#!/usr/bin/python3
"""Exports the PyTorch TinyTransformer (bench/tiny_transformer_torch.py) to ONNX for ONNX Runtime.

  export_onnx.py WEIGHTS.safetensors OUT.onnx [--opset 17]

Input `tokens`: int64 [batch, 256] with a dynamic batch axis; output `logits`: float32
[batch, 256, 256]. Opset 17 (the newest torch 1.13 exports; ONNX Runtime 1.30 runs opsets up to
23) exports LayerNorm as one LayerNormalization op. The weights become initializers. The graph is
written the way ONNX Runtime's own graph optimizations (level "all", applied when the session is
created) fuse best: activations as [batch * 256, 256] matrices so each projection and its bias
become one Gemm, the tanh-GELU in the form ORT fuses into FastGelu, the causal mask as an additive
constant. The ONNX checker runs when the `onnx` module is installed (python3-onnx, optional);
bench/ort_bench.js checks ONNX Runtime's logits against the numpy reference before timing.
"""
import argparse
import os
import sys
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tiny_transformer_torch as ttt  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("weights")
    ap.add_argument("out")
    ap.add_argument("--opset", type=int, default=17)
    ap.add_argument("--batch", type=int, default=2, help="batch size of the example input used for tracing")
    args = ap.parse_args(argv)
    model = ttt.load_model(args.weights)
    model.set_explicit_gelu(True)
    tokens = torch.from_numpy(ttt.tt.make_tokens(args.batch).astype("int64"))
    tmp = args.out + ".tmp"
    with torch.no_grad(), warnings.catch_warnings():
        # int(tokens.shape[1]) makes the sequence length static (intended): silence the tracer's note
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        torch.onnx.export(
            model,
            (tokens,),
            tmp,
            input_names=["tokens"],
            output_names=["logits"],
            dynamic_axes={"tokens": {0: "batch"}, "logits": {0: "batch"}},
            opset_version=args.opset,
            do_constant_folding=True,
        )
    try:
        import onnx  # optional (Debian: python3-onnx); ORT's own load in ort_bench.js is the real check

        onnx.checker.check_model(onnx.load(tmp))
    except ImportError:
        pass
    os.replace(tmp, args.out)
    print(f"exported {args.out} (opset {args.opset}, dynamic batch, {os.path.getsize(args.out) / 1e6:.1f} MB, torch {torch.__version__})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
