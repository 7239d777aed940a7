#!/usr/bin/python3
"""End-to-end tests of `hlorun serve` through TensorFlow Serving's REST API (run by
test_rest_api.sh, which kills every server listed in --pidfile when it exits).

  rest_api.py --bin HLORUN --work DIR --pidfile FILE [--only SECTION[,SECTION...]]

Sections (each starts its own servers on 127.0.0.1, port chosen by the server):
  shapes     status and metadata JSON exactly as TF Serving writes them; versions and labels
  predict    row and columnar formats, 1 and 2 inputs/outputs, results equal `hlorun run`'s
  errors     error statuses and {"error": ...} bodies, JSON nesting depth
  curl       the same API through curl: README-style predict, HTTP/1.0, Expect: 100-continue,
             chunked body, keep-alive; the body size and tensor element limits
  cli        exit codes and messages of bad command lines and configuration files
  ready      /healthz and /readyz before and after a model appears
  polling    a new version is picked up and the old one unloaded; a corrupt one is rejected
  savedmodel jax2tf SavedModel versions: metadata, predict, reload; several signatures, each in
             metadata as TF Serving prints it and predicted by signature_name
  batching   concurrent requests get their own results; the batch-size metric shows batches > 1
  queue      a full batching queue answers 503
  blocking   a slow prediction does not hold up requests on other connections
  metrics    the Prometheus page passes `promtool check metrics` and counts requests
  sigterm    SIGTERM while requests are in flight: they complete, exit code 0
"""
import argparse
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time

import requests

import serverlib as sl
from serverlib import short

STATES = {"UNKNOWN", "START", "LOADING", "AVAILABLE", "UNLOADING", "END"}
POLL_S = 1  # --file_system_poll_wait_seconds for the tests that add versions

# Limits of the server's REST API (hlorun serve flags; docs/serving.md). The config server runs
# with small limits so that going over them costs little.
MAX_REQUEST_BYTES = 1 << 20          # --max_request_bytes (default 64 MiB)
MAX_TENSOR_ELEMENTS = 100000         # --max_tensor_elements (default 2^24)
MAX_JSON_DEPTH = 64                  # --max_json_depth (the default)

X2 = [[1.5, -2.0, 3.25], [4.0, 0.1, -6.0]]
K2 = [[1, 2, 3], [-4, 5, 100]]


class Ctx:
    """What every section needs: the binary, a work directory, the pid file and the tally."""

    def __init__(self, args):
        self.bin = args.bin
        self.work = args.work
        self.pidfile = args.pidfile
        self.t = sl.Tally()
        self.n_servers = 0
        self.artifacts = {}

    def server(self, args, **kw):
        self.n_servers += 1
        log = os.path.join(self.work, f"server{self.n_servers}.log")
        return sl.Server(self.bin, args, self.pidfile, log, **kw)

    def path(self, *parts):
        return os.path.join(self.work, *parts)

    def artifact(self, key):
        """Exports (once) and returns the artifact for a test model key: 'two_io', 'two_io_v2'
        (the constant 2 replaced by 3), 'plusN' (y = x + N), 'slow', 'mlp'."""
        if key in self.artifacts:
            return self.artifacts[key]
        out = self.path(f"{key}.hlo")
        if key == "two_io":
            sl.export(self.bin, os.path.join(sl.DATA, "two_io.mlir"), out)
        elif key == "two_io_v2":
            with open(os.path.join(sl.DATA, "two_io.mlir")) as f:
                text = f.read().replace("dense<2.000000e+00>", "dense<3.000000e+00>")
            mlir = self.path("two_io_v2.mlir")
            with open(mlir, "w") as f:
                f.write(text)
            sl.export(self.bin, mlir, out)
        elif key.startswith("plus"):
            sl.export(self.bin, sl.versioned_mlir(self.work, int(key[4:])), out)
        elif key == "slow":
            sl.export(self.bin, os.path.join(sl.DATA, "slow.mlir"), out)
        elif key == "mlp":
            weights = self.path("mlp.safetensors")
            subprocess.run([sys.executable, os.path.join(sl.HERE, "mlp_weights.py"), weights], check=True, timeout=60)
            sl.export(self.bin, os.path.join(sl.DATA, "mlp.mlir"), out, weights)
        else:
            raise KeyError(key)
        self.artifacts[key] = out
        return out

    def model_dir(self, name, versions):
        """A base path self.work/models/NAME with the given {version: artifact key} installed."""
        base = self.path("models", name)
        shutil.rmtree(base, ignore_errors=True)
        os.makedirs(base)
        for v, key in versions.items():
            sl.install_version(base, v, self.artifact(key))
        return base


def check_error_body(t, r, what):
    """An error response: JSON object with a string "error" member."""
    try:
        body = r.json()
    except ValueError:
        return t.check(False, f"{what}: body is JSON", short(r.text))
    return t.check(isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"] != "",
                   f"{what}: body is {{\"error\": \"...\"}}", short(body))


def expect_error(t, r, codes, what):
    """The response has one of the HTTP codes and a TF Serving error body."""
    codes = (codes,) if isinstance(codes, int) else codes
    ok = t.check(r.status_code in codes, f"{what}: HTTP {r.status_code}, want {'/'.join(map(str, codes))}",
                 short(r.text))
    if ok:
        check_error_body(t, r, what)
    return ok


def expect_ok_json(t, r, what):
    """A 200 response with a JSON body (returned, or None)."""
    if not t.check(r.status_code == 200, f"{what}: HTTP {r.status_code}, want 200", short(r.text)):
        return None
    t.check("application/json" in r.headers.get("Content-Type", ""), f"{what}: Content-Type is JSON",
            r.headers.get("Content-Type"))
    try:
        return r.json()
    except ValueError:
        t.check(False, f"{what}: body is JSON", short(r.text))
        return None


# ---- shapes: status, metadata, versions, labels ----

def check_status_shape(t, body, want, what):
    """GET /v1/models/... body: exactly TF Serving's GetModelStatusResponse JSON. want maps version
    strings to the expected state (other versions may be listed only in state END)."""
    if not t.check(isinstance(body, dict) and set(body) == {"model_version_status"},
                   f"{what}: top-level keys are exactly model_version_status", short(body)):
        return
    entries = body["model_version_status"]
    if not t.check(isinstance(entries, list) and entries, f"{what}: model_version_status is a non-empty list", short(entries)):
        return
    seen = {}
    for e in entries:
        t.check(isinstance(e, dict) and set(e) == {"version", "state", "status"},
                f"{what}: entry keys are version/state/status", short(e))
        if not isinstance(e, dict):
            continue
        t.check(isinstance(e.get("version"), str) and e["version"].isdigit(), f"{what}: version is a decimal string",
                short(e.get("version")))
        t.check(e.get("state") in STATES, f"{what}: state is a TF Serving state name", short(e.get("state")))
        st = e.get("status")
        t.check(isinstance(st, dict) and set(st) == {"error_code", "error_message"}
                and isinstance(st.get("error_code"), str) and isinstance(st.get("error_message"), str),
                f"{what}: status is {{error_code, error_message}} strings", short(st))
        if e.get("state") == "AVAILABLE":
            t.check(isinstance(st, dict) and st.get("error_code") == "OK" and st.get("error_message") == "",
                    f"{what}: an AVAILABLE version has error_code OK and an empty message", short(st))
        seen[e.get("version")] = e.get("state")
    for v, state in want.items():
        t.check(seen.get(v) == state, f"{what}: version {v} is {state}", short(seen))
    for v, state in seen.items():
        t.check(v in want or state == "END", f"{what}: no unexpected version listed", f"{v}: {state}")


def check_tensor_info(t, info, dtype, dims, what):
    """A TensorInfo as TF Serving writes it: dtype name, tensor_shape with string sizes."""
    if not t.check(isinstance(info, dict) and set(info) == {"dtype", "tensor_shape", "name"},
                   f"{what}: keys are dtype/tensor_shape/name", short(info)):
        return
    t.check(info["dtype"] == dtype, f"{what}: dtype {dtype}", short(info["dtype"]))
    t.check(isinstance(info["name"], str), f"{what}: name is a string", short(info["name"]))
    shape = info["tensor_shape"]
    want = {"dim": [{"size": str(d), "name": ""} for d in dims], "unknown_rank": False}
    t.check(shape == want, f"{what}: tensor_shape", f"got {short(shape)}, want {short(want)}")


def check_metadata(t, body, name, version, inputs, outputs, what):
    """GET .../metadata body: model_spec and the serving_default signature, exactly."""
    if not t.check(isinstance(body, dict) and set(body) == {"model_spec", "metadata"},
                   f"{what}: keys are model_spec/metadata", short(body)):
        return
    spec = body["model_spec"]
    t.check(spec == {"name": name, "signature_name": "", "version": str(version)},
            f"{what}: model_spec", short(spec))
    md = body["metadata"]
    ok = (isinstance(md, dict) and set(md) == {"signature_def"} and isinstance(md["signature_def"], dict)
          and set(md["signature_def"]) == {"signature_def"} and isinstance(md["signature_def"]["signature_def"], dict))
    if not t.check(ok, f"{what}: metadata.signature_def.signature_def is a map", short(md)):
        return
    sigs = md["signature_def"]["signature_def"]
    if not t.check("serving_default" in sigs, f"{what}: signature serving_default", short(list(sigs))):
        return
    sig = sigs["serving_default"]
    if not t.check(isinstance(sig, dict) and set(sig) == {"inputs", "outputs", "method_name"},
                   f"{what}: signature keys are inputs/outputs/method_name", short(sig)):
        return
    t.check(sig["method_name"] == "tensorflow/serving/predict", f"{what}: method_name", short(sig["method_name"]))
    for kind, want in (("inputs", inputs), ("outputs", outputs)):
        got = sig[kind]
        if not t.check(isinstance(got, dict) and set(got) == set(want), f"{what}: {kind} names",
                       f"got {short(list(got) if isinstance(got, dict) else got)}, want {list(want)}"):
            continue
        for tname, (dtype, dims) in want.items():
            check_tensor_info(t, got[tname], dtype, dims, f"{what}: {kind}.{tname}")


