#!/usr/bin/python3
"""End-to-end tests of `hlorun serve`'s gRPC port, driven as TensorFlow Serving and KServe/Triton
clients drive it: stubs generated from proto/ (grpc_tools.protoc, into the work directory) over
grpcio (run by test_grpc.sh through run_python.sh, which kills every server it started).

  grpc_client.py --bin HLORUN --work DIR --pidfile FILE [--only SECTION[,SECTION...]]

Sections (each starts its own servers on 127.0.0.1, ports chosen by the server):
  predict    PredictRequest with tensor_content and with typed values (float_val, int_val, a
             single value repeated), 2 inputs/outputs, output_filter, version and label specs;
             answers equal the REST API's
  metadata   GetModelMetadata's SignatureDefMap, GetModelStatus, health Check, beside REST's
  kserve     GRPCInferenceService: live, ready, model ready, metadata, ModelInfer with
             raw_input_contents and with typed contents
  errors     unknown model/version/label/signature/input, wrong dtype/shape, malformed protobuf,
             oversize and compressed messages, unknown method, deadlines, classify/regress/
             multi-inference, reload config tokens, a client that hangs up; request metrics
  config     HandleReloadConfigRequest: models added, removed, taken up again, labels changed;
             refused changes leave the configuration as it was
  cli        --port/--rest_api_port, --port -1
  reload     20 version swaps under gRPC load: no failed call
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import threading
import time

import grpc
from grpc_tools import protoc

import serverlib as sl

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.join(os.path.dirname(os.path.dirname(HERE)), "proto")
SECTIONS = ["predict", "metadata", "kserve", "errors", "config", "cli", "reload"]
TIMEOUT = 30  # seconds for one call


def generate_stubs(out):
    """Compiles every proto/ file into Python modules under `out` and makes them importable."""
    files = []
    for root, _, names in os.walk(PROTO):
        files += [os.path.relpath(os.path.join(root, n), PROTO) for n in names if n.endswith(".proto")]
    os.makedirs(out, exist_ok=True)
    well_known = os.path.join(os.path.dirname(protoc.__file__), "_proto")  # google/protobuf/*.proto
    rc = protoc.main(["protoc", f"-I{PROTO}", f"-I{well_known}", f"--python_out={out}", f"--grpc_python_out={out}",
                      *sorted(files)])
    if rc != 0:
        raise RuntimeError(f"grpc_tools.protoc failed ({rc}) on {files}")
    sys.path.insert(0, out)


class Ctx:
    """The binary, the work directory, the pid file, the tally and the generated modules."""

    def __init__(self, args):
        self.bin = args.bin
        self.work = args.work
        self.pidfile = args.pidfile
        self.t = sl.Tally()
        self.n = 0
        generate_stubs(os.path.join(self.work, "stubs"))
        from tensorflow.core.framework import types_pb2
        from tensorflow_serving.apis import (classification_pb2, get_model_metadata_pb2, get_model_status_pb2,
                                             inference_pb2, model_management_pb2, model_service_pb2_grpc,
                                             predict_pb2, prediction_service_pb2_grpc, regression_pb2)
        from grpc_health.v1 import health_pb2, health_pb2_grpc
        from kserve import grpc_predict_v2_pb2, grpc_predict_v2_pb2_grpc
        self.types = types_pb2
        self.predict = predict_pb2
        self.meta = get_model_metadata_pb2
        self.status = get_model_status_pb2
        self.classify = classification_pb2
        self.regress = regression_pb2
        self.inference = inference_pb2
        self.mgmt = model_management_pb2
        self.health = health_pb2
        self.kp = grpc_predict_v2_pb2
        self.grpc_mods = (prediction_service_pb2_grpc, model_service_pb2_grpc, health_pb2_grpc,
                          grpc_predict_v2_pb2_grpc)

    def model_dir(self, name, versions):
        """A base path with versions {n: mlir file name under data/ or ('plus', value)}."""
        base = os.path.join(self.work, name)
        for v, what in versions.items():
            self.n += 1
            if isinstance(what, tuple):
                mlir = sl.versioned_mlir(self.work, what[1])
            else:
                mlir = os.path.join(sl.DATA, what)
            art = sl.export(self.bin, mlir, os.path.join(self.work, f"a{self.n}.hlo"))
            sl.install_version(base, v, art)
        return base

    def server(self, args, name="srv"):
        self.n += 1
        return sl.Server(self.bin, args, self.pidfile, os.path.join(self.work, f"{name}{self.n}.log"))


class Client:
    """Stubs of every service on one channel to a server's gRPC port."""

    def __init__(self, ctx, srv, **channel_kw):
        self.ctx = ctx
        self.channel = grpc.insecure_channel(f"127.0.0.1:{srv.grpc_port}", **channel_kw)
        ps, ms, hs, ks = ctx.grpc_mods
        self.predict = ps.PredictionServiceStub(self.channel)
        self.model = ms.ModelServiceStub(self.channel)
        self.health = hs.HealthStub(self.channel)
        self.kserve = ks.GRPCInferenceServiceStub(self.channel)

    def raw(self, path, data, timeout=TIMEOUT):
        """Calls `path` with request bytes as given; returns the response bytes."""
        call = self.channel.unary_unary(path, request_serializer=None, response_deserializer=None)
        return call(data, timeout=timeout)

    def close(self):
        self.channel.close()


