"""Helpers for the end-to-end tests of `hlorun serve`: exporting test models into TF Serving-style
version directories, starting and stopping servers, .npy files, and a pass/fail tally.

Standard library and requests only. Every wait is bounded; every server started here is recorded
in a pid file (one pid a line) so that the calling shell script's trap can kill it whatever
happens to this process.
"""
import ast
import os
import queue
import re
import shutil
import signal
import struct
import subprocess
import threading
import time

import requests

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
LISTEN_RE = re.compile(r"^listening on 127\.0\.0\.1:(\d+)")
GRPC_LISTEN_RE = re.compile(r"^grpc listening on 127\.0\.0\.1:(\d+)")


class Tally:
    """Counts checks; prints one line per failure and a closing summary."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.section = ""

    def begin(self, section):
        self.section = section
        print(f"== {section}", flush=True)

    def check(self, cond, what, detail=""):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            extra = f": {detail}" if detail != "" else ""
            print(f"FAIL [{self.section}] {what}{extra}", flush=True)
        return bool(cond)

    def summary(self):
        print(f"{self.passed} passed, {self.failed} failed", flush=True)
        return 0 if self.failed == 0 else 1


def short(value, limit=400):
    """A one-line, bounded rendering of a value for failure messages."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


# ---- models and version directories ----

