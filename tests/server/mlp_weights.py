#!/usr/bin/python3
"""Writes deterministic weights for tests/server/data/mlp.mlir as a .safetensors file, with the
standard library only.

  mlp_weights.py OUT.safetensors [--seed N]
"""
import json
import random
import struct
import sys

SHAPES = {
    "dense1.bias": (128,),
    "dense1.kernel": (64, 128),
    "dense2.bias": (10,),
    "dense2.kernel": (128, 10),
}


def count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def write_safetensors(path, tensors):
    """tensors: name -> (shape, list of floats), written as F32 in name order."""
    header, data = {}, bytearray()
    for name in sorted(tensors):
        shape, values = tensors[name]
        raw = struct.pack(f"<{len(values)}f", *values)
        header[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + bytes(data))


def main(argv):
    if len(argv) not in (1, 3) or (len(argv) == 3 and argv[1] != "--seed"):
        print(__doc__, file=sys.stderr)
        return 2
    rng = random.Random(int(argv[2]) if len(argv) == 3 else 0)
    tensors = {}
    for name, shape in SHAPES.items():
        scale = 1.0 / (shape[0] ** 0.5) if name.endswith("kernel") else 0.1
        tensors[name] = (shape, [rng.uniform(-scale, scale) for _ in range(count(shape))])
    write_safetensors(argv[0], tensors)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