def rpc_error(fn, *args, **kw):
    """Calls fn; returns (code, details) of the RpcError it raises, or (None, response)."""
    try:
        return None, fn(*args, **kw)
    except grpc.RpcError as e:
        return e.code(), e.details()


def f32_tensor(ctx, tp, values, shape, content=True):
    """Fills a TensorProto with f32 values (tensor_content, or float_val)."""
    tp.dtype = ctx.types.DT_FLOAT
    for d in shape:
        tp.tensor_shape.dim.add().size = d
    if content:
        tp.tensor_content = struct.pack(f"<{len(values)}f", *values)
    else:
        tp.float_val.extend(values)


def i32_tensor(ctx, tp, values, shape, content=True):
    tp.dtype = ctx.types.DT_INT32
    for d in shape:
        tp.tensor_shape.dim.add().size = d
    if content:
        tp.tensor_content = struct.pack(f"<{len(values)}i", *values)
    else:
        tp.int_val.extend(values)


def values_of(tp):
    """(shape, flat values) of an answer's TensorProto (tensor_content: f32, i32)."""
    shape = [d.size for d in tp.tensor_shape.dim]
    code = {1: "f", 3: "i"}[tp.dtype]
    n = len(tp.tensor_content) // 4
    return shape, list(struct.unpack(f"<{n}{code}", tp.tensor_content))


def predict_request(ctx, model, version=None, label=None, signature=None):
    req = ctx.predict.PredictRequest()
    req.model_spec.name = model
    if version is not None:
        req.model_spec.version.value = version
    if label is not None:
        req.model_spec.version_label = label
    if signature is not None:
        req.model_spec.signature_name = signature
    return req


# ---- sections ----

X2 = [1.5, -2.0, 3.25, 4.0, 0.1, -6.0]
K2 = [1, 2, 3, -4, 5, 100]


def two_io_server(ctx):
    """A server of 'two' (two_io.mlir) and 'plus' (versions 1 and 2 served, label stable: 1)."""
    tag = ctx.n
    base = ctx.model_dir(f"two{tag}", {1: "two_io.mlir"})
    conf = os.path.join(ctx.work, f"models{tag}.config")
    pbase = ctx.model_dir(f"plus{tag}", {1: ("plus", 1), 2: ("plus", 2)})
    with open(conf, "w") as f:
        f.write(f'model_config_list {{ config {{ name: "two" base_path: "{base}" }}\n'
                f'  config {{ name: "plus" base_path: "{pbase}" model_version_policy {{ all {{}} }}\n'
                f'    version_labels {{ key: "stable" value: 1 }} }} }}\n')
    return ctx.server(["--model_config_file", conf])


def section_predict(ctx):
    t = ctx.t
    t.begin("predict")
    srv = two_io_server(ctx)
    c = Client(ctx, srv)
    try:
        want_sum = [sl.f32(2 * x + k) for x, k in zip(X2, K2)]
        want_count = [1 + 2 + 3, -4 + 5 + 100]
        for content in (True, False):
            req = predict_request(ctx, "two")
            f32_tensor(ctx, req.inputs["x"], X2, [2, 3], content)
            i32_tensor(ctx, req.inputs["k"], K2, [2, 3], content)
            code, r = rpc_error(c.predict.Predict, req, timeout=TIMEOUT)
            how = "tensor_content" if content else "float_val/int_val"
            if not t.check(code is None, f"Predict with {how} succeeds", r):
                continue
            t.check(sorted(r.outputs) == ["count", "sum"], f"{how}: outputs sum and count", sorted(r.outputs))
            t.check(values_of(r.outputs["sum"]) == ([2, 3], want_sum), f"{how}: sum = 2x + k",
                    values_of(r.outputs["sum"]))
            t.check(values_of(r.outputs["count"]) == ([2], want_count), f"{how}: count", values_of(r.outputs["count"]))
            t.check(r.model_spec.name == "two" and r.model_spec.version.value == 1 and
                    r.model_spec.signature_name == "serving_default", f"{how}: model_spec names the answer", r.model_spec)
        # the same request over REST gives the same numbers
        rest = srv.post("/v1/models/two:predict", json={"inputs": {"x": [X2[:3], X2[3:]], "k": [K2[:3], K2[3:]]}}).json()
        t.check(rest["outputs"]["count"] == want_count and
                [sl.f32(v) for row in rest["outputs"]["sum"] for v in row] == want_sum, "REST gives the same answer", rest)
        # one typed value fills the tensor (TensorFlow's rule), output_filter picks outputs
        req = predict_request(ctx, "two")
        f32_tensor(ctx, req.inputs["x"], [0.5], [2, 3], content=False)
        i32_tensor(ctx, req.inputs["k"], [7], [2, 3], content=False)
        req.output_filter.append("count")
        code, r = rpc_error(c.predict.Predict, req, timeout=TIMEOUT)
        if t.check(code is None, "Predict with one value per input and output_filter succeeds", r):
            t.check(list(r.outputs) == ["count"], "output_filter: only count", list(r.outputs))
            t.check(values_of(r.outputs["count"]) == ([2], [21, 21]), "one value repeated over the shape",
                    values_of(r.outputs["count"]))
        # versions and labels
        for spec, want in [({"version": 2}, 3.0), ({"version": 1}, 2.0), ({"label": "stable"}, 2.0), ({}, 3.0)]:
            req = predict_request(ctx, "plus", **spec)
            f32_tensor(ctx, req.inputs["x"], [1.0, 1.0], [1, 2])
            code, r = rpc_error(c.predict.Predict, req, timeout=TIMEOUT)
            if t.check(code is None, f"Predict on plus {spec}", r):
                t.check(values_of(r.outputs["y"])[1] == [want, want], f"plus {spec} answers {want}",
                        values_of(r.outputs["y"]))
        # many calls at once on one channel (HTTP/2 streams) and on several
        results = []

        def caller(client, n):
            for i in range(n):
                req = predict_request(ctx, "plus", version=1)
                f32_tensor(ctx, req.inputs["x"], [float(i), 0.0], [1, 2])
                code, r = rpc_error(client.predict.Predict, req, timeout=TIMEOUT)
                results.append(code is None and values_of(r.outputs["y"])[1] == [i + 1.0, 1.0])
        others = [Client(ctx, srv) for _ in range(3)]
        threads = [threading.Thread(target=caller, args=(cl, 50)) for cl in [c, c, c] + others]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        for cl in others:
            cl.close()
        t.check(len(results) == 300 and all(results), "300 concurrent calls on 4 channels all right",
                f"{sum(results)} of {len(results)}")
    finally:
        c.close()
        code = srv.stop()
        t.check(code == 0, f"server exits 0 (got {code})", srv.log_tail())