def hlorun(bin_path, *args, timeout=120):
    """Runs the hlorun command; returns its stdout, raising on failure."""
    done = subprocess.run([bin_path, *args], capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"hlorun {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def versioned_mlir(work, value, template="plus_version.mlir.in"):
    """Writes the plus_version model with @VERSION@ = value; returns its path."""
    with open(os.path.join(DATA, template)) as f:
        text = f.read().replace("@VERSION@", f"{float(value):.1f}")
    path = os.path.join(work, f"plus_{value}.mlir")
    with open(path, "w") as f:
        f.write(text)
    return path


def export(bin_path, mlir, out, weights=None):
    """`hlorun export MLIR [--weights W] -o OUT`; returns out."""
    args = ["export", mlir, "-o", out]
    if weights:
        args[2:2] = ["--weights", weights]
    hlorun(bin_path, *args)
    return out


def install_version(base, version, artifact):
    """Puts `artifact` into base/VERSION/model.hlo the way a deployment does: the version directory
    is written under a temporary name in the same file system, then renamed into place."""
    os.makedirs(base, exist_ok=True)
    staging = os.path.join(os.path.dirname(os.path.abspath(base)), f".staging-{os.path.basename(base)}-{version}")
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    shutil.copyfile(artifact, os.path.join(staging, "model.hlo"))
    os.rename(staging, os.path.join(base, str(version)))


def corrupt_copy(artifact, out):
    """Writes a corrupt artifact: the good one with a flipped byte in the middle (CRC mismatch)."""
    with open(artifact, "rb") as f:
        data = bytearray(f.read())
    data[len(data) // 2] ^= 0x5A
    with open(out, "wb") as f:
        f.write(bytes(data))
    return out


# ---- .npy (version 1.0, little-endian f4/i4 only) ----

_NPY_DTYPES = {"f32": ("<f4", "f"), "i32": ("<i4", "i")}


def _flatten(nested):
    if isinstance(nested, list):
        out = []
        for item in nested:
            out.extend(_flatten(item))
        return out
    return [nested]


def _shape_of(nested):
    shape = []
    while isinstance(nested, list):
        shape.append(len(nested))
        nested = nested[0] if nested else None
    return shape


def write_npy(path, nested, dtype):
    """Writes a rectangular nested list as a .npy array of dtype 'f32' or 'i32'."""
    descr, code = _NPY_DTYPES[dtype]
    shape = _shape_of(nested)
    flat = _flatten(nested)
    shape_text = "(%s,)" % shape[0] if len(shape) == 1 else "(" + ", ".join(str(d) for d in shape) + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack(f"<{len(flat)}{code}", *flat))


def read_npy(path):
    """Reads a little-endian f4/i4/f8/i8 .npy file into (shape, flat list of Python numbers)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not a .npy file")
    major = data[6]
    if major == 1:
        hlen, start = struct.unpack("<H", data[8:10])[0], 10
    else:
        hlen, start = struct.unpack("<I", data[8:12])[0], 12
    header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
    codes = {"<f4": "f", "<i4": "i", "<f8": "d", "<i8": "q"}
    code = codes[header["descr"]]
    shape = list(header["shape"])
    n = 1
    for d in shape:
        n *= d
    values = list(struct.unpack_from(f"<{n}{code}", data, start + hlen))
    return shape, values


def nest(shape, flat):
    """Turns a flat list into nested lists of the given shape."""
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return list(flat[:shape[0]])
    step = len(flat) // shape[0] if shape[0] else 0
    return [nest(shape[1:], flat[i * step:(i + 1) * step]) for i in range(shape[0])]


def f32(x):
    """x rounded to the nearest float32, as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def run_reference(bin_path, model, inputs, work, tag, weights=None):
    """Runs `hlorun run` on the model with inputs {name: (nested list, dtype)}; returns the outputs
    as a list of nested lists, in result order."""
    in_dir = os.path.join(work, f"ref-{tag}")
    out_dir = os.path.join(work, f"ref-{tag}-out")
    os.makedirs(in_dir, exist_ok=True)
    args = ["run", model, "--quiet", "--output", out_dir]
    if weights:
        args += ["--weights", weights]
    for name, (values, dtype) in inputs.items():
        path = os.path.join(in_dir, f"{name}.npy")
        write_npy(path, values, dtype)
        args += ["--input", f"{name}={path}"]
    hlorun(bin_path, *args)
    outs = []
    i = 0
    while os.path.exists(os.path.join(out_dir, f"out{i}.npy")):
        shape, flat = read_npy(os.path.join(out_dir, f"out{i}.npy"))
        outs.append(nest(shape, flat))
        i += 1
    return outs


def same_values(got, want, is_float):
    """Exact comparison of nested JSON values with reference values; floats compare after rounding
    the JSON number to float32 (a lossless server prints enough digits for that to be exact)."""
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(
            same_values(g, w, is_float) for g, w in zip(got, want))
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return False
    if is_float:
        return f32(float(got)) == f32(float(want))
    return isinstance(got, int) and got == want


# ---- servers ----

class Server:
    """One `hlorun serve` process on 127.0.0.1: REST on self.port and gRPC on self.grpc_port, both
    chosen by the server (--rest_api_port 0 --port 0; args may override them, e.g. --port -1 for no
    gRPC: grpc_port is then None)."""

    def __init__(self, bin_path, args, pidfile, log_path, start_timeout=60):
        self.log_path = log_path
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen([bin_path, "serve", "--rest_api_port", "0", "--port", "0", *args], stdout=subprocess.PIPE,
                                     stderr=self.log, text=True, start_new_session=True)
        with open(pidfile, "a") as f:
            f.write(f"{self.proc.pid}\n")
        self.lines = queue.Queue()
        self.stdout_lines = []
        threading.Thread(target=self._pump, daemon=True).start()
        self.port = None
        self.grpc_port = None
        deadline = time.monotonic() + start_timeout
        while self.port is None and time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.05, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            m = GRPC_LISTEN_RE.search(line)
            if m:
                self.grpc_port = int(m.group(1))
            m = LISTEN_RE.search(line)
            if m:
                self.port = int(m.group(1))
        if self.port is None:
            self.stop(signal.SIGKILL)
            raise RuntimeError(f"server did not print 'listening on 127.0.0.1:PORT'; log:\n{self.log_tail()}")
        self.url = f"http://127.0.0.1:{self.port}"

    def _pump(self):
        for line in self.proc.stdout:
            self.stdout_lines.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def log_tail(self, n=30):
        if not self.log.closed:
            self.log.flush()
        try:
            with open(self.log_path) as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return ""

    def get(self, path, **kw):
        kw.setdefault("timeout", 30)
        return requests.get(self.url + path, **kw)

    def post(self, path, **kw):
        kw.setdefault("timeout", 30)
        return requests.post(self.url + path, **kw)

    def stop(self, sig=signal.SIGTERM, timeout=30):
        """Sends sig and waits (bounded) for the exit; returns the exit code (negative: signal)."""
        if self.proc.poll() is None:
            try:
                self.proc.send_signal(sig)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def wait_for(predicate, timeout, interval=0.1):
    """Calls predicate until it returns a true value or the timeout passes; returns the last value."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except requests.RequestException:
            value = None
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)


def version_states(server, name):
    """{version string: state} from GET /v1/models/NAME, or None when that fails."""
    r = server.get(f"/v1/models/{name}", timeout=10)
    if r.status_code != 200:
        return None
    return {e.get("version"): e.get("state") for e in r.json().get("model_version_status", [])}


def wait_available(server, name, version, timeout=30):
    """Waits until version (int) of model name is AVAILABLE; returns True when it is."""
    return bool(wait_for(lambda: (version_states(server, name) or {}).get(str(version)) == "AVAILABLE", timeout))


def parse_prometheus(text):
    """Parses Prometheus text exposition into {(name, frozenset(labels.items())): value}, plus
    {family: type} from the # TYPE lines."""
    samples, types = {}, {}
    sample_re = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\S+)?$')
    label_re = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            parts = line.split()
            if len(parts) >= 4:
                types[parts[2]] = parts[3]
            continue
        if not line or line.startswith("#"):
            continue
        m = sample_re.match(line)
        if not m:
            continue
        labels = frozenset(label_re.findall(m.group(3) or ""))
        try:
            samples[(m.group(1), labels)] = float(m.group(4))
        except ValueError:
            pass
    return samples, types