def write_config(path, models):
    """A TF Serving model config file. models: list of dicts with name, base_path and optional
    policy (text of model_version_policy) and labels {label: version}."""
    lines = ["model_config_list {"]
    for m in models:
        lines.append("  config {")
        lines.append(f"    name: '{m['name']}'")
        lines.append(f"    base_path: '{m['base_path']}'")
        if m.get("platform"):
            lines.append(f"    model_platform: '{m['platform']}'")
        if m.get("policy"):
            lines.append(f"    model_version_policy {{ {m['policy']} }}")
        for label, v in m.get("labels", {}).items():
            lines.append(f"    version_labels {{ key: '{label}' value: {v} }}")
        lines.append("  }")
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def config_server(ctx):
    """The multi-model server of the shapes, predict and errors sections:
    two_io (versions 1, 2; policy all; labels stable=1, canary=2), mlp (version 1, with weights),
    plus (versions 1, 2, 3 of y = x + N, default policy: latest), plus_latest2 (the same base path,
    latest 2), plus_specific (the same base path, versions 1 and 3)."""
    two = ctx.model_dir("two_io", {1: "two_io", 2: "two_io_v2"})
    mlp = ctx.model_dir("mlp", {1: "mlp"})
    plus = ctx.model_dir("plus", {1: "plus1", 2: "plus2", 3: "plus3"})
    cfg = write_config(ctx.path("models.config"), [
        {"name": "two_io", "base_path": two, "policy": "all {}", "labels": {"stable": 1, "canary": 2}},
        {"name": "mlp", "base_path": mlp, "platform": "hlorun"},
        {"name": "plus", "base_path": plus},
        {"name": "plus_latest2", "base_path": plus, "policy": "latest { num_versions: 2 }"},
        {"name": "plus_specific", "base_path": plus, "policy": "specific { versions: 1 versions: 3 }"},
    ])
    srv = ctx.server(["--model_config_file", cfg, "--max_request_bytes", str(MAX_REQUEST_BYTES),
                      "--max_tensor_elements", str(MAX_TENSOR_ELEMENTS)])
    for name, v in (("two_io", 1), ("two_io", 2), ("mlp", 1), ("plus", 3), ("plus_latest2", 2),
                    ("plus_latest2", 3), ("plus_specific", 1), ("plus_specific", 3)):
        if not ctx.t.check(sl.wait_available(srv, name, v), f"{name} version {v} becomes AVAILABLE",
                           srv.log_tail()):
            break
    return srv


def section_shapes(ctx, srv):
    t = ctx.t
    t.begin("shapes")
    body = expect_ok_json(t, srv.get("/v1/models/two_io"), "GET /v1/models/two_io")
    if body is not None:
        check_status_shape(t, body, {"1": "AVAILABLE", "2": "AVAILABLE"}, "status two_io")
    body = expect_ok_json(t, srv.get("/v1/models/two_io/versions/1"), "GET versions/1")
    if body is not None:
        check_status_shape(t, body, {"1": "AVAILABLE"}, "status two_io v1")
        t.check(len(body.get("model_version_status", [])) == 1, "versions/1 lists one version", short(body))
    for label, v in (("stable", "1"), ("canary", "2")):
        body = expect_ok_json(t, srv.get(f"/v1/models/two_io/labels/{label}"), f"GET labels/{label}")
        if body is not None:
            check_status_shape(t, body, {v: "AVAILABLE"}, f"status two_io label {label}")
    body = expect_ok_json(t, srv.get("/v1/models/plus"), "GET /v1/models/plus")
    if body is not None:
        check_status_shape(t, body, {"3": "AVAILABLE"}, "policy latest (default): only version 3")
    body = expect_ok_json(t, srv.get("/v1/models/plus_latest2"), "GET plus_latest2")
    if body is not None:
        check_status_shape(t, body, {"2": "AVAILABLE", "3": "AVAILABLE"}, "policy latest 2: versions 2 and 3")
    body = expect_ok_json(t, srv.get("/v1/models/plus_specific"), "GET plus_specific")
    if body is not None:
        check_status_shape(t, body, {"1": "AVAILABLE", "3": "AVAILABLE"}, "policy specific 1, 3")

    two_inputs = {"x": ("DT_FLOAT", [-1, 3]), "k": ("DT_INT32", [-1, 3])}
    two_outputs = {"sum": ("DT_FLOAT", [-1, 3]), "count": ("DT_INT32", [-1])}
    body = expect_ok_json(t, srv.get("/v1/models/two_io/metadata"), "GET two_io/metadata")
    if body is not None:
        check_metadata(t, body, "two_io", 2, two_inputs, two_outputs, "metadata two_io (latest = 2)")
    body = expect_ok_json(t, srv.get("/v1/models/two_io/versions/1/metadata"), "GET two_io/versions/1/metadata")
    if body is not None:
        check_metadata(t, body, "two_io", 1, two_inputs, two_outputs, "metadata two_io v1")
    body = expect_ok_json(t, srv.get("/v1/models/two_io/labels/stable/metadata"), "GET two_io/labels/stable/metadata")
    if body is not None:
        check_metadata(t, body, "two_io", 1, two_inputs, two_outputs, "metadata two_io label stable")
    body = expect_ok_json(t, srv.get("/v1/models/mlp/metadata"), "GET mlp/metadata")
    if body is not None:
        check_metadata(t, body, "mlp", 1, {"x": ("DT_FLOAT", [-1, 64])}, {"logits": ("DT_FLOAT", [-1, 10])},
                       "metadata mlp (weights are not inputs)")


# ---- predict ----

def predict(srv, model, body, route=""):
    return srv.post(f"/v1/models/{model}{route}:predict", json=body)


def section_predict(ctx, srv):
    t = ctx.t
    t.begin("predict")
    two_mlir = os.path.join(sl.DATA, "two_io.mlir")
    inputs = {"x": (X2, "f32"), "k": (K2, "i32")}
    want1 = sl.run_reference(ctx.bin, ctx.artifact("two_io"), inputs, ctx.work, "two1")
    want2 = sl.run_reference(ctx.bin, ctx.artifact("two_io_v2"), inputs, ctx.work, "two2")
    want_mlir = sl.run_reference(ctx.bin, two_mlir, inputs, ctx.work, "two1mlir")
    t.check(want1 == want_mlir, "hlorun run: the artifact and the .mlir agree", short((want1, want_mlir)))

    # row format, 2 inputs / 2 outputs: predictions are objects keyed by output name
    rows = [{"x": X2[i], "k": K2[i]} for i in range(2)]
    for route, want, what in (("", want2, "latest"), ("/versions/1", want1, "versions/1"),
                              ("/versions/2", want2, "versions/2"), ("/labels/stable", want1, "labels/stable"),
                              ("/labels/canary", want2, "labels/canary")):
        body = expect_ok_json(t, predict(srv, "two_io", {"instances": rows}, route), f"row predict {what}")
        if body is None:
            continue
        ok = t.check(isinstance(body, dict) and set(body) == {"predictions"}, f"row {what}: keys are predictions", short(body))
        preds = body.get("predictions") if ok else None
        if not t.check(isinstance(preds, list) and len(preds) == 2 and all(isinstance(p, dict) and set(p) == {"sum", "count"} for p in preds),
                       f"row {what}: two objects with sum and count", short(preds)):
            continue
        t.check(sl.same_values([p["sum"] for p in preds], want[0], True), f"row {what}: sum equals hlorun run",
                f"got {short([p['sum'] for p in preds])}, want {short(want[0])}")
        t.check(sl.same_values([p["count"] for p in preds], want[1], False), f"row {what}: count equals hlorun run (ints)",
                f"got {short([p['count'] for p in preds])}, want {short(want[1])}")

    # columnar format, 2 inputs / 2 outputs: outputs is an object keyed by output name
    for route, want, what in (("", want2, "latest"), ("/versions/1", want1, "versions/1")):
        body = expect_ok_json(t, predict(srv, "two_io", {"inputs": {"x": X2, "k": K2}}, route), f"columnar predict {what}")
        if body is None:
            continue
        ok = t.check(isinstance(body, dict) and set(body) == {"outputs"}, f"columnar {what}: keys are outputs", short(body))
        outs = body.get("outputs") if ok else None
        if t.check(isinstance(outs, dict) and set(outs) == {"sum", "count"}, f"columnar {what}: outputs sum and count", short(outs)):
            t.check(sl.same_values(outs["sum"], want[0], True), f"columnar {what}: sum", short(outs["sum"]))
            t.check(sl.same_values(outs["count"], want[1], False), f"columnar {what}: count", short(outs["count"]))

    # signature_name: serving_default is accepted
    body = expect_ok_json(t, predict(srv, "two_io", {"signature_name": "serving_default", "instances": rows}),
                          "predict with signature_name serving_default")

    # one input / one output: predictions and outputs are plain values, not objects
    xs = [[1.0, 2.0], [0.25, -8.5], [3.0e-3, 1.0e6]]
    want_p3 = sl.run_reference(ctx.bin, ctx.artifact("plus3"), {"x": (xs, "f32")}, ctx.work, "plus3")[0]
    body = expect_ok_json(t, predict(srv, "plus", {"instances": xs}), "row predict, 1 input, 1 output")
    if body is not None:
        t.check(set(body) == {"predictions"} and sl.same_values(body["predictions"], want_p3, True),
                "row 1-in/1-out: predictions is the list of rows", short(body))
    body = expect_ok_json(t, predict(srv, "plus", {"instances": [{"x": r} for r in xs]}), "row predict, named single input")
    if body is not None:
        t.check(set(body) == {"predictions"} and sl.same_values(body["predictions"], want_p3, True),
                "row named single input: predictions is the list of rows", short(body))
    body = expect_ok_json(t, predict(srv, "plus", {"inputs": xs}), "columnar predict, unnamed single input")
    if body is not None:
        t.check(set(body) == {"outputs"} and sl.same_values(body["outputs"], want_p3, True),
                "columnar 1-in/1-out: outputs is the tensor itself", short(body))
    body = expect_ok_json(t, predict(srv, "plus", {"inputs": {"x": xs}}), "columnar predict, named single input")
    if body is not None:
        t.check(set(body) == {"outputs"} and sl.same_values(body["outputs"], want_p3, True),
                "columnar named single input: outputs is the tensor itself", short(body))
    # versions of the same base path under different policies answer with their own values
    for model, route, n in (("plus_latest2", "/versions/2", 2), ("plus_latest2", "", 3),
                            ("plus_specific", "/versions/1", 1), ("plus_specific", "", 3)):
        body = expect_ok_json(t, predict(srv, model, {"instances": [[1.0, 2.0]]}, route), f"predict {model}{route}")
        if body is not None:
            t.check(body.get("predictions") == [[1.0 + n, 2.0 + n]], f"{model}{route} answers with version {n}", short(body))

    # a model with weights, a batch of 5, results equal `hlorun run` of the .mlir with the weights
    rows5 = [[((i * 64 + j) % 17 - 8) / 8.0 for j in range(64)] for i in range(5)]
    want_mlp = sl.run_reference(ctx.bin, os.path.join(sl.DATA, "mlp.mlir"), {"x": (rows5, "f32")}, ctx.work, "mlp",
                                weights=ctx.path("mlp.safetensors"))[0]
    body = expect_ok_json(t, predict(srv, "mlp", {"instances": rows5}), "predict mlp")
    if body is not None:
        t.check(sl.same_values(body.get("predictions"), want_mlp, True), "mlp logits equal hlorun run",
                f"got {short(body.get('predictions'))}, want {short(want_mlp)}")
    # a batch of 1 and an empty batch of 0 rows in columnar form
    body = expect_ok_json(t, predict(srv, "mlp", {"inputs": {"x": rows5[:1]}}), "predict mlp batch 1")
    if body is not None:
        t.check(sl.same_values(body.get("outputs"), want_mlp[:1], True), "mlp batch 1 equals row 0 of batch 5",
                short(body))