def section_metadata(ctx):
    t = ctx.t
    t.begin("metadata")
    srv = two_io_server(ctx)
    c = Client(ctx, srv)
    try:
        req = ctx.meta.GetModelMetadataRequest()
        req.model_spec.name = "two"
        req.metadata_field.append("signature_def")
        code, r = rpc_error(c.predict.GetModelMetadata, req, timeout=TIMEOUT)
        if t.check(code is None, "GetModelMetadata succeeds", r):
            t.check(r.model_spec.name == "two" and r.model_spec.version.value == 1, "metadata model_spec", r.model_spec)
            any_ = r.metadata["signature_def"]
            t.check(any_.type_url == "type.googleapis.com/tensorflow.serving.SignatureDefMap", "Any type_url",
                    any_.type_url)
            sigs = ctx.meta.SignatureDefMap()
            any_.Unpack(sigs)
            sig = sigs.signature_def["serving_default"]
            rest = srv.get("/v1/models/two/metadata").json()["metadata"]["signature_def"]["signature_def"]
            rsig = rest["serving_default"]
            t.check(sig.method_name == rsig["method_name"] == "tensorflow/serving/predict", "method_name", sig.method_name)
            for kind in ("inputs", "outputs"):
                got = {k: (ctx.types.DataType.Name(v.dtype), [d.size for d in v.tensor_shape.dim], v.name)
                       for k, v in getattr(sig, kind).items()}
                want = {k: (v["dtype"], [int(d["size"]) for d in v["tensor_shape"]["dim"]], v["name"])
                        for k, v in rsig[kind].items()}
                t.check(got == want, f"metadata {kind} equal REST's", f"{got} vs {want}")
        # status, with versions and labels
        for spec, want in [({}, [(2, "AVAILABLE"), (1, "AVAILABLE")]), ({"version": 1}, [(1, "AVAILABLE")]),
                           ({"label": "stable"}, [(1, "AVAILABLE")])]:
            req = ctx.status.GetModelStatusRequest()
            req.model_spec.name = "plus"
            if "version" in spec:
                req.model_spec.version.value = spec["version"]
            if "label" in spec:
                req.model_spec.version_label = spec["label"]
            code, r = rpc_error(c.model.GetModelStatus, req, timeout=TIMEOUT)
            if t.check(code is None, f"GetModelStatus {spec}", r):
                got = [(v.version, ctx.status.ModelVersionStatus.State.Name(v.state)) for v in r.model_version_status]
                t.check(got == want, f"status {spec}", got)
                t.check(all(v.status.error_code == 0 for v in r.model_version_status), "status OK", r)
        # health
        code, r = rpc_error(c.health.Check, ctx.health.HealthCheckRequest(), timeout=TIMEOUT)
        t.check(code is None and r.status == ctx.health.HealthCheckResponse.SERVING, "Health/Check: SERVING", r)
        code, r = rpc_error(c.health.Check, ctx.health.HealthCheckRequest(service="tensorflow.serving.PredictionService"),
                            timeout=TIMEOUT)
        t.check(code is None and r.status == ctx.health.HealthCheckResponse.SERVING, "Check PredictionService", r)
        code, r = rpc_error(c.health.Check, ctx.health.HealthCheckRequest(service="nope"), timeout=TIMEOUT)
        t.check(code == grpc.StatusCode.NOT_FOUND, "Check of an unknown service: NOT_FOUND", (code, r))
        # Watch: the status at once, SERVICE_UNKNOWN (not an error) for an unknown service
        watch = c.health.Watch(ctx.health.HealthCheckRequest(), timeout=TIMEOUT)
        unknown = c.health.Watch(ctx.health.HealthCheckRequest(service="nope"), timeout=TIMEOUT)
        t.check(next(watch).status == ctx.health.HealthCheckResponse.SERVING, "Watch: SERVING at once")
        t.check(next(unknown).status == ctx.health.HealthCheckResponse.SERVICE_UNKNOWN, "Watch unknown: SERVICE_UNKNOWN")
        watch.cancel()
        unknown.cancel()
    finally:
        c.close()
        srv.stop()
    # Watch follows a change: NOT_SERVING until the model's first version loads, then SERVING
    base = os.path.join(ctx.work, "late")
    os.makedirs(base)
    srv = ctx.server(["--model_name", "late", "--model_base_path", base, "--file_system_poll_wait_seconds", "1"])
    c = Client(ctx, srv)
    try:
        watch = c.health.Watch(ctx.health.HealthCheckRequest(), timeout=TIMEOUT)
        t.check(next(watch).status == ctx.health.HealthCheckResponse.NOT_SERVING, "Watch: NOT_SERVING without a version")
        art = sl.export(ctx.bin, sl.versioned_mlir(ctx.work, 5), os.path.join(ctx.work, "late5.hlo"))
        sl.install_version(base, 1, art)
        t.check(next(watch).status == ctx.health.HealthCheckResponse.SERVING, "Watch: SERVING once a version loaded")
        # a shutdown ends the watch with UNAVAILABLE, and does not wait for it
        t0 = time.monotonic()
        code = srv.stop()
        t.check(code == 0 and time.monotonic() - t0 < 10, "the server stops with a watch open", (code, srv.log_tail()))
        got, detail = rpc_error(next, watch)
        t.check(got in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED), "the watch ends UNAVAILABLE",
                (got, detail))
    finally:
        c.close()
        srv.stop()


