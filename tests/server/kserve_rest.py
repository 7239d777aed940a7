#!/usr/bin/python3
"""End-to-end tests of `hlorun serve`'s KServe v2 REST API and of its fidelity to TensorFlow
Serving's REST answers (run by test_kserve_rest.sh, which kills every server listed in --pidfile
when it exits).

  kserve_rest.py --bin HLORUN --work DIR --pidfile FILE [--only SECTION[,SECTION...]]

Sections (one shared server: two_io versions 1 and 2, plus version 1):
  kserve     /v2 server metadata, health, model metadata and readiness; infer with JSON tensors
             (flat and nested), output selection, id, binary tensor data in and out (requests
             and curl); errors
  fidelity   TF Serving's float text, its lenient JSON (Inf, -NaN, trailing text, floats beyond
             float32), CORS preflight (OPTIONS), "Malformed request" for wrong methods and paths,
             classify/regress document checks, and its Prometheus metric names counting requests
"""
import argparse
import json
import struct
import subprocess
import sys

import requests

import rest_api as ra
import serverlib as sl
from serverlib import short

X = [[0.05, 0.16666667, 500000.0], [1.5, -2.0, 0.1]]
K = [[0, 0, 0], [1, 2, 3]]


def shared_server(ctx):
    """two_io (versions 1 and 2, policy all) and plus (version 1: y = x + 1)."""
    two = ctx.model_dir("two_io", {1: "two_io", 2: "two_io_v2"})
    plus = ctx.model_dir("plus", {1: "plus1"})
    cfg = ra.write_config(ctx.path("models.config"), [
        {"name": "two_io", "base_path": two, "policy": "all {}"},
        {"name": "plus", "base_path": plus},
    ])
    srv = ctx.server(["--model_config_file", cfg, "--max_tensor_elements", "1000"])
    for name, v in (("two_io", 1), ("two_io", 2), ("plus", 1)):
        ctx.t.check(sl.wait_available(srv, name, v), f"{name} version {v} becomes AVAILABLE", srv.log_tail())
    return srv


def flat(nested):
    out = []
    for item in nested:
        out.extend(flat(item) if isinstance(item, list) else [item])
    return out


def two_io_want(version):
    """sum = factor * x + k (factor 2 in version 1, 3 in version 2), count = row sums of k."""
    factor = 2.0 if version == 1 else 3.0
    total = [[sl.f32(factor * sl.f32(x) + k) for x, k in zip(xr, kr)] for xr, kr in zip(X, K)]
    return flat(total), [sum(kr) for kr in K]


def infer_body(x=None, k=None, **extra):
    body = {"inputs": [
        {"name": "x", "datatype": "FP32", "shape": [2, 3], "data": X if x is None else x},
        {"name": "k", "datatype": "INT32", "shape": [2, 3], "data": flat(K) if k is None else k},
    ]}
    body.update(extra)
    return body


def expect_empty(t, r, code, what):
    t.check(r.status_code == code, f"{what}: HTTP {r.status_code}, want {code}", short(r.text))
    t.check(r.content == b"", f"{what}: empty body", short(r.text))


def split_binary(r):
    """(JSON object, binary bytes) of an answer with binary tensor data."""
    n = int(r.headers.get("Inference-Header-Content-Length", "-1"))
    return json.loads(r.content[:n]), r.content[n:]


# ---- kserve ----