# ---- errors ----

def section_errors(ctx, srv):
    t = ctx.t
    t.begin("errors")
    row = {"instances": [{"x": X2[0], "k": K2[0]}]}
    expect_error(t, srv.get("/v1/models/nope"), 404, "status of an unknown model")
    expect_error(t, srv.get("/v1/models/nope/metadata"), 404, "metadata of an unknown model")
    expect_error(t, srv.post("/v1/models/nope:predict", json=row), 404, "predict on an unknown model")
    expect_error(t, srv.get("/v1/models/two_io/versions/7"), 404, "status of an unknown version")
    expect_error(t, srv.get("/v1/models/two_io/versions/7/metadata"), 404, "metadata of an unknown version")
    expect_error(t, srv.post("/v1/models/two_io/versions/7:predict", json=row), 404, "predict on an unknown version")
    expect_error(t, srv.post("/v1/models/plus/versions/1:predict", json={"instances": [[1.0, 2.0]]}), 404,
                 "predict on a version the policy does not serve")
    expect_error(t, srv.post("/v1/models/two_io/labels/nolabel:predict", json=row), 400,
                 "predict on an unknown label (documented: 400 Unrecognized servable version label)")
    expect_error(t, srv.get("/v1/models/two_io/labels/nolabel"), 400, "status of an unknown label")
    # malformed requests
    for body, what in ((b"{", "truncated JSON"), (b"not json", "not JSON"), (b"", "empty body"),
                       (b'{"instances": [1, 2,]}', "trailing comma"), (b"[1, 2]", "top level is an array"),
                       (b'{"instances": "abc"}', "instances is a string"),
                       (b'{"foo": 1}', "neither instances nor inputs"),
                       (b'{"instances": [], "inputs": []}', "both instances and inputs")):
        r = srv.post("/v1/models/two_io:predict", data=body, headers={"Content-Type": "application/json"})
        expect_error(t, r, 400, f"malformed request: {what}")
    # as in TF Serving (RapidJSON's kParseStopWhenDoneFlag), text after the document is not read
    r = srv.post("/v1/models/two_io:predict", data=b'{"instances": [{"x": [1,2,3], "k": [1,2,3]}]} x')
    expect_ok_json(t, r, "text after the document is ignored")
    # wrong shapes and types
    bad = (
        ({"instances": [{"x": [1.0, 2.0], "k": [1, 2, 3]}]}, "x row of 2 instead of 3"),
        ({"instances": [{"x": [1.0, 2.0, 3.0, 4.0], "k": [1, 2, 3]}]}, "x row of 4 instead of 3"),
        ({"instances": [{"x": [[1.0, 2.0, 3.0]], "k": [1, 2, 3]}]}, "x of rank 3"),
        ({"instances": [{"x": [1.0, 2.0, 3.0]}]}, "input k missing"),
        ({"instances": [{"x": [1.0, 2.0, 3.0], "k": [1, 2, 3], "z": [1]}]}, "unknown input z"),
        ({"instances": [{"x": [1.0, 2.0, 3.0], "k": [1.5, 2, 3]}]}, "float in the int32 input"),
        ({"instances": [{"x": [1.0, "a", 3.0], "k": [1, 2, 3]}]}, "string in the float input"),
        ({"instances": [{"x": [1.0, 2.0, 3.0], "k": [1, 2, 3000000000]}]}, "int32 overflow"),
        ({"instances": [{"x": [1.0, 2.0, 3.0], "k": [1, 2, 3]}, {"x": [1.0, 2.0], "k": [1, 2, 3]}]}, "ragged instances"),
        ({"inputs": {"x": X2, "k": K2[:1]}}, "columnar batch sizes differ"),
        ({"inputs": {"x": [[1.0, 2.0, 3.0], [4.0, 5.0]], "k": K2}}, "columnar ragged x"),
        ({"inputs": {"x": X2, "k": True}}, "a boolean for an int32 tensor"),
        ({"signature_name": "nope", "instances": [{"x": [1.0, 2.0, 3.0], "k": [1, 2, 3]}]}, "unknown signature"),
    )
    for body, what in bad:
        expect_error(t, srv.post("/v1/models/two_io:predict", json=body), 400, f"bad input: {what}")
    # too deep JSON: a valid document nested far beyond any tensor rank
    depth = 100000
    deep = b'{"instances": ' + b"[" * depth + b"1" + b"]" * depth + b"}"
    expect_error(t, srv.post("/v1/models/two_io:predict", data=deep), 400, f"JSON nested {depth} deep")
    deep2 = b'{"instances": ' + b"[" * (MAX_JSON_DEPTH + 2) + b"1" + b"]" * (MAX_JSON_DEPTH + 2) + b"}"
    expect_error(t, srv.post("/v1/models/two_io:predict", data=deep2), 400, f"JSON nested {MAX_JSON_DEPTH + 2} deep")
    # unknown paths and methods: outside /v1 and /v2 404 (GET / is the playground page); under /v1,
    # TF Serving's 400 "Malformed request"
    for method, path in (("GET", "/index.html"), ("GET", "/nope"), ("GET", "/v3/models/two_io")):
        r = requests.request(method, srv.url + path, timeout=30)
        expect_error(t, r, 404, f"unknown path {method} {path}")
    for method, path in (("POST", "/v1/predict"), ("GET", "/v1/models/two_io/versions/1/bogus"),
                         ("GET", "/v1/models/two_io:predict"), ("POST", "/v1/models/two_io"),
                         ("PUT", "/v1/models/two_io:predict"), ("DELETE", "/v1/models/two_io")):
        r = requests.request(method, srv.url + path, timeout=30)
        if expect_error(t, r, 400, f"TF Serving's answer to {method} {path}"):
            t.check(r.json()["error"] == f"Malformed request: {method} {path}", f"{method} {path}: TF Serving's message",
                    short(r.text))
    # the server still answers after all that
    body = expect_ok_json(t, predict(srv, "two_io", row), "predict after the errors")


def padded_body(prefix, size):
    """A valid predict body of exactly `size` bytes: prefix (a JSON object's opening members) and
    a string member "pad" filling the rest."""
    head = prefix + b', "pad": "'
    tail = b'"}'
    return head + b"x" * (size - len(head) - len(tail)) + tail


# ---- curl ----