def section_kserve(ctx):
    t = ctx.t
    kp = ctx.kp
    t.begin("kserve")
    srv = two_io_server(ctx)
    c = Client(ctx, srv)
    try:
        t.check(c.kserve.ServerLive(kp.ServerLiveRequest(), timeout=TIMEOUT).live, "ServerLive")
        t.check(c.kserve.ServerReady(kp.ServerReadyRequest(), timeout=TIMEOUT).ready, "ServerReady")
        t.check(c.kserve.ModelReady(kp.ModelReadyRequest(name="two"), timeout=TIMEOUT).ready, "ModelReady two")
        t.check(not c.kserve.ModelReady(kp.ModelReadyRequest(name="plus", version="9"), timeout=TIMEOUT).ready,
                "ModelReady plus version 9: not ready")
        code, r = rpc_error(c.kserve.ModelReady, kp.ModelReadyRequest(name="nope"), timeout=TIMEOUT)
        t.check(code == grpc.StatusCode.NOT_FOUND, "ModelReady of an unknown model: NOT_FOUND", (code, r))
        md = c.kserve.ServerMetadata(kp.ServerMetadataRequest(), timeout=TIMEOUT)
        t.check(md.name == "hlorun" and md.version, "ServerMetadata", md)
        mm = c.kserve.ModelMetadata(kp.ModelMetadataRequest(name="plus"), timeout=TIMEOUT)
        t.check(list(mm.versions) == ["2", "1"] and mm.platform == "hlorun", "ModelMetadata versions", mm)
        mm = c.kserve.ModelMetadata(kp.ModelMetadataRequest(name="two"), timeout=TIMEOUT)
        got = [(i.name, i.datatype, list(i.shape)) for i in mm.inputs] + [(o.name, o.datatype, list(o.shape))
                                                                            for o in mm.outputs]
        t.check(got == [("x", "FP32", [-1, 3]), ("k", "INT32", [-1, 3]), ("sum", "FP32", [-1, 3]),
                        ("count", "INT32", [-1])], "ModelMetadata tensors", got)
        want_sum = [sl.f32(2 * x + k) for x, k in zip(X2, K2)]
        for raw in (True, False):
            req = kp.ModelInferRequest(model_name="two", id="req-1")
            x = req.inputs.add(name="x", datatype="FP32", shape=[2, 3])
            k = req.inputs.add(name="k", datatype="INT32", shape=[2, 3])
            if raw:
                req.raw_input_contents.append(struct.pack("<6f", *X2))
                req.raw_input_contents.append(struct.pack("<6i", *K2))
            else:
                x.contents.fp32_contents.extend(X2)
                k.contents.int_contents.extend(K2)
            how = "raw" if raw else "typed contents"
            code, r = rpc_error(c.kserve.ModelInfer, req, timeout=TIMEOUT)
            if not t.check(code is None, f"ModelInfer with {how}", r):
                continue
            t.check(r.model_name == "two" and r.model_version == "1" and r.id == "req-1", f"{how}: names", r)
            outs = {o.name: (o.datatype, list(o.shape)) for o in r.outputs}
            t.check(outs == {"sum": ("FP32", [2, 3]), "count": ("INT32", [2])}, f"{how}: outputs", outs)
            vals = {o.name: raw_c for o, raw_c in zip(r.outputs, r.raw_output_contents)}
            t.check(list(struct.unpack("<6f", vals["sum"])) == want_sum, f"{how}: sum", vals.get("sum"))
            t.check(list(struct.unpack("<2i", vals["count"])) == [6, 101], f"{how}: count", vals.get("count"))
        # errors
        req = kp.ModelInferRequest(model_name="two")
        req.inputs.add(name="x", datatype="FP64", shape=[1, 3]).contents.fp64_contents.extend([1, 2, 3])
        req.inputs.add(name="k", datatype="INT32", shape=[1, 3]).contents.int_contents.extend([1, 2, 3])
        code, r = rpc_error(c.kserve.ModelInfer, req, timeout=TIMEOUT)
        t.check(code == grpc.StatusCode.INVALID_ARGUMENT and "FP64" in r, "ModelInfer wrong datatype", (code, r))
        req = kp.ModelInferRequest(model_name="two")
        req.inputs.add(name="x", datatype="FP32", shape=[1, 3]).contents.fp32_contents.extend([1, 2])
        req.inputs.add(name="k", datatype="INT32", shape=[1, 3]).contents.int_contents.extend([1, 2, 3])
        code, r = rpc_error(c.kserve.ModelInfer, req, timeout=TIMEOUT)
        t.check(code == grpc.StatusCode.INVALID_ARGUMENT, "ModelInfer with too few values", (code, r))
        code, r = rpc_error(c.kserve.ModelInfer, kp.ModelInferRequest(model_name="nope"), timeout=TIMEOUT)
        t.check(code == grpc.StatusCode.NOT_FOUND, "ModelInfer unknown model: NOT_FOUND", (code, r))
    finally:
        c.close()
        srv.stop()