def section_kserve(ctx, srv):
    t = ctx.t
    t.begin("kserve")
    body = ra.expect_ok_json(t, srv.get("/v2"), "GET /v2")
    if body is not None:
        t.check(body.get("name") == "hlorun" and isinstance(body.get("version"), str), "server name and version",
                short(body))
        t.check("binary_tensor_data" in body.get("extensions", []), "extensions name binary_tensor_data", short(body))
    expect_empty(t, srv.get("/v2/health/live"), 200, "live")
    expect_empty(t, srv.get("/v2/health/ready"), 200, "ready")
    expect_empty(t, srv.get("/v2/models/two_io/ready"), 200, "two_io ready")
    expect_empty(t, srv.get("/v2/models/two_io/versions/1/ready"), 200, "two_io version 1 ready")
    expect_empty(t, srv.get("/v2/models/two_io/versions/9/ready"), 400, "two_io version 9 not ready")
    ra.expect_error(t, srv.get("/v2/models/nope/ready"), 404, "unknown model not ready")

    body = ra.expect_ok_json(t, srv.get("/v2/models/two_io"), "model metadata")
    want_meta = {"name": "two_io", "versions": ["2", "1"], "platform": "hlorun",
                 "inputs": [{"name": "x", "datatype": "FP32", "shape": [-1, 3]},
                            {"name": "k", "datatype": "INT32", "shape": [-1, 3]}],
                 "outputs": [{"name": "sum", "datatype": "FP32", "shape": [-1, 3]},
                             {"name": "count", "datatype": "INT32", "shape": [-1]}]}
    t.check(body == want_meta, "model metadata as KServe lays it out", short(body))
    body = ra.expect_ok_json(t, srv.get("/v2/models/two_io/versions/1"), "model metadata of version 1")
    t.check(body is not None and body.get("name") == "two_io", "version 1 metadata", short(body))
    ra.expect_error(t, srv.get("/v2/models/nope"), 404, "metadata of an unknown model")
    ra.expect_error(t, srv.get("/v2/models/two_io/versions/9"), 404, "metadata of an unknown version")
    ra.expect_error(t, srv.get("/v2/models/two_io/versions/x"), 400, "a version that is no number")

    # JSON inference: nested x, flat k, id echoed, both outputs in signature order
    for route, version in (("", 2), ("/versions/1", 1)):
        r = srv.post(f"/v2/models/two_io{route}/infer", json=infer_body(id="req-1"))
        body = ra.expect_ok_json(t, r, f"infer{route}")
        if body is None:
            continue
        want_sum, want_count = two_io_want(version)
        t.check(body.get("model_name") == "two_io" and body.get("model_version") == str(version) and
                body.get("id") == "req-1", f"infer{route}: model, version, id", short(body))
        outs = body.get("outputs", [])
        ok = t.check([o.get("name") for o in outs] == ["sum", "count"], f"infer{route}: outputs", short(body))
        if ok:
            t.check(outs[0]["datatype"] == "FP32" and outs[0]["shape"] == [2, 3], "sum's datatype and shape",
                    short(outs[0]))
            t.check([sl.f32(v) for v in outs[0]["data"]] == want_sum, f"infer{route}: sum's values", short(outs[0]))
            t.check(outs[1] == {"name": "count", "datatype": "INT32", "shape": [2], "data": want_count},
                    f"infer{route}: count", short(outs[1]))
    # output selection, no id
    body = ra.expect_ok_json(t, srv.post("/v2/models/two_io/infer", json=infer_body(outputs=[{"name": "count"}])),
                             "infer with one output asked for")
    if body is not None:
        t.check("id" not in body and [o["name"] for o in body["outputs"]] == ["count"], "only count, no id",
                short(body))

    # binary tensor data: x in binary, k in JSON, sum in binary, count in JSON
    xs = struct.pack("<6f", *flat(X))
    header = infer_body(outputs=[{"name": "sum", "parameters": {"binary_data": True}}, {"name": "count"}])
    header["inputs"][0] = {"name": "x", "datatype": "FP32", "shape": [2, 3], "parameters": {"binary_data_size": 24}}
    js = json.dumps(header).encode()
    r = srv.post("/v2/models/two_io/versions/1/infer", data=js + xs,
                 headers={"Inference-Header-Content-Length": str(len(js)), "Content-Type": "application/octet-stream"})
    if t.check(r.status_code == 200, f"binary infer: HTTP {r.status_code}", short(r.text)):
        t.check(r.headers.get("Content-Type") == "application/octet-stream", "binary answer's Content-Type",
                r.headers.get("Content-Type"))
        meta, raw = split_binary(r)
        want_sum, want_count = two_io_want(1)
        outs = meta.get("outputs", [])
        t.check(len(outs) == 2 and outs[0].get("parameters") == {"binary_data_size": 24} and "data" not in outs[0],
                "sum answered as 24 bytes of binary data", short(meta))
        t.check(list(struct.unpack("<6f", raw)) == want_sum if len(raw) == 24 else False, "sum's binary values",
                short(raw))
        t.check(len(outs) == 2 and outs[1].get("data") == want_count, "count answered in JSON", short(meta))
    # binary_data_output: every output binary; BOOL and INT32 raw
    ks = struct.pack("<6i", *flat(K))
    header = {"inputs": [{"name": "x", "datatype": "FP32", "shape": [2, 3], "parameters": {"binary_data_size": 24}},
                         {"name": "k", "datatype": "INT32", "shape": [2, 3], "parameters": {"binary_data_size": 24}}],
              "parameters": {"binary_data_output": True}}
    js = json.dumps(header).encode()
    r = srv.post("/v2/models/two_io/versions/1/infer", data=js + xs + ks,
                 headers={"Inference-Header-Content-Length": str(len(js))})
    if t.check(r.status_code == 200, f"all-binary infer: HTTP {r.status_code}", short(r.text)):
        meta, raw = split_binary(r)
        want_sum, want_count = two_io_want(1)
        t.check(len(raw) == 32 and list(struct.unpack("<6f2i", raw)) == want_sum + want_count,
                "binary_data_output: both outputs in binary, in order", short(meta))
    # curl: the same binary request from a file
    req_path = ctx.path("binary-request")
    with open(req_path, "wb") as f:
        f.write(js + xs + ks)
    rc, out, err = ra.curl(["-o", ctx.path("binary-answer"), "-w", "%{http_code}", "-H",
                            f"Inference-Header-Content-Length: {len(js)}", "--data-binary", f"@{req_path}",
                            srv.url + "/v2/models/two_io/versions/1/infer"])
    t.check(rc == 0 and out == "200", "curl binary infer: 200", (rc, out, err))
    rc, out, err = ra.curl(["-H", "Content-Type: application/json", "-d",
                            json.dumps(infer_body(outputs=[{"name": "count"}])), srv.url + "/v2/models/two_io/infer"])
    t.check(rc == 0 and '"data":[0,6]' in out, "curl JSON infer answers count", (rc, out, err))

    # errors
    bad = (
        ({"inputs": [{"name": "x", "datatype": "FP64", "shape": [2, 3], "data": X}]}, "datatype FP64"),
        ({"inputs": [{"name": "x", "datatype": "BYTES", "shape": [2, 3], "data": X}]}, "BYTES"),
        (infer_body(k=flat(K)[:5]), "5 elements for a shape of 6"),
        (infer_body(x=[[1, 2, 3]]), "3 elements for a shape of 6"),
        ({"inputs": [{"name": "x", "datatype": "FP32", "shape": [2, 3], "data": X}]}, "input k missing"),
        (infer_body(outputs=[{"name": "nope"}]), "unknown output"),
        ({"inputs": [{"name": "x", "datatype": "FP32", "shape": [2, 4], "data": [0] * 8}]}, "shape [2, 4]"),
        ({"inputs": [{"name": "x", "datatype": "FP32", "shape": [500, 3], "data": []}]}, "over --max_tensor_elements"),
        ({"inputs": [{"name": "x", "datatype": "FP32", "shape": [2, 3], "data": X, "parameters": {
            "binary_data_size": 24}}]}, "data and binary_data_size"),
    )
    for body, what in bad:
        ra.expect_error(t, srv.post("/v2/models/two_io/infer", json=body), 501 if what == "BYTES" else 400,
                        f"infer error: {what}")
    r = srv.post("/v2/models/two_io/infer", data=js + xs, headers={"Inference-Header-Content-Length": str(len(js))})
    ra.expect_error(t, r, 400, "binary data shorter than binary_data_size")
    r = srv.post("/v2/models/two_io/infer", data=js + xs + ks + b"x",
                 headers={"Inference-Header-Content-Length": str(len(js))})
    ra.expect_error(t, r, 400, "binary data longer than the inputs take")
    r = srv.post("/v2/models/two_io/infer", data=js, headers={"Inference-Header-Content-Length": str(len(js) + 1)})
    ra.expect_error(t, r, 400, "Inference-Header-Content-Length beyond the body")
    ra.expect_error(t, srv.post("/v2/models/two_io/infer", data=b"{"), 400, "malformed JSON")
    ra.expect_error(t, srv.post("/v2/models/nope/infer", json=infer_body()), 404, "infer on an unknown model")
    r = srv.get("/v2/models/two_io/infer")
    ra.expect_error(t, r, 405, "GET on infer")
    t.check(r.headers.get("Allow") == "POST", "GET on infer: Allow: POST", r.headers.get("Allow"))
    ra.expect_error(t, srv.post("/v2/health/live"), 405, "POST on live")
    ra.expect_error(t, srv.get("/v2/models/two_io/bogus"), 404, "unknown KServe route")
    body = ra.expect_ok_json(t, srv.post("/v2/models/two_io/infer", json=infer_body()), "infer after the errors")