def curl(args, timeout=60):
    done = subprocess.run(["curl", "-sS", "--max-time", str(timeout - 5), *args], capture_output=True, timeout=timeout)
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def section_curl(ctx, srv):
    t = ctx.t
    t.begin("curl")
    url = srv.url + "/v1/models/plus:predict"
    # the README example, with curl's default Content-Type (form-urlencoded)
    rc, out, err = curl(["-d", '{"instances": [[1.0, 2.0], [5.0, 6.0]]}', "-X", "POST", url])
    try:
        t.check(rc == 0 and json.loads(out) == {"predictions": [[4.0, 5.0], [8.0, 9.0]]}, "curl -d predict", out + err)
    except ValueError:
        t.check(False, "curl -d predict: JSON", out + err)
    # headers of a status response
    rc, out, err = curl(["-i", srv.url + "/v1/models/plus"])
    head = out.split("\r\n\r\n", 1)[0].lower()
    t.check(rc == 0 and head.startswith("http/1.1 200") and "content-type: application/json" in head,
            "curl -i status: HTTP/1.1 200, application/json", head)
    # HTTP/1.0
    rc, out, err = curl(["--http1.0", "-d", '{"instances": [[0.0, 0.0]]}', url])
    t.check(rc == 0 and '"predictions"' in out, "HTTP/1.0 predict", out + err)
    # a chunked request body
    rc, out, err = curl(["-H", "Transfer-Encoding: chunked", "-H", "Content-Type: application/json",
                         "--data-binary", '{"inputs": {"x": [[1.0, 1.0]]}}', url])
    try:
        t.check(rc == 0 and json.loads(out) == {"outputs": [[4.0, 4.0]]}, "chunked request body", out + err)
    except ValueError:
        t.check(False, "chunked request body: JSON", out + err)
    # Expect: 100-continue with a normal body
    rc, out, err = curl(["-H", "Expect: 100-continue", "-d", '{"instances": [[1.0, 2.0]]}', url])
    t.check(rc == 0 and '"predictions"' in out, "Expect: 100-continue predict", out + err)
    # keep-alive: several requests on one connection
    rc, out, err = curl(["-d", '{"instances": [[1.0, 2.0]]}', url, "--next", "-d", '{"instances": [[1.0, 2.0]]}', url])
    t.check(rc == 0 and out.count('"predictions"') == 2, "two requests on one curl connection", out + err)
    # a body of exactly --max_request_bytes is served; one byte more is refused with 413 (or 400)
    prefix = b'{"instances": [[1.0, 2.0]]'
    for size, codes, what in ((MAX_REQUEST_BYTES, ("200",), "at the limit"),
                              (MAX_REQUEST_BYTES + 1, ("413", "400"), "one byte over the limit"),
                              (8 * MAX_REQUEST_BYTES, ("413", "400"), "8 times the limit")):
        path = ctx.path("sized.json")
        with open(path, "wb") as f:
            f.write(padded_body(prefix, size))
        # without Expect: 100-continue the client is still sending when the server refuses; the
        # refusal must reach it all the same (tried 5 times: a lost answer is a race)
        for expect, tries in (("", 1 if size <= MAX_REQUEST_BYTES else 5), ("100-continue", 1)):
            label = f"{size}-byte body ({what}){', Expect: 100-continue' if expect else ''}"
            outs = []
            for _ in range(tries):
                rc, out, err = curl(["-o", ctx.path("sized.out"), "-w", "%{http_code}", "-H", "Content-Type: application/json",
                                     "-H", f"Expect: {expect}", "--data-binary", "@" + path, url])
                outs.append(f"http {out} rc {rc} {err.strip()}")
                if out not in codes:
                    break
            if not t.check(out in codes, f"{label}: HTTP {'/'.join(codes)}", "; ".join(outs)):
                continue
            with open(ctx.path("sized.out"), "rb") as f:
                text = f.read().decode("utf-8", "replace")
            if out != "200":
                try:
                    t.check(isinstance(json.loads(text).get("error"), str), f"{label}: {{\"error\": ...}}", short(text))
                except (ValueError, AttributeError):
                    t.check(False, f"{label}: JSON error body", short(text))
        os.remove(path)
    # too many elements (within the size limit): rows of 2 for plus
    for rows, code in ((MAX_TENSOR_ELEMENTS // 2, "200"), (MAX_TENSOR_ELEMENTS // 2 + 1, "400")):
        path = ctx.path("many.json")
        with open(path, "w") as f:
            f.write('{"instances": [' + ",".join(["[0,1]"] * rows) + "]}")
        rc, out, err = curl(["-o", ctx.path("many.out"), "-w", "%{http_code}", "-H", "Content-Type: application/json",
                             "--data-binary", "@" + path, url])
        t.check(out == code, f"{2 * rows} elements (limit {MAX_TENSOR_ELEMENTS}): HTTP {code}", f"http {out} rc {rc} {err}")
        if code == "400" and out == "400":
            with open(ctx.path("many.out"), "rb") as f:
                text = f.read().decode("utf-8", "replace")
            t.check("error" in text, "too many elements: {\"error\": ...}", short(text))
        os.remove(path)
    r = srv.post("/v1/models/plus:predict", json={"instances": [[1.0, 2.0]]})
    t.check(r.status_code == 200, "the server answers after the oversized requests", r.text)


# ---- readiness, polling, corrupt versions ----

def section_ready(ctx):
    t = ctx.t
    t.begin("ready")
    base = ctx.path("models", "late")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    srv = ctx.server(["--model_name", "late", "--model_base_path", base, "--file_system_poll_wait_seconds", str(POLL_S)])
    try:
        r = srv.get("/healthz")
        t.check(r.status_code == 200, "/healthz is 200 while no model is loaded", r.text)
        t.check(r.json() == {"status": "ok"}, "/healthz body", r.text)
        r = srv.get("/readyz")
        if t.check(r.status_code == 503, "/readyz is 503 while no model is loaded", f"{r.status_code} {r.text}"):
            check_error_body(t, r, "/readyz while not ready")
        r = srv.post("/v1/models/late:predict", json={"instances": [[1.0, 2.0]]})
        t.check(r.status_code in (404, 503), f"predict before any version: 404/503 (got {r.status_code})", r.text)
        sl.install_version(base, 1, ctx.artifact("plus1"))
        t.check(sl.wait_available(srv, "late", 1, timeout=10 * POLL_S + 10), "version 1 is picked up", srv.log_tail())
        ok = sl.wait_for(lambda: srv.get("/readyz").status_code == 200, 5)
        t.check(ok, "/readyz is 200 once the model is AVAILABLE")
        t.check(srv.get("/readyz").json() == {"status": "ready"}, "/readyz body once ready")
        t.check(srv.get("/healthz").status_code == 200, "/healthz is still 200")
        r = srv.post("/v1/models/late:predict", json={"instances": [[1.0, 2.0]]})
        t.check(r.status_code == 200 and r.json() == {"predictions": [[2.0, 3.0]]}, "predict on the new model", r.text)
    finally:
        srv.stop()


def section_polling(ctx):
    t = ctx.t
    t.begin("polling")
    base = ctx.model_dir("poll", {1: "plus1"})
    srv = ctx.server(["--model_name", "poll", "--model_base_path", base, "--file_system_poll_wait_seconds", str(POLL_S)])
    one = {"instances": [[1.0, 2.0]]}
    try:
        t.check(sl.wait_available(srv, "poll", 1), "version 1 AVAILABLE", srv.log_tail())
        sl.install_version(base, 2, ctx.artifact("plus2"))
        t.check(sl.wait_available(srv, "poll", 2, timeout=10 * POLL_S + 10), "version 2 is picked up", srv.log_tail())
        gone = sl.wait_for(lambda: (sl.version_states(srv, "poll") or {}).get("1") in (None, "END"), 10 * POLL_S + 10)
        t.check(gone, "version 1 is unloaded (absent or END)", short(sl.version_states(srv, "poll")))
        r = predict(srv, "poll", one)
        t.check(r.status_code == 200 and r.json() == {"predictions": [[3.0, 4.0]]}, "predict answers with version 2", r.text)
        expect_error(t, predict(srv, "poll", one, "/versions/1"), 404, "predict on the unloaded version 1")
        body = expect_ok_json(t, srv.get("/v1/models/poll"), "status after the swap")
        if body is not None:
            check_status_shape(t, body, {"2": "AVAILABLE"}, "status after the swap")
        # a corrupt version 3 (CRC mismatch) is rejected; version 2 keeps serving
        bad = sl.corrupt_copy(ctx.artifact("plus3"), ctx.path("corrupt3.hlo"))
        sl.install_version(base, 3, bad)
        deadline = time.monotonic() + 4 * POLL_S + 2
        served = 0
        while time.monotonic() < deadline:
            r = predict(srv, "poll", one)
            if not t.check(r.status_code == 200 and r.json() == {"predictions": [[3.0, 4.0]]},
                           "version 2 serves while the corrupt version 3 is tried", r.text):
                break
            served += 1
            time.sleep(0.1)
        states = sl.version_states(srv, "poll") or {}
        t.check(states.get("2") == "AVAILABLE" and states.get("3") != "AVAILABLE",
                "status: 2 AVAILABLE, the corrupt 3 not", short(states))
        r = srv.get("/v1/models/poll/versions/3")
        if r.status_code == 200:
            entries = r.json().get("model_version_status", [])
            t.check(entries and entries[0].get("state") == "END" and entries[0]["status"]["error_code"] != "OK"
                    and entries[0]["status"]["error_message"],
                    "the corrupt version is reported END with its error", short(entries))
        else:
            expect_error(t, r, 404, "status of the corrupt version")
        t.check(srv.get("/readyz").status_code == 200, "/readyz stays 200 after a failed load")
        samples, _ = sl.parse_prometheus(srv.get("/monitoring/prometheus/metrics").text)
        fails = sum(v for (n, lab), v in samples.items() if n == "hlorun_model_load_failures_total" and dict(lab).get("model") == "poll")
        t.check(fails >= 1, "hlorun_model_load_failures_total counts the corrupt version", fails)
        state = samples.get(("hlorun_model_version_state", frozenset({("model", "poll"), ("version", "2"), ("state", "AVAILABLE")})))
        t.check(state == 1, "hlorun_model_version_state says version 2 is AVAILABLE", state)
        # a good version 4 after the corrupt one is still picked up
        sl.install_version(base, 4, ctx.artifact("plus4"))
        t.check(sl.wait_available(srv, "poll", 4, timeout=10 * POLL_S + 10), "version 4 is picked up after the corrupt 3",
                srv.log_tail())
        r = sl.wait_for(lambda: predict(srv, "poll", one).json() == {"predictions": [[5.0, 6.0]]}, 10)
        t.check(r, "predict answers with version 4")
    finally:
        code = srv.stop()
        t.check(code == 0, f"polling server exits 0 on SIGTERM (got {code})", srv.log_tail())


# ---- jax2tf SavedModel version directories ----

def _pb_varint(v):
    out = b""
    while v >= 0x80:
        out += bytes([v & 0x7F | 0x80])
        v >>= 7
    return out + bytes([v])


def _pb(n, payload):
    """A length-delimited protobuf field."""
    return _pb_varint(n << 3 | 2) + _pb_varint(len(payload)) + payload


def _pb_int(n, v):
    return _pb_varint(n << 3) + _pb_varint(v)


def write_saved_model(ctx, version_dir, factor):
    """A jax2tf-style SavedModel computing y = factor * x (factor 2 or 3) over float32[?, 3]: serving_default's
    input x (placeholder serving_default_x) goes through an XlaCallModule whose module hlorun
    writes as a portable artifact; no variables."""
    mlir = ctx.path(f"times{factor}.mlir")
    adds = ["  %0 = stablehlo.add %x, %x : tensor<?x3xf32>\n"] if factor == 2 else [
        "  %t = stablehlo.add %x, %x : tensor<?x3xf32>\n", "  %0 = stablehlo.add %t, %x : tensor<?x3xf32>\n"]
    with open(mlir, "w") as f:
        f.write("func.func public @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {\n" + "".join(adds)
                + "  return %0 : tensor<?x3xf32>\n}\n")
    bc = ctx.path(f"times{factor}.mlirbc")
    sl.hlorun(ctx.bin, "convert", mlir, bc)
    with open(bc, "rb") as f:
        module = f.read()

    def attr(key, value):
        return _pb(5, _pb(1, key) + _pb(2, value))

    node_x = _pb(1, b"serving_default_x") + _pb(2, b"Placeholder")
    call = (_pb(1, b"XlaCallModule") + _pb(2, b"XlaCallModule") + _pb(3, b"serving_default_x")
            + attr(b"module", _pb(2, module)) + attr(b"version", _pb_int(3, 9))
            + attr(b"Tout", _pb(1, _pb_int(6, 1))) + attr(b"platforms", _pb(1, _pb(2, b"CPU"))))
    node_y = _pb(1, b"y") + _pb(2, b"Identity") + _pb(3, b"XlaCallModule")
    shape = _pb(2, _pb_int(1, (1 << 64) - 1)) + _pb(2, _pb_int(1, 3))
    tensor_in = _pb(1, b"serving_default_x:0") + _pb_int(2, 1) + _pb(3, shape)
    tensor_out = _pb(1, b"y:0") + _pb_int(2, 1) + _pb(3, shape)
    sig = (_pb(1, _pb(1, b"x") + _pb(2, tensor_in)) + _pb(2, _pb(1, b"y") + _pb(2, tensor_out))
           + _pb(3, b"tensorflow/serving/predict"))
    meta = (_pb(1, _pb(4, b"serve")) + _pb(2, _pb(1, node_x) + _pb(1, call) + _pb(1, node_y))
            + _pb(5, _pb(1, b"serving_default") + _pb(2, sig)))
    os.makedirs(version_dir, exist_ok=True)
    with open(os.path.join(version_dir, "saved_model.pb"), "wb") as f:
        f.write(_pb_int(1, 1) + _pb(2, meta))


def write_saved_model_with_variable(ctx, version_dir, rows):
    """A jax2tf-style SavedModel computing y = x * w over float32[2, 3], w a variable holding `rows`:
    the graph reads w (VarHandleOp -> ReadVariableOp) into the XlaCallModule, and the restore
    function TF Serving runs (SaverDef.restore_op_name) assigns it from RestoreV2's entry, whose
    value `hlorun weights --save .../variables/variables.index` writes from a safetensors file."""
    mlir = ctx.path("times_w.mlir")
    with open(mlir, "w") as f:
        f.write("func.func public @main(%x: tensor<2x3xf32>, %w: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
                "  %0 = stablehlo.multiply %x, %w : tensor<2x3xf32>\n  return %0 : tensor<2x3xf32>\n}\n")
    bc = ctx.path("times_w.mlirbc")
    sl.hlorun(ctx.bin, "convert", mlir, bc)
    with open(bc, "rb") as f:
        module = f.read()
    key = "w/.ATTRIBUTES/VARIABLE_VALUE"
    flat = [float(v) for row in rows for v in row]
    head = json.dumps({key: {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 4 * len(flat)]}}).encode()
    head += b" " * (-len(head) % 8)
    weights = ctx.path("w.safetensors")
    with open(weights, "wb") as f:
        f.write(struct.pack("<Q", len(head)) + head + struct.pack(f"<{len(flat)}f", *flat))
    os.makedirs(os.path.join(version_dir, "variables"), exist_ok=True)
    sl.hlorun(ctx.bin, "weights", weights, "--save", os.path.join(version_dir, "variables", "variables.index"))

    def attr(name, value):
        return _pb(5, _pb(1, name) + _pb(2, value))

    def node(name, op, *inputs, attrs=b""):
        return _pb(1, name) + _pb(2, op) + b"".join(_pb(3, i) for i in inputs) + attrs

    call = node(b"XlaCallModule", b"XlaCallModule", b"serving_default_x", b"read",
                attrs=attr(b"module", _pb(2, module)) + attr(b"version", _pb_int(3, 9))
                + attr(b"Tout", _pb(1, _pb_int(6, 1))) + attr(b"platforms", _pb(1, _pb(2, b"CPU"))))
    graph = b"".join(_pb(1, n) for n in [
        node(b"serving_default_x", b"Placeholder"), node(b"w", b"VarHandleOp"), node(b"read", b"ReadVariableOp", b"w"),
        call, node(b"y", b"Identity", b"XlaCallModule"),
        node(b"restore", b"StatefulPartitionedCall", b"saver_filename", b"w", attrs=attr(b"f", _pb(10, _pb(1, b"restore_fn"))))])
    names = node(b"names", b"Const", attrs=attr(b"value", _pb(8, _pb(8, key.encode()))))
    restore_fn = (_pb(1, _pb(1, b"restore_fn") + _pb(2, _pb(1, b"prefix")) + _pb(2, _pb(1, b"w_arg")))
                  + b"".join(_pb(3, n) for n in [
                      names, node(b"RestoreV2", b"RestoreV2", b"prefix", b"names:output:0", b"slices:output:0"),
                      node(b"id", b"Identity", b"RestoreV2:tensors:0"),
                      node(b"assign", b"AssignVariableOp", b"w_arg", b"id:output:0")]))
    graph += _pb(2, _pb(1, restore_fn))
    shape = _pb(2, _pb_int(1, 2)) + _pb(2, _pb_int(1, 3))
    sig = (_pb(1, _pb(1, b"x") + _pb(2, _pb(1, b"serving_default_x:0") + _pb_int(2, 1) + _pb(3, shape)))
           + _pb(2, _pb(1, b"y") + _pb(2, _pb(1, b"y:0") + _pb_int(2, 1) + _pb(3, shape)))
           + _pb(3, b"tensorflow/serving/predict"))
    meta = (_pb(1, _pb(4, b"serve")) + _pb(2, graph) + _pb(3, _pb(3, b"restore"))
            + _pb(5, _pb(1, b"serving_default") + _pb(2, sig)))
    with open(os.path.join(version_dir, "saved_model.pb"), "wb") as f:
        f.write(_pb_int(1, 1) + _pb(2, meta))


def _mlirbc(ctx, name, text):
    """The bytes of a StableHLO portable artifact for `text`, written by `hlorun convert`."""
    mlir = ctx.path(f"{name}.mlir")
    with open(mlir, "w") as f:
        f.write(text)
    bc = ctx.path(f"{name}.mlirbc")
    sl.hlorun(ctx.bin, "convert", mlir, bc)
    with open(bc, "rb") as f:
        return f.read()


def write_saved_model_signatures(ctx, version_dir, factor, broken=False):
    """A TF2-style jax2tf SavedModel with three signatures, as tf.saved_model.save writes them:
      serving_default  x: float32[?, 3] (serving_default_x:0) -> y = factor * x (StatefulPartitionedCall:0)
      sum_diff         a, b: float32[?, 2], unused: int32[?] (sum_diff_*:0) -> diff = a - b, sum = a + b
                       (StatefulPartitionedCall_1:0 and :1); its XlaCallModule takes (b, a), not in key
                       order, and not `unused` (jax drops unused arguments)
      __saved_model_init_op  no inputs, output NoOp of no type and unknown rank, empty method_name
    `broken`: sum_diff's XlaCallModule holds bytes that are no module, so the version cannot load."""
    adds, last = [], "%x"
    for i in range(factor - 1):
        adds.append(f"  %t{i} = stablehlo.add {last}, %x : tensor<?x3xf32>\n")
        last = f"%t{i}"
    times = _mlirbc(ctx, f"sig_times{factor}", "func.func public @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {\n"
                    + "".join(adds) + f"  return {last} : tensor<?x3xf32>\n}}\n")
    sum_diff = b"not a module" if broken else _mlirbc(
        ctx, "sum_diff", "func.func public @main(%b: tensor<?x2xf32>, %a: tensor<?x2xf32>)"
        " -> (tensor<?x2xf32>, tensor<?x2xf32>) {\n"
        "  %0 = stablehlo.subtract %a, %b : tensor<?x2xf32>\n  %1 = stablehlo.add %a, %b : tensor<?x2xf32>\n"
        "  return %0, %1 : tensor<?x2xf32>, tensor<?x2xf32>\n}\n")

    def attr(key, value):
        return _pb(5, _pb(1, key) + _pb(2, value))

    def node(name, op, *inputs, attrs=b""):
        return _pb(1, name) + _pb(2, op) + b"".join(_pb(3, i) for i in inputs) + attrs

    def xla_call(name, module, n_out, *inputs):
        tout = _pb(1, b"".join(_pb_int(6, 1) for _ in range(n_out)))
        return node(name, b"XlaCallModule", *inputs, attrs=attr(b"module", _pb(2, module)) + attr(b"version", _pb_int(3, 9))
                    + attr(b"Tout", tout) + attr(b"platforms", _pb(1, _pb(2, b"CPU"))))

    def shape(*dims):
        return b"".join(_pb(2, _pb_int(1, d % (1 << 64))) for d in dims)

    def info(key, name, dtype, dims):
        body = _pb(1, name) + (_pb_int(2, dtype) if dtype else b"")
        body += _pb(3, shape(*dims) if dims is not None else _pb_int(3, 1))  # None: unknown_rank
        return _pb(1, key) + _pb(2, body)

    def signature(key, inputs, outputs, method):
        sig = b"".join(_pb(1, info(*i)) for i in inputs) + b"".join(_pb(2, info(*o)) for o in outputs)
        return _pb(5, _pb(1, key) + _pb(2, sig + (_pb(3, method) if method else b"")))

    graph = b"".join(_pb(1, n) for n in [
        node(b"serving_default_x", b"Placeholder"), xla_call(b"XlaCallModule", times, 1, b"serving_default_x"),
        node(b"StatefulPartitionedCall", b"Identity", b"XlaCallModule"),
        node(b"sum_diff_a", b"Placeholder"), node(b"sum_diff_b", b"Placeholder"), node(b"sum_diff_unused", b"Placeholder"),
        xla_call(b"XlaCallModule_1", sum_diff, 2, b"sum_diff_b", b"sum_diff_a"),
        node(b"StatefulPartitionedCall_1", b"IdentityN", b"XlaCallModule_1", b"XlaCallModule_1:1"),
        node(b"NoOp", b"NoOp")])
    predict_method = b"tensorflow/serving/predict"
    sigs = (signature(b"serving_default", [(b"x", b"serving_default_x:0", 1, [-1, 3])],
                      [(b"y", b"StatefulPartitionedCall:0", 1, [-1, 3])], predict_method)
            + signature(b"__saved_model_init_op", [], [(b"__saved_model_init_op", b"NoOp", 0, None)], b"")
            + signature(b"sum_diff", [(b"b", b"sum_diff_b:0", 1, [-1, 2]), (b"a", b"sum_diff_a:0", 1, [-1, 2]),
                                      (b"unused", b"sum_diff_unused:0", 3, [-1])],
                        [(b"sum", b"StatefulPartitionedCall_1:1", 1, [-1, 2]),
                         (b"diff", b"StatefulPartitionedCall_1:0", 1, [-1, 2])], predict_method))
    meta = _pb(1, _pb(4, b"serve")) + _pb(2, graph) + sigs
    os.makedirs(version_dir, exist_ok=True)
    with open(os.path.join(version_dir, "saved_model.pb"), "wb") as f:
        f.write(_pb_int(1, 1) + _pb(2, meta))


def tf_tensor_info(name, dtype, dims):
    """A TensorInfo as TF Serving's metadata prints it; dims None: unknown rank."""
    return {"dtype": dtype, "tensor_shape": {"dim": [{"size": str(d), "name": ""} for d in dims or []],
                                             "unknown_rank": dims is None}, "name": name}


def signatures_metadata(version):
    """The GetModelMetadataResponse TF Serving answers for write_saved_model_signatures' model 'sigs'."""
    f2 = ("DT_FLOAT", [-1, 2])
    return {"model_spec": {"name": "sigs", "signature_name": "", "version": str(version)},
            "metadata": {"signature_def": {"signature_def": {
                "__saved_model_init_op": {
                    "inputs": {}, "method_name": "",
                    "outputs": {"__saved_model_init_op": tf_tensor_info("NoOp", "DT_INVALID", None)}},
                "serving_default": {
                    "inputs": {"x": tf_tensor_info("serving_default_x:0", "DT_FLOAT", [-1, 3])},
                    "outputs": {"y": tf_tensor_info("StatefulPartitionedCall:0", "DT_FLOAT", [-1, 3])},
                    "method_name": "tensorflow/serving/predict"},
                "sum_diff": {
                    "inputs": {"a": tf_tensor_info("sum_diff_a:0", *f2), "b": tf_tensor_info("sum_diff_b:0", *f2),
                               "unused": tf_tensor_info("sum_diff_unused:0", "DT_INT32", [-1])},
                    "outputs": {"diff": tf_tensor_info("StatefulPartitionedCall_1:0", *f2),
                                "sum": tf_tensor_info("StatefulPartitionedCall_1:1", *f2)},
                    "method_name": "tensorflow/serving/predict"}}}}}


def check_signatures_predict(t, srv, factor, what):
    """Predict on each signature of the 'sigs' model (serving_default computing factor * x), row and
    columnar, signature_name before and after the inputs."""
    x = [[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]]
    y = [[factor * v for v in row] for row in x]
    cases = [
        ({"instances": x}, {"predictions": y}, "serving_default by default, row"),
        ({"signature_name": "serving_default", "inputs": {"x": x}}, {"outputs": y}, "serving_default by name, columnar"),
        ({"inputs": x, "signature_name": ""}, {"outputs": y}, "empty signature_name, columnar"),
        ({"signature_name": "sum_diff", "instances": [{"a": [1.0, 2.0], "b": [0.5, 4.0], "unused": 7},
                                                      {"a": [3.0, 3.0], "b": [1.0, 1.0], "unused": 0}]},
         {"predictions": [{"diff": [0.5, -2.0], "sum": [1.5, 6.0]}, {"diff": [2.0, 2.0], "sum": [4.0, 4.0]}]},
         "sum_diff, row"),
        ({"inputs": {"b": [[1.0, 1.0]], "unused": [5], "a": [[2.0, 3.0]]}, "signature_name": "sum_diff"},
         {"outputs": {"diff": [[1.0, 2.0]], "sum": [[3.0, 4.0]]}}, "sum_diff named after its inputs, columnar"),
    ]
    for body, want, case in cases:
        r = predict(srv, "sigs", body)
        t.check(r.status_code == 200 and r.json() == want, f"{what}: {case}", f"{r.status_code} {r.text}")


def savedmodel_signatures(ctx):
    """A SavedModel with several signatures: every one in metadata exactly as TF Serving prints it,
    predict on each by signature_name (row and columnar, also batched), TF Serving's errors for an
    unknown signature, the init op and classify; a new version replaces both signatures, and a
    version whose second signature cannot be built fails naming it while the old one serves."""
    t = ctx.t
    base = ctx.path("sigs")
    write_saved_model_signatures(ctx, os.path.join(base, "1"), 2)
    batching = write_batching(ctx.path("sigs_batching.txt"), 8, 20000, 100, 2)
    srv = ctx.server(["--model_name", "sigs", "--model_base_path", base, "--file_system_poll_wait_seconds", str(POLL_S),
                      "--enable_batching", "--batching_parameters_file", batching])
    try:
        t.check(sl.wait_available(srv, "sigs", 1), "SavedModel with three signatures AVAILABLE", srv.log_tail())
        for route in ("", "/versions/1"):
            r = srv.get(f"/v1/models/sigs{route}/metadata")
            t.check(r.status_code == 200 and r.json() == signatures_metadata(1),
                    f"metadata{route} is TF Serving's, every signature", f"{r.status_code} {short(r.text, 2000)}")
        check_signatures_predict(t, srv, 2, "version 1")
        errors = [
            ({"signature_name": "nope", "instances": [[1.0, 2.0, 3.0]]}, 400,
             'Serving signature name: "nope" not found in signature def', "unknown signature"),
            ({"instances": [[1.0, 2.0, 3.0]], "signature_name": "nope"}, 400,
             'Serving signature name: "nope" not found in signature def', "unknown signature after the inputs"),
            ({"signature_name": "__saved_model_init_op", "instances": [[1.0]]}, 400,
             "Failed to get input map for signature: __saved_model_init_op", "the init op is no predict target"),
            ({"signature_name": "sum_diff", "instances": [{"a": [1.0, 2.0], "b": [0.5, 4.0]}]}, 400,
             "Missing named input: unused", "sum_diff needs every input it declares"),
            ({"signature_name": "sum_diff", "inputs": {"x": [[1.0, 2.0, 3.0]]}}, 400,
             "does not have named input: x", "serving_default's input on sum_diff"),
            ({"signature_name": 3, "instances": [[1.0, 2.0, 3.0]]}, 400,
             "'signature_name' key must be a string value", "signature_name not a string"),
        ]
        for body, code, text, case in errors:
            r = predict(srv, "sigs", body)
            t.check(r.status_code == code and text in r.json().get("error", ""), f"{case}: {code}", r.text)
        r = srv.post("/v1/models/sigs:classify", json={"signature_name": "sum_diff", "examples": [{}]})
        t.check(r.status_code == 400 and r.json().get("error") == "Expected classification signature method_name to be "
                "tensorflow/serving/classify. Was: tensorflow/serving/predict", "classify on a predict signature",
                r.text)
        r = srv.post("/v1/models/sigs:regress", json={"signature_name": "nope", "examples": [{}]})
        t.check(r.status_code == 400 and r.json().get("error") == "No signature was found with the name: nope",
                "regress on an unknown signature", r.text)

        def one(i):
            if i % 2:
                body = {"signature_name": "sum_diff", "instances": [{"a": [float(i), 1.0], "b": [1.0, 1.0], "unused": i}]}
                want = {"predictions": [{"diff": [float(i) - 1.0, 0.0], "sum": [float(i) + 1.0, 2.0]}]}
            else:
                body, want = {"instances": [[float(i), 1.0, 2.0]]}, {"predictions": [[2.0 * i, 2.0, 4.0]]}
            r = predict(srv, "sigs", body)
            return r.status_code == 200 and r.json() == want
        results = concurrent(16, one)
        t.check(all(v is True for v in results), "16 concurrent requests on both signatures, batched, get their rows",
                short(results))
        write_saved_model_signatures(ctx, os.path.join(base, "2"), 3)
        t.check(sl.wait_available(srv, "sigs", 2, timeout=10 * POLL_S + 10), "version 2 is picked up", srv.log_tail())
        ok = sl.wait_for(lambda: predict(srv, "sigs", {"instances": [[1.0, 1.0, 1.0]]}).json() ==
                         {"predictions": [[3.0, 3.0, 3.0]]}, 10)
        t.check(ok, "serving_default answers with version 2")
        r = srv.get("/v1/models/sigs/metadata")
        t.check(r.status_code == 200 and r.json() == signatures_metadata(2), "metadata of version 2", short(r.text))
        check_signatures_predict(t, srv, 3, "version 2")
        write_saved_model_signatures(ctx, os.path.join(base, "3"), 2, broken=True)
        ok = sl.wait_for(lambda: (sl.version_states(srv, "sigs") or {}).get("3") == "END", 10 * POLL_S + 10)
        st = srv.get("/v1/models/sigs/versions/3").json()
        msg = (st.get("model_version_status") or [{}])[0].get("status", {}).get("error_message", "")
        t.check(ok and "signature 'sum_diff'" in msg and "sigs/3" in msg,
                "a version whose sum_diff cannot be built ends, its error naming the signature", short(st))
        check_signatures_predict(t, srv, 3, "version 2 still serves")
    finally:
        code = srv.stop()
        t.check(code == 0, f"signatures server exits 0 on SIGTERM (got {code})", srv.log_tail())


def section_savedmodel(ctx):
    """TF Serving's version directories holding jax2tf SavedModels: served, described in metadata,
    replaced by a new version, a corrupt one rejected while the old one serves."""
    t = ctx.t
    t.begin("savedmodel")
    base = ctx.path("sm")
    write_saved_model(ctx, os.path.join(base, "1"), 2)
    srv = ctx.server(["--model_name", "sm", "--model_base_path", base, "--file_system_poll_wait_seconds", str(POLL_S)])
    rows = {"instances": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]}
    try:
        t.check(sl.wait_available(srv, "sm", 1), "SavedModel version 1 AVAILABLE", srv.log_tail())
        body = expect_ok_json(t, srv.get("/v1/models/sm/metadata"), "SavedModel metadata")
        if body is not None:
            sig = body.get("metadata", {}).get("signature_def", {}).get("signature_def", {}).get("serving_default", {})
            x = sig.get("inputs", {}).get("x", {})
            y = sig.get("outputs", {}).get("y", {})
            t.check(x.get("dtype") == "DT_FLOAT" and y.get("dtype") == "DT_FLOAT",
                    "metadata names the signature's input x and output y, DT_FLOAT", short(sig))
        r = predict(srv, "sm", rows)
        t.check(r.status_code == 200 and r.json() == {"predictions": [[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]},
                "row predict through the SavedModel", r.text)
        r = predict(srv, "sm", {"inputs": {"x": [[1.0, 1.0, 1.0]]}})
        t.check(r.status_code == 200 and r.json() == {"outputs": [[2.0, 2.0, 2.0]]}, "columnar predict", r.text)
        write_saved_model(ctx, os.path.join(base, "2"), 3)
        t.check(sl.wait_available(srv, "sm", 2, timeout=10 * POLL_S + 10), "SavedModel version 2 is picked up",
                srv.log_tail())
        ok = sl.wait_for(lambda: predict(srv, "sm", rows).json() == {"predictions": [[3.0, 6.0, 9.0], [12.0, 15.0, 18.0]]}, 10)
        t.check(ok, "predict answers with version 2")
        bad = os.path.join(base, "3")
        write_saved_model(ctx, bad, 2)
        pb = os.path.join(bad, "saved_model.pb")
        with open(pb, "rb") as f:
            data = f.read()
        with open(pb, "wb") as f:
            f.write(data[: len(data) // 2])  # cut short: a SavedModel still being copied
        deadline = time.monotonic() + 4 * POLL_S + 2
        while time.monotonic() < deadline:
            r = predict(srv, "sm", rows)
            if not t.check(r.status_code == 200 and r.json()["predictions"][0] == [3.0, 6.0, 9.0],
                           "version 2 serves while the cut version 3 is tried", r.text):
                break
            time.sleep(0.1)
        states = sl.version_states(srv, "sm") or {}
        t.check(states.get("2") == "AVAILABLE" and states.get("3") != "AVAILABLE", "status: 2 AVAILABLE, the cut 3 not",
                short(states))
        with open(pb, "wb") as f:
            f.write(data)  # the copy completes
        t.check(sl.wait_available(srv, "sm", 3, timeout=10 * POLL_S + 10), "version 3 loads once its copy completes",
                srv.log_tail())
    finally:
        code = srv.stop()
        t.check(code == 0, f"SavedModel server exits 0 on SIGTERM (got {code})", srv.log_tail())
    # a SavedModel whose variable is restored from variables/ the way TF Serving restores it
    base = ctx.path("smv")
    write_saved_model_with_variable(ctx, os.path.join(base, "1"), [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]])
    srv = ctx.server(["--model_name", "smv", "--model_base_path", base])
    try:
        t.check(sl.wait_available(srv, "smv", 1), "SavedModel with a variable AVAILABLE", srv.log_tail())
        r = predict(srv, "smv", rows)
        t.check(r.status_code == 200 and r.json() == {"predictions": [[1.0, 2.0, 3.0], [8.0, 10.0, 12.0]]},
                "predict multiplies by the restored variable", r.text)
    finally:
        code = srv.stop()
        t.check(code == 0, f"SavedModel-with-variable server exits 0 on SIGTERM (got {code})", srv.log_tail())
    savedmodel_signatures(ctx)


# ---- batching and the queue ----

def write_batching(path, max_batch, timeout_us, max_enqueued, threads, allowed=()):
    with open(path, "w") as f:
        f.write(f"max_batch_size {{ value: {max_batch} }}\n"
                f"batch_timeout_micros {{ value: {timeout_us} }}\n"
                f"max_enqueued_batches {{ value: {max_enqueued} }}\n"
                f"num_batch_threads {{ value: {threads} }}\n")
        for size in allowed:
            f.write(f"allowed_batch_sizes: {size}\n")
    return path


def concurrent(n, fn):
    """Runs fn(i) for i in range(n) on n threads started together; returns the results (or the
    exceptions) in order."""
    results = [None] * n
    barrier = threading.Barrier(n)

    def body(i):
        try:
            barrier.wait(timeout=30)
            results[i] = fn(i)
        except Exception as e:  # noqa: BLE001 - reported as a failed check
            results[i] = e

    threads = [threading.Thread(target=body, args=(i,), daemon=True) for i in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    return results


def batch_size_histograms(srv):
    """Samples of the histogram families whose name mentions batch and size, summed over labels:
    {family: (count, sum, count in bucket le="1")}."""
    samples, types = sl.parse_prometheus(srv.get("/monitoring/prometheus/metrics").text)
    out = {}
    for fam, typ in types.items():
        if typ != "histogram" or "batch" not in fam or "size" not in fam:
            continue
        count = sum(v for (n, _), v in samples.items() if n == fam + "_count")
        total = sum(v for (n, _), v in samples.items() if n == fam + "_sum")
        le1 = sum(v for (n, lab), v in samples.items() if n == fam + "_bucket" and dict(lab).get("le") in ("1", "1.0", "1e+00"))
        out[fam] = (count, total, le1)
    return out


def batch_buckets(srv, model):
    """{le: cumulative count} of the hlorun_batch_size histogram of a model."""
    samples, _ = sl.parse_prometheus(srv.get("/monitoring/prometheus/metrics").text)
    out = {}
    for (n, lab), v in samples.items():
        d = dict(lab)
        if n == "hlorun_batch_size_bucket" and d.get("model") == model:
            out[d.get("le")] = v
    return out


def batching_round(ctx, name, params, allowed):
    """n concurrent requests (1 or 2 rows each, row and columnar) to a batching server: each gets
    its own rows of the outputs, equal to `hlorun run` on all rows at once. Returns True once a
    batch of more than one request was seen (retrying the burst up to 3 times)."""
    t = ctx.t
    base = ctx.model_dir(name, {1: "two_io"})
    srv = ctx.server(["--model_name", name, "--model_base_path", base, "--enable_batching",
                      "--batching_parameters_file", params])
    try:
        if not t.check(sl.wait_available(srv, name, 1), f"{name}: model AVAILABLE", srv.log_tail()):
            return
        n = 12
        # request i carries 1 + i % 2 instances with values unique to it
        xs = [[[i + 0.5 * j, -i - 0.25 * j, 0.125 * i * j] for j in range(1 + i % 2)] for i in range(n)]
        ks = [[[i, j, i * j - 7] for j in range(1 + i % 2)] for i in range(n)]
        flat_x = [r for rows in xs for r in rows]
        flat_k = [r for rows in ks for r in rows]
        want = sl.run_reference(ctx.bin, ctx.artifact("two_io"), {"x": (flat_x, "f32"), "k": (flat_k, "i32")},
                                ctx.work, name)
        offsets = [sum(len(x) for x in xs[:i]) for i in range(n)]

        def one(i):
            if i % 3 == 0:
                body = {"inputs": {"x": xs[i], "k": ks[i]}}
            else:
                body = {"instances": [{"x": x, "k": k} for x, k in zip(xs[i], ks[i])]}
            return srv.post(f"/v1/models/{name}:predict", json=body, timeout=60)

        saw_batch = False
        for attempt in range(3):
            results = concurrent(n, one)
            for i, r in enumerate(results):
                lo, hi = offsets[i], offsets[i] + len(xs[i])
                if not t.check(isinstance(r, requests.Response) and r.status_code == 200,
                               f"{name}: request {i} succeeds", short(r if not isinstance(r, requests.Response) else r.text)):
                    continue
                body = r.json()
                if i % 3 == 0:
                    got_sum, got_count = body["outputs"]["sum"], body["outputs"]["count"]
                else:
                    got_sum = [p["sum"] for p in body["predictions"]]
                    got_count = [p["count"] for p in body["predictions"]]
                t.check(sl.same_values(got_sum, want[0][lo:hi], True) and sl.same_values(got_count, want[1][lo:hi], False),
                        f"{name}: request {i} gets its own results", short(body))
            hists = batch_size_histograms(srv)
            if not t.check(hists, "a batch-size histogram is exported (name with 'batch' and 'size')",
                           short(srv.get("/monitoring/prometheus/metrics").text[:2000])):
                break
            # some batch held more than one request: the size sum exceeds the batch count, or
            # fewer batches than requests fell in the le="1" bucket
            saw_batch = any(c > 0 and (s > c or le1 < c) for c, s, le1 in hists.values())
            if saw_batch:
                break
        t.check(saw_batch, f"{name}: the batch-size metric shows batches larger than 1", short(batch_size_histograms(srv)))
        if allowed:
            # padded to the allowed sizes: every batch is exactly one of them
            b = batch_buckets(srv, name)
            cum = [b.get(str(le), 0) for le in (1, 2, 4, 8, 16)]
            sizes_ok = cum[0] == 0 and cum[1] == 0 and cum[3] == cum[2] and b.get("+Inf", 0) == cum[4]
            t.check(sizes_ok, f"{name}: every batch is padded to an allowed size {list(allowed)}", short(b))
    finally:
        code = srv.stop()
        t.check(code == 0, f"{name}: batching server exits 0 (got {code})", srv.log_tail())


def section_batching(ctx):
    ctx.t.begin("batching")
    batching_round(ctx, "batched", write_batching(ctx.path("batching.config"), 16, 50000, 100, 1), ())
    batching_round(ctx, "padded", write_batching(ctx.path("padded.config"), 16, 50000, 100, 1, (4, 16)), (4, 16))


def section_queue(ctx):
    t = ctx.t
    t.begin("queue")
    base = ctx.model_dir("slowq", {1: "slow"})
    params = write_batching(ctx.path("tiny_queue.config"), 1, 0, 1, 1)
    srv = ctx.server(["--model_name", "slowq", "--model_base_path", base, "--enable_batching",
                      "--batching_parameters_file", params])
    try:
        t.check(sl.wait_available(srv, "slowq", 1), "slow model AVAILABLE", srv.log_tail())
        # a burst of n requests: one runs, one waits in the queue, the others are turned away; on a
        # loaded machine the burst may straggle, so it is tried up to 3 times
        n = 12
        for attempt in range(3):
            results = concurrent(n, lambda i: srv.post("/v1/models/slowq:predict", json={"instances": [[float(i)]]},
                                                       timeout=120))
            codes = [r.status_code if isinstance(r, requests.Response) else repr(r) for r in results]
            if 503 in codes:
                break
        t.check(any(c == 503 for c in codes), "a full queue answers 503", short(codes))
        t.check(any(c == 200 for c in codes), "some requests are served", short(codes))
        t.check(all(c in (200, 503) for c in codes), "every answer is 200 or 503", short(codes))
        for i, r in enumerate(results):
            if isinstance(r, requests.Response) and r.status_code == 503:
                check_error_body(t, r, f"503 body of request {i}")
            elif isinstance(r, requests.Response) and r.status_code == 200:
                t.check(r.json() == {"predictions": [[i + 1.0]]}, f"request {i} result", r.text)
        r = srv.post("/v1/models/slowq:predict", json={"instances": [[5.0]]}, timeout=60)
        t.check(r.status_code == 200 and r.json() == {"predictions": [[6.0]]}, "served again once the queue drains", r.text)
    finally:
        srv.stop()


# ---- metrics ----

def section_metrics(ctx, srv):
    t = ctx.t
    t.begin("metrics")
    for _ in range(3):
        srv.post("/v1/models/plus:predict", json={"instances": [[1.0, 2.0]]})
    srv.post("/v1/models/plus:predict", data=b"{")
    r = srv.get("/monitoring/prometheus/metrics")
    t.check(r.status_code == 200, "GET /monitoring/prometheus/metrics is 200", r.status_code)
    t.check(r.headers.get("Content-Type", "").startswith("text/plain"), "metrics Content-Type text/plain",
            r.headers.get("Content-Type"))
    text = r.text
    path = ctx.path("metrics.txt")
    with open(path, "w") as f:
        f.write(text)
    promtool = shutil.which("promtool")
    if promtool:
        with open(path) as f:
            done = subprocess.run([promtool, "check", "metrics"], stdin=f, capture_output=True, text=True, timeout=60)
        # TF Serving's own names (":tensorflow:serving:...") break promtool's naming lint, as TF
        # Serving's page does; every other finding fails
        findings = [line for line in (done.stdout + done.stderr).splitlines()
                    if line.strip() and not line.startswith(":tensorflow:")]
        t.check(not findings, "promtool check metrics passes (but for TF Serving's names)", "\n".join(findings)[:3000])
    else:
        print("note: promtool not found, metrics format not checked")
    samples, types = sl.parse_prometheus(text)
    t.check(types.get("hlorun_http_requests_total") == "counter", "hlorun_http_requests_total is a counter", short(types))

    def requests_total(code):
        return sum(v for (n, lab), v in samples.items() if n == "hlorun_http_requests_total"
                   and dict(lab).get("model") == "plus" and dict(lab).get("endpoint") == "predict"
                   and dict(lab).get("code") == code)

    t.check(requests_total("200") >= 3, "hlorun_http_requests_total counts the predictions on plus", requests_total("200"))
    t.check(requests_total("400") >= 1, "hlorun_http_requests_total counts the malformed one as 400", requests_total("400"))
    t.check(types.get("hlorun_http_request_duration_seconds") == "histogram", "request duration histogram", short(types))
    tf_ok = sum(v for (n, lab), v in samples.items() if n == ":tensorflow:serving:request_count"
                and dict(lab) == {"model_name": "plus", "status": "OK"})
    t.check(tf_ok >= 3, "TF Serving's :tensorflow:serving:request_count counts the predictions on plus", tf_ok)


# ---- SIGTERM ----

def sigterm_round(ctx, base, n, round_no):
    """One SIGTERM round: n keep-alive connections, each already accepted by the server (a status
    request answered on it), one slow prediction sent on each, SIGTERM while they run. Every one
    of them must be answered, and the server must exit 0."""
    t = ctx.t
    srv = ctx.server(["--model_name", "slowterm", "--model_base_path", base])
    try:
        if not t.check(sl.wait_available(srv, "slowterm", 1), "slow model AVAILABLE", srv.log_tail()):
            return
        sessions = [requests.Session() for _ in range(n)]
        for i, sess in enumerate(sessions):
            r = sess.get(srv.url + "/v1/models/slowterm", timeout=30)
            t.check(r.status_code == 200, f"round {round_no}: connection {i} established", r.text)
        results = [None] * n
        t0 = time.monotonic()

        def one(i):
            try:
                r = sessions[i].post(srv.url + "/v1/models/slowterm:predict", json={"instances": [[10.0 * i]]}, timeout=120)
                results[i] = (r, time.monotonic() - t0)
            except requests.RequestException as e:
                results[i] = (e, time.monotonic() - t0)

        threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(n)]
        for th in threads:
            th.start()
        time.sleep(0.2)  # every request is on the wire; the slow model keeps them in flight
        srv.proc.send_signal(signal.SIGTERM)
        for th in threads:
            th.join(timeout=120)
        for i, (r, at) in enumerate(results):
            ok = isinstance(r, requests.Response) and r.status_code == 200 and r.json() == {"predictions": [[10.0 * i + 1.0]]}
            t.check(ok, f"round {round_no}: request {i} (sent before SIGTERM on an accepted connection) is answered",
                    f"after {at:.2f} s: {short(r.text if isinstance(r, requests.Response) else r)}")
        try:
            code = srv.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            code = None
        t.check(code == 0, f"round {round_no}: exit code 0 after SIGTERM (got {code}, {time.monotonic() - t0:.1f} s)",
                srv.log_tail())
        for sess in sessions:
            sess.close()
    finally:
        srv.stop()


def section_sigterm(ctx):
    ctx.t.begin("sigterm")
    base = ctx.model_dir("slowterm", {1: "slow"})
    for round_no in (1, 2):
        sigterm_round(ctx, base, 8, round_no)


def section_blocking(ctx):
    """A slow prediction must not hold up other connections: /healthz probes on other keep-alive
    connections are answered while it runs (3 rounds of 15 probes)."""
    t = ctx.t
    t.begin("blocking")
    base = ctx.model_dir("slowblock", {1: "slow"})
    srv = ctx.server(["--model_name", "slowblock", "--model_base_path", base])
    try:
        if not t.check(sl.wait_available(srv, "slowblock", 1), "slow model AVAILABLE", srv.log_tail()):
            return
        for round_no in (1, 2, 3):
            sessions = [requests.Session() for _ in range(16)]
            for sess in sessions:
                sess.get(srv.url + "/healthz", timeout=30)
            slow_ms = []

            def slow():
                t0 = time.monotonic()
                sessions[0].post(srv.url + "/v1/models/slowblock:predict", json={"instances": [[1.0]]}, timeout=120)
                slow_ms.append((time.monotonic() - t0) * 1000)

            th = threading.Thread(target=slow, daemon=True)
            th.start()
            time.sleep(0.03)
            probes = []
            for sess in sessions[1:]:
                t0 = time.monotonic()
                r = sess.get(srv.url + "/healthz", timeout=30)
                probes.append(round((time.monotonic() - t0) * 1000, 1))
                t.check(r.status_code == 200, f"round {round_no}: probe answered", r.text)
            th.join(timeout=120)
            t.check(max(probes) < 200, f"round {round_no}: /healthz on other connections answers in < 200 ms while a "
                    f"{slow_ms[0] if slow_ms else 0:.0f} ms prediction runs", f"probe ms: {probes}")
            for sess in sessions:
                sess.close()
    finally:
        srv.stop()


def serve_fails(ctx, args, want_rc, want_text, what):
    """`hlorun serve ARGS` must exit with want_rc (within 30 s) and say want_text on stderr."""
    try:
        done = subprocess.run([ctx.bin, "serve", *args], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        ctx.t.check(False, f"{what}: exits", "still running after 30 s")
        return
    ctx.t.check(done.returncode == want_rc and want_text in done.stderr,
                f"{what}: exit {want_rc}, stderr names '{want_text}'", f"exit {done.returncode}: {done.stderr.strip()[:500]}")


def section_cli(ctx):
    t = ctx.t
    t.begin("cli")
    base = ctx.model_dir("clim", {1: "plus1"})
    serve_fails(ctx, [], 2, "--model_base_path", "no model")
    serve_fails(ctx, ["--model_base_path", base, "--no_such_flag", "1"], 2, "no_such_flag", "unknown flag")
    serve_fails(ctx, ["--model_base_path", base, "--rest_api_port", "70000"], 2, "70000", "port out of range")
    bad = ctx.path("bad.config")
    with open(bad, "w") as f:
        f.write("model_config_list {\n  config {\n    nme: 'x'\n    base_path: '/tmp'\n  }\n}\n")
    serve_fails(ctx, ["--port", "0", "--model_config_file", bad], 1, "bad.config:3:5", "unknown config field")
    badb = ctx.path("bad_batching.config")
    with open(badb, "w") as f:
        f.write("max_batch_size { value: 8 }\npad_variable_length_inputs: true\n")
    serve_fails(ctx, ["--port", "0", "--model_base_path", base, "--enable_batching", "--batching_parameters_file", badb],
                1, "bad_batching.config", "unsupported batching field")
    srv = ctx.server(["--model_name", "clim", "--model_base_path", base])
    try:
        r = srv.get("/v1/models/clim")
        t.check("Access-Control-Allow-Origin" not in r.headers, "no CORS headers without --rest_api_enable_cors_support",
                str(dict(r.headers)))
        serve_fails(ctx, ["--port", "-1", "--rest_api_port", str(srv.port), "--model_name", "clim", "--model_base_path", base],
                    1, str(srv.port), "port in use")
    finally:
        srv.stop()
    srv = ctx.server(["--model_name", "clim", "--model_base_path", base, "--rest_api_enable_cors_support"])
    try:
        want = {"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "POST, GET",
                "Access-Control-Allow-Headers": "Content-Type"}
        preflight = requests.options(srv.url + "/v1/models/clim:predict", headers={"Origin": "http://x.test"}, timeout=30)
        for what, r in (("a preflight", preflight), ("a status request", srv.get("/v1/models/clim"))):
            got = {k: r.headers.get(k) for k in want}
            t.check(r.status_code == 200 and got == want, f"--rest_api_enable_cors_support: {what} carries TF Serving's CORS headers",
                    f"{r.status_code} {got}")
    finally:
        srv.stop()


SECTIONS = ["shapes", "predict", "errors", "curl", "metrics", "cli", "ready", "polling", "savedmodel", "batching",
            "queue", "blocking", "sigterm"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--pidfile", required=True)
    ap.add_argument("--only", default=",".join(SECTIONS))
    args = ap.parse_args()
    only = [s for s in args.only.split(",") if s]
    unknown = [s for s in only if s not in SECTIONS]
    if unknown:
        ap.error(f"unknown sections {unknown}")
    ctx = Ctx(args)
    shared = {"shapes", "predict", "errors", "curl", "metrics"}
    srv = None
    try:
        if shared & set(only):
            ctx.t.begin("config server")
            srv = config_server(ctx)
        for name in SECTIONS:
            if name not in only:
                continue
            fn = globals()[f"section_{name}"]
            try:
                fn(ctx, srv) if name in shared else fn(ctx)
            except Exception as e:  # noqa: BLE001 - one section's crash is one failure
                ctx.t.check(False, f"section {name} raised", f"{type(e).__name__}: {e}")
    finally:
        if srv is not None:
            code = srv.stop()
            ctx.t.begin("config server shutdown")
            ctx.t.check(code == 0, f"config server exits 0 on SIGTERM (got {code})", srv.log_tail())
    return ctx.t.summary()


if __name__ == "__main__":
    sys.exit(main())