def section_errors(ctx):
    t = ctx.t
    t.begin("errors")
    base = ctx.model_dir("errs", {1: "two_io.mlir"})
    slow = ctx.model_dir("slow", {1: "slow.mlir"})
    conf = os.path.join(ctx.work, "errs.config")
    with open(conf, "w") as f:
        f.write(f'model_config_list {{ config {{ name: "two" base_path: "{base}" }}\n'
                f'  config {{ name: "slow" base_path: "{slow}" }} }}\n')
    token = os.path.join(ctx.work, "token")
    with open(token, "w") as f:
        f.write("s3cret\n")
    srv = ctx.server(["--model_config_file", conf, "--grpc_max_message_bytes", "4096", "--admin_token_file", token])
    c = Client(ctx, srv)
    INVALID, NOT_FOUND = grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND
    try:
        def good(**spec):
            req = predict_request(ctx, spec.pop("model", "two"), **spec)
            f32_tensor(ctx, req.inputs["x"], X2, [2, 3])
            i32_tensor(ctx, req.inputs["k"], K2, [2, 3])
            return req

        def expect(what, req, code, text, method=None):
            got, detail = rpc_error(method or c.predict.Predict, req, timeout=TIMEOUT)
            t.check(got == code and text in str(detail), what, (got, detail))

        expect("unknown model", good(model="nope"), NOT_FOUND, "Servable not found for request: Latest(nope)")
        expect("unknown version", good(version=7), NOT_FOUND, "Servable not found for request: Specific(two, 7)")
        expect("unknown label", good(label="nolabel"), INVALID, "nolabel")
        expect("unknown signature", good(signature="nosig"), INVALID,
               'Serving signature name: "nosig" not found in signature def')
        req = predict_request(ctx, "two")
        expect("no model_spec", ctx.predict.PredictRequest(), INVALID, "Missing ModelSpec")
        req = good()
        req.inputs["extra"].CopyFrom(req.inputs["x"])
        expect("unknown input", req, INVALID, "input tensor alias not found in signature: extra")
        req = good()
        del req.inputs["k"]
        expect("missing input", req, INVALID, "Missing but required: {k}")
        req = good()
        req.inputs["k"].dtype = ctx.types.DT_INT64
        req.inputs["k"].tensor_content = struct.pack("<6q", *K2)
        expect("wrong dtype", req, INVALID, "Expects arg[1] to be int32 but int64 is provided")
        req = predict_request(ctx, "two")
        f32_tensor(ctx, req.inputs["x"], X2, [3, 2])
        i32_tensor(ctx, req.inputs["k"], K2, [2, 3])
        expect("wrong shape", req, INVALID, "shape [3,2] does not match the signature's [?,3]")
        req = good()
        req.inputs["x"].tensor_content = b"\0" * 20
        expect("tensor_content of the wrong size", req, INVALID, "tensor_content holds 20 bytes")
        req = good()
        req.inputs["x"].ClearField("tensor_content")
        req.inputs["x"].float_val.extend([1.0] * 7)
        expect("too many float_val", req, INVALID, "7 values for a tensor of 6 elements")
        req = good()
        req.inputs["x"].dtype = ctx.types.DT_STRING
        req.inputs["x"].ClearField("tensor_content")
        req.inputs["x"].string_val.append(b"a")
        expect("DT_STRING", req, grpc.StatusCode.UNIMPLEMENTED, "DT_STRING")
        req = good()
        req.inputs["k"].ClearField("tensor_content")
        req.inputs["k"].int_val.extend([1] * 6)
        req.inputs["k"].dtype = ctx.types.DT_INT8
        expect("int8 instead of int32", req, INVALID, "Expects arg[1] to be int32 but int8 is provided")
        # oversize: over --grpc_max_message_bytes 4096
        req = predict_request(ctx, "two")
        f32_tensor(ctx, req.inputs["x"], [0.5] * 3000, [1000, 3])
        i32_tensor(ctx, req.inputs["k"], [1] * 3000, [1000, 3])
        expect("oversize message", req, grpc.StatusCode.RESOURCE_EXHAUSTED, "Received message larger than max (")
        # malformed protobuf: a length that runs past the end, a wire type 3 group
        for name, data in [("truncated", b"\x0a\x10\x0a\x03two"), ("group", b"\x0b\x0c"), ("bad varint", b"\x08" + b"\xff" * 11)]:
            got, detail = rpc_error(c.raw, "/tensorflow.serving.PredictionService/Predict", data)
            t.check(got == INVALID, f"malformed protobuf ({name}): INVALID_ARGUMENT", (got, detail))
        got, detail = rpc_error(c.raw, "/tensorflow.serving.PredictionService/Nope", b"")
        t.check(got == grpc.StatusCode.UNIMPLEMENTED, "unknown method: UNIMPLEMENTED", (got, detail))
        # compressed messages are refused
        gz = Client(ctx, srv, compression=grpc.Compression.Gzip)
        got, detail = rpc_error(gz.predict.Predict, good(), timeout=TIMEOUT)
        t.check(got == grpc.StatusCode.UNIMPLEMENTED and "compressed" in str(detail), "gzip message: UNIMPLEMENTED",
                (got, detail))
        gz.close()
        # deadlines (the slow model takes about 0.3 s): the client's (grpc-timeout), and the server's
        # (--rest_api_timeout_in_ms 20 on a server of its own)
        slow_req = predict_request(ctx, "slow")
        f32_tensor(ctx, slow_req.inputs["x"], [1.0] * 10, [10, 1])
        t0 = time.monotonic()
        got, detail = rpc_error(c.predict.Predict, slow_req, timeout=0.05)
        t.check(got == grpc.StatusCode.DEADLINE_EXCEEDED, "client deadline 0.05 s: DEADLINE_EXCEEDED", (got, detail))
        quick = ctx.server(["--model_name", "slow", "--model_base_path", slow, "--rest_api_timeout_in_ms", "20"])
        qc = Client(ctx, quick)
        try:
            got, detail = rpc_error(qc.predict.Predict, slow_req, timeout=TIMEOUT)
            t.check(got == grpc.StatusCode.DEADLINE_EXCEEDED, "server deadline 20 ms: DEADLINE_EXCEEDED", (got, detail))
        finally:
            qc.close()
            quick.stop()
        t.check(time.monotonic() - t0 < 30, "deadlines stop the runs", time.monotonic() - t0)
        # classify, regress, multi-inference on a predict signature: TF Serving's errors
        creq = ctx.classify.ClassificationRequest()
        creq.model_spec.name = "two"
        expect("Classify on a predict signature", creq, INVALID,
               "Expected classification signature method_name to be tensorflow/serving/classify. Was: "
               "tensorflow/serving/predict", c.predict.Classify)
        rreq = ctx.regress.RegressionRequest()
        rreq.model_spec.name = "two"
        rreq.model_spec.signature_name = "nosig"
        expect("Regress on an unknown signature", rreq, INVALID, "No signature was found with the name: nosig",
               c.predict.Regress)
        mreq = ctx.inference.MultiInferenceRequest()
        expect("MultiInference without tasks", mreq, INVALID, "Tasks field is empty.", c.predict.MultiInference)
        task = mreq.tasks.add()
        task.model_spec.name = "two"
        task.method_name = "tensorflow/serving/regress"
        expect("MultiInference regress task on a predict signature", mreq, INVALID,
               "Expected regression signature method_name", c.predict.MultiInference)
        # reload config: the bearer token
        rl = ctx.mgmt.ReloadConfigRequest()
        cfg = rl.config.model_config_list.config.add()
        cfg.name = "two"
        cfg.base_path = base
        got, detail = rpc_error(c.model.HandleReloadConfigRequest, rl, timeout=TIMEOUT)
        t.check(got == grpc.StatusCode.UNAUTHENTICATED, "reload without a token: UNAUTHENTICATED", (got, detail))
        got, detail = rpc_error(c.model.HandleReloadConfigRequest, rl, timeout=TIMEOUT,
                                metadata=[("authorization", "Bearer wrong")])
        t.check(got == grpc.StatusCode.PERMISSION_DENIED, "reload with a wrong token: PERMISSION_DENIED", (got, detail))
        cfg.base_path = base + "-elsewhere"
        got, detail = rpc_error(c.model.HandleReloadConfigRequest, rl, timeout=TIMEOUT,
                                metadata=[("authorization", "Bearer s3cret")])
        t.check(got == INVALID and "cannot change its base_path" in str(detail),
                "reload with the token, a base_path changed: INVALID_ARGUMENT", (got, detail))
        # a client that hangs up while its call runs: the server goes on serving
        hang = Client(ctx, srv)
        fut = hang.predict.Predict.future(slow_req, timeout=TIMEOUT)
        time.sleep(0.2)
        fut.cancel()
        hang.close()
        got, r = rpc_error(c.predict.Predict, good(), timeout=TIMEOUT)
        t.check(got is None, "the server answers after a client hung up", (got, r))
        # calls cancelled as soon as they are sent (rapid reset), on one connection
        rr = Client(ctx, srv)
        futures = [rr.predict.Predict.future(slow_req, timeout=TIMEOUT) for _ in range(60)]
        for fut in futures:
            fut.cancel()
        rr.close()
        got, r = rpc_error(c.predict.Predict, good(), timeout=TIMEOUT)
        t.check(got is None, "the server answers after 60 cancelled calls", (got, r))
        # REST still answers beside gRPC, and its metrics count the gRPC calls
        t.check(srv.get("/v1/models/two").status_code == 200, "REST answers beside gRPC")
        samples, _ = sl.parse_prometheus(srv.get("/monitoring/prometheus/metrics").text)
        grpc_ok = [v for (name, labels), v in samples.items() if name == ":tensorflow:serving:request_count" and
                   ("model_name", "two") in labels and ("status", "OK") in labels]
        lat = [v for (name, labels), v in samples.items()
               if name == ":tensorflow:serving:request_latency_count" and ("entrypoint", "GRPC") in labels and
               ("API", "Predict") in labels]
        t.check(grpc_ok and lat and lat[0] >= 1, "metrics count gRPC Predict calls", (grpc_ok, lat))
    finally:
        c.close()
        code = srv.stop()
        t.check(code == 0, f"server exits 0 (got {code})", srv.log_tail())