# ---- fidelity ----

def section_fidelity(ctx, srv):
    t = ctx.t
    t.begin("fidelity")
    # float text: TF Serving's "%.6g", else "%.9g" (float32), ".0" after whole numbers
    r = srv.post("/v1/models/two_io/versions/1:predict", json={"inputs": {"x": X, "k": K}})
    want = '"sum": [[0.1,0.333333343,1e+06],[4.0,-2.0,3.2]]'
    t.check(r.status_code == 200 and want in r.text, "TF Serving's float text (0.1, 0.333333343, 1e+06, 4.0, -2.0, 3.2)",
            short(r.text))
    r = srv.post("/v2/models/two_io/versions/1/infer", json=infer_body(outputs=[{"name": "sum"}]))
    t.check(r.status_code == 200 and '"data":[0.1,0.333333343,1e+06,4.0,-2.0,3.2]' in r.text,
            "KServe answers write floats the same way", short(r.text))

    # lenient JSON: Inf, -Inf, NaN, -NaN, Infinity; values beyond float32 become infinities;
    # text after the document is not read
    body = b'{"instances": [[Inf, -NaN], [1e39, -Infinity]]} trailing text'
    r = srv.post("/v1/models/plus:predict", data=body)
    t.check(r.status_code == 200 and r.text.replace(" ", "").replace("\n", "") ==
            '{"predictions":[[Infinity,NaN],[Infinity,-Infinity]]}', "lenient tokens, values and trailing text",
            short(r.text))
    r = srv.post("/v1/models/plus:predict", data=b'{"instances": [[1e999, 1]]}')
    if ra.expect_error(t, r, 400, "a number too big for a double"):
        t.check("Number too big to be stored in double." in r.json()["error"], "RapidJSON's message", short(r.text))

    # CORS preflight as TF Serving answers it: 200 with an http(s) Origin, else 400; empty bodies
    r = requests.options(srv.url + "/v1/models/two_io:predict", headers={"Origin": "https://example.com"}, timeout=30)
    expect_empty(t, r, 200, "OPTIONS with an https Origin")
    r = requests.options(srv.url + "/v1/models/two_io", timeout=30)
    expect_empty(t, r, 400, "OPTIONS without Origin")
    r = requests.options(srv.url + "/v2/models/two_io/infer", headers={"Origin": "http://localhost:3000"}, timeout=30)
    expect_empty(t, r, 200, "OPTIONS on a KServe path")

    # wrong methods and paths under /v1: 400 "Malformed request: METHOD PATH"
    for method, path in (("GET", "/v1/models/two_io:predict"), ("POST", "/v1/models/two_io/metadata"),
                         ("PUT", "/v1/models/two_io"), ("GET", "/v1/nothing")):
        r = requests.request(method, srv.url + path, timeout=30)
        if ra.expect_error(t, r, 400, f"{method} {path}"):
            t.check(r.json()["error"] == f"Malformed request: {method} {path}", f"{method} {path}: message",
                    short(r.text))

    # classify/regress: the document is checked first, then the signature
    for body, needle in (({}, "When method is classify, key 'examples' is expected and was not found"),
                         ({"examples": {}}, "Expecting 'examples' value to be an list/array"),
                         ({"examples": []}, "'examples' value is an empty array"),
                         ({"examples": [1]}, "Example must be JSON object but got JSON Number"),
                         ({"examples": [{}]}, "Expected classification signature method_name to be "
                                              "tensorflow/serving/classify. Was: tensorflow/serving/predict")):
        r = srv.post("/v1/models/two_io:classify", json=body)
        if ra.expect_error(t, r, 400, f"classify {short(body)}"):
            t.check(needle in r.json()["error"], f"classify {short(body)}: TF Serving's message", short(r.text))
    r = srv.post("/v1/models/two_io:regress", json={"examples": [{}], "signature_name": "nope"})
    if ra.expect_error(t, r, 400, "regress on an unknown signature"):
        t.check("No signature was found with the name: nope" in r.json()["error"], "regress: TF's message", short(r.text))

    # TF Serving's metric names beside ours, counting these requests
    before = metric_samples(srv)
    for _ in range(3):
        srv.post("/v1/models/plus:predict", json={"instances": [[1.0, 2.0]]})
    srv.post("/v1/models/plus:predict", data=b"{")
    srv.get("/v1/models/plus")
    srv.post("/v2/models/plus/infer", json={"inputs": [{"name": "x", "datatype": "FP32", "shape": [1, 2],
                                                         "data": [1, 2]}]})
    samples, types = metric_samples(srv, with_types=True)
    for name, kind in ((":tensorflow:serving:request_count", "counter"),
                       (":tensorflow:serving:request_latency", "histogram"),
                       (":tensorflow:serving:runtime_latency", "histogram")):
        t.check(types.get(name) == kind, f"{name} is a {kind}", short(types))

    def delta(name, **labels):
        def total(s):
            return sum(v for (n, lab), v in s.items() if n == name and all(dict(lab).get(k) == w
                                                                             for k, w in labels.items()))
        return total(samples) - total(before)

    t.check(delta(":tensorflow:serving:request_count", model_name="plus", status="OK") == 5,
            "request_count: 3 predicts, a status and an infer, OK", delta(":tensorflow:serving:request_count",
                                                                          model_name="plus", status="OK"))
    t.check(delta(":tensorflow:serving:request_count", model_name="plus", status="INVALID_ARGUMENT") == 1,
            "request_count: the malformed predict as INVALID_ARGUMENT")
    t.check(delta(":tensorflow:serving:request_latency_count", model_name="plus", API="predict",
                  entrypoint="REST") == 3, "request_latency counts the 3 good predicts under API predict")
    t.check(delta(":tensorflow:serving:request_latency_count", model_name="plus", API="infer",
                  entrypoint="REST") == 1, "request_latency counts the infer under API infer")
    t.check(delta(":tensorflow:serving:runtime_latency_count", model_name="plus", API="Predict",
                  runtime="hlorun") == 4, "runtime_latency counts the 4 program runs")
    bounds = sorted({dict(lab)["le"] for (n, lab) in samples if n == ":tensorflow:serving:request_latency_bucket"},
                    key=lambda b: float(b))
    t.check(bounds[:4] == ["10", "18", "32.4", "58.32"] and bounds[-1] == "+Inf" and len(bounds) == 34,
            "TF Serving's buckets: 10 * 1.8^i us, 33 of them, then +Inf", short(bounds))


def metric_samples(srv, with_types=False):
    samples, types = sl.parse_prometheus(srv.get("/monitoring/prometheus/metrics").text)
    return (samples, types) if with_types else samples


SECTIONS = ["kserve", "fidelity"]


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
    ctx = ra.Ctx(args)
    ctx.t.begin("server")
    srv = shared_server(ctx)
    try:
        for name in SECTIONS:
            if name not in only:
                continue
            try:
                globals()[f"section_{name}"](ctx, srv)
            except Exception as e:  # noqa: BLE001 - one section's crash is one failure
                ctx.t.check(False, f"section {name} raised", f"{type(e).__name__}: {e}")
    finally:
        code = srv.stop()
        ctx.t.begin("server shutdown")
        ctx.t.check(code == 0, f"server exits 0 on SIGTERM (got {code})", srv.log_tail())
    return ctx.t.summary()


if __name__ == "__main__":
    sys.exit(main())