def section_config(ctx):
    t = ctx.t
    t.begin("config")
    a = ctx.model_dir("cfg_a", {1: ("plus", 1)})
    b = ctx.model_dir("cfg_b", {1: ("plus", 10), 2: ("plus", 20)})
    token = os.path.join(ctx.work, "cfg_token")
    with open(token, "w") as f:
        f.write("  t0ken  \n")
    srv = ctx.server(["--model_name", "a", "--model_base_path", a, "--admin_token_file", token])
    c = Client(ctx, srv)
    auth = [("authorization", "Bearer t0ken")]

    def reload(models, what, code=None, text=""):
        rl = ctx.mgmt.ReloadConfigRequest()
        for name, base, labels in models:
            m = rl.config.model_config_list.config.add()
            m.name = name
            m.base_path = base
            m.model_platform = "hlorun"
            if labels:
                m.model_version_policy.all.SetInParent()
            for k, v in labels.items():
                m.version_labels[k] = v
        got, r = rpc_error(c.model.HandleReloadConfigRequest, rl, timeout=120, metadata=auth)
        if code is None:
            t.check(got is None and r.status.error_code == 0, f"reload: {what}", (got, r))
        else:
            t.check(got == code and text in str(r), f"reload refused: {what}", (got, r))

    def answer(model, **spec):
        req = predict_request(ctx, model, **spec)
        f32_tensor(ctx, req.inputs["x"], [0.0, 0.0], [1, 2])
        got, r = rpc_error(c.predict.Predict, req, timeout=TIMEOUT)
        return values_of(r.outputs["y"])[1][0] if got is None else (got, r)

    try:
        t.check(answer("a") == 1.0, "model a serves", answer("a"))
        reload([("a", a, {}), ("b", b, {"stable": 1})], "a kept, b added with all versions and a label")
        t.check(answer("b") == 20.0 and answer("b", version=1) == 10.0 and answer("b", label="stable") == 10.0,
                "b serves both versions as soon as the reload returns", [answer("b"), answer("b", version=1)])
        t.check(answer("a") == 1.0, "a still serves", answer("a"))
        reload([("b", b, {"stable": 2})], "a removed, b's label moved")
        got = answer("a")
        t.check(got[0] == grpc.StatusCode.NOT_FOUND, "a is gone", got)
        t.check(srv.get("/v1/models/a").status_code == 404, "REST: a is gone")
        t.check(answer("b", label="stable") == 20.0, "b's label names version 2", answer("b", label="stable"))
        reload([("a", a, {}), ("b", b, {"stable": 2})], "a taken up again")
        t.check(answer("a") == 1.0, "a serves again", answer("a"))
        reload([("a", a + "x", {})], "a base_path changed", grpc.StatusCode.INVALID_ARGUMENT, "base_path")
        reload([("a", a, {}), ("a", b, {})], "a model twice", grpc.StatusCode.INVALID_ARGUMENT, "configured twice")
        reload([("", a, {})], "an empty name", grpc.StatusCode.INVALID_ARGUMENT, "non-empty name")
        rl = ctx.mgmt.ReloadConfigRequest()
        got, r = rpc_error(c.model.HandleReloadConfigRequest, rl, timeout=TIMEOUT, metadata=auth)
        t.check(got == grpc.StatusCode.INVALID_ARGUMENT and "Only ModelConfigList" in str(r),
                "a reload without model_config_list is refused", (got, r))
        t.check(answer("a") == 1.0 and answer("b") == 20.0, "refused reloads changed nothing",
                [answer("a"), answer("b")])
        t.check(srv.get("/readyz").status_code == 200, "ready after the reloads")
    finally:
        c.close()
        code = srv.stop()
        t.check(code == 0, f"server exits 0 (got {code})", srv.log_tail())


def section_cli(ctx):
    t = ctx.t
    t.begin("cli")
    base = ctx.model_dir("cli", {1: ("plus", 1)})
    done = subprocess.run([ctx.bin, "serve", "--port", "8555", "--rest_api_port", "8555", "--model_base_path", base],
                          capture_output=True, text=True, timeout=60)
    t.check(done.returncode == 2 and "must differ" in done.stderr, "--port equal to --rest_api_port: exit 2",
            (done.returncode, done.stderr))
    done = subprocess.run([ctx.bin, "serve", "--port", "-2", "--model_base_path", base], capture_output=True, text=True,
                          timeout=60)
    t.check(done.returncode == 2, "--port -2: exit 2", (done.returncode, done.stderr))
    srv = ctx.server(["--port", "-1", "--model_base_path", base])
    try:
        t.check(srv.grpc_port is None and not any("grpc" in line for line in srv.stdout_lines),
                "--port -1: no gRPC port", srv.stdout_lines)
        t.check(srv.get("/v1/models/default").status_code == 200, "--port -1: REST answers")
    finally:
        srv.stop()
    srv = ctx.server(["--model_base_path", base])
    try:
        t.check(srv.grpc_port and srv.stdout_lines[0].startswith("grpc listening on 127.0.0.1:"),
                "the gRPC line comes first", srv.stdout_lines)
    finally:
        srv.stop()


def section_reload(ctx):
    """20 version swaps while 4 threads call Predict: every call answers, each from a loaded
    version (y - x names it)."""
    t = ctx.t
    t.begin("reload")
    base = ctx.model_dir("swap", {1: ("plus", 1)})
    arts = {}
    for v in range(2, 22):
        arts[v] = sl.export(ctx.bin, sl.versioned_mlir(ctx.work, v), os.path.join(ctx.work, f"swap{v}.hlo"))
    srv = ctx.server(["--model_name", "m", "--model_base_path", base, "--file_system_poll_wait_seconds", "1"])
    stop = threading.Event()
    counts = {"ok": 0, "failed": 0, "versions": set()}
    failures = []
    lock = threading.Lock()

    def load():
        c = Client(ctx, srv)
        try:
            while not stop.is_set():
                req = predict_request(ctx, "m")
                f32_tensor(ctx, req.inputs["x"], [1.0, 2.0], [1, 2])
                got, r = rpc_error(c.predict.Predict, req, timeout=TIMEOUT)
                with lock:
                    if got is None:
                        y = values_of(r.outputs["y"])[1]
                        counts["ok"] += 1
                        counts["versions"].add(r.model_spec.version.value)
                        if y[1] - y[0] != 1.0:
                            counts["failed"] += 1
                    else:
                        counts["failed"] += 1
                        failures.append((got, r))
        finally:
            c.close()

    def served():
        c = Client(ctx, srv)
        try:
            req = predict_request(ctx, "m")
            f32_tensor(ctx, req.inputs["x"], [0.0, 0.0], [1, 2])
            got, r = rpc_error(c.predict.Predict, req, timeout=TIMEOUT)
            return r.model_spec.version.value if got is None else None
        finally:
            c.close()

    threads = [threading.Thread(target=load) for _ in range(4)]
    try:
        for th in threads:
            th.start()
        swaps = 0
        for v in range(2, 22):
            sl.install_version(base, v, arts[v])
            if sl.wait_for(lambda: served() == v, 40):
                swaps += 1
            else:
                t.check(False, f"version {v} serves within 40 s", sl.version_states(srv, "m"))
                break
        t.check(swaps == 20, "20 version swaps", swaps)
    finally:
        stop.set()
        for th in threads:
            th.join()
        code = srv.stop()
    print(f"reload: {counts['ok']} calls answered, {counts['failed']} failed, {len(counts['versions'])} versions seen",
          flush=True)
    t.check(counts["failed"] == 0, "no failed call across the swaps", failures[:3])
    t.check(counts["ok"] >= 200, "enough calls to mean anything", counts["ok"])
    t.check(code == 0, f"server exits 0 (got {code})", srv.log_tail())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--pidfile", required=True)
    ap.add_argument("--only", default=",".join(s for s in SECTIONS if s != "reload"))
    args = ap.parse_args()
    only = [s for s in args.only.split(",") if s]
    unknown = [s for s in only if s not in SECTIONS]
    if unknown:
        ap.error(f"unknown sections {unknown}")
    ctx = Ctx(args)
    for name in SECTIONS:
        if name not in only:
            continue
        try:
            globals()[f"section_{name}"](ctx)
        except Exception as e:  # noqa: BLE001 - one section's crash is one failure
            ctx.t.check(False, f"section {name} raised", f"{type(e).__name__}: {e}")
    return ctx.t.summary()


if __name__ == "__main__":
    sys.exit(main())
