"""Attack tests of `hlorun serve`: a test per finding of the attack run (docs/serving.md, "Limits
and attacks") and per bug class peers had (../shared/research/peers.md section 3). Each one sends
what an attacker or a careless deployment would, over loopback only, and checks that the server
stays up, keeps serving, answers a clear 4xx/5xx and holds its memory.

  rewrite     the served artifact rewritten in place and truncated under load (SIGBUS before)
  huge        a 1 TB sparse artifact (mapped and read before its header was checked)
  slowloris   connections trickling header bytes from many client addresses
  bodies      many unfinished large bodies (no server-wide bound before)
  runs        outputs far larger than the request, a request past its deadline, a client gone
  framing     request smuggling shapes, unsupported transfer codings, %00 in the URL
  repository  a corrupt newest version, symlinks and hard links out of the model root, paths in errors
  requests    header floods, chunk-size abuse, huge and negative numbers, traversal in the URL

Run by test_hardening.sh; standard library, requests and the helpers of rest_api.py."""
import argparse
import os
import socket
import sys
import threading
import time

import requests

import rest_api
import serverlib as sl


# ---- raw HTTP ----

def raw_exchange(port, data, timeout=10.0, source="127.0.0.1"):
    """Sends raw bytes on a new connection and reads until the server closes it or the timeout
    passes; returns (status code or None, everything read, seconds taken)."""
    start = time.monotonic()
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    chunks = []
    try:
        s.sendall(data)
        while time.monotonic() - start < timeout:
            try:
                b = s.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                break
            if not b:
                break
            chunks.append(b)
            got = b"".join(chunks)
            head, sep, body = got.partition(b"\r\n\r\n")
            if sep and b"content-length:" in head.lower():
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                if len(body) >= length:
                    break
    finally:
        s.close()
    got = b"".join(chunks)
    code = None
    if got.startswith(b"HTTP/1."):
        try:
            code = int(got.split(b" ")[1])
        except (IndexError, ValueError):
            pass
    return code, got, time.monotonic() - start


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def fd_count(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def thread_count(pid):
    return len(os.listdir(f"/proc/{pid}/task"))


def mlp_body(rows=2):
    return {"instances": [[0.01 * (i + r) for i in range(64)] for r in range(rows)]}


def metric(srv, name):
    samples, _ = sl.parse_prometheus(srv.get("/monitoring/prometheus/metrics").text)
    return sum(v for (n, _), v in samples.items() if n == name)


class Load:
    """Keeps `n` threads sending predictions until stopped; counts answers by status."""

    def __init__(self, srv, path, body, n=2):
        self.srv, self.path, self.body = srv, path, body
        self.stop_flag = threading.Event()
        self.codes = {}
        self.errors = []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, daemon=True) for _ in range(n)]
        for t in self.threads:
            t.start()

    def run(self):
        session = requests.Session()
        while not self.stop_flag.is_set():
            try:
                r = session.post(self.srv.url + self.path, json=self.body, timeout=30)
                key = r.status_code
            except requests.RequestException as e:
                key = "transport"
                with self.lock:
                    self.errors.append(repr(e)[:200])
            with self.lock:
                self.codes[key] = self.codes.get(key, 0) + 1

    def stop(self):
        self.stop_flag.set()
        for t in self.threads:
            t.join(timeout=60)
        return self.codes


# ---- sections ----

def section_rewrite(ctx):
    """Finding 1: `cp` over the served artifact and `truncate` it, under load."""
    t = ctx.t
    base = ctx.model_dir("mlp", {1: "mlp"})
    served = os.path.join(base, "1", "model.hlo")
    with open(ctx.artifact("mlp"), "rb") as f:
        good = f.read()
    with ctx.server(["--model_name", "mlp", "--model_base_path", base, "--file_system_poll_wait_seconds", "1"]) as srv:
        want = srv.post("/v1/models/mlp:predict", json=mlp_body()).json()
        load = Load(srv, "/v1/models/mlp:predict", mlp_body(), n=3)
        time.sleep(0.5)
        with open(served, "wb") as f:      # cp of identical bytes: O_TRUNC, then write
            f.write(good)
        time.sleep(2.5)
        os.truncate(served, 0)             # truncate to nothing
        time.sleep(2.5)
        os.truncate(served, len(good) // 2)
        time.sleep(2.5)
        with open(served, "wb") as f:      # the good file again
            f.write(good)
        t.check(sl.wait_for(lambda: "reloaded from its changed artifact" in srv.log_tail(200), 10),
                "a rewritten artifact is reloaded", srv.log_tail())
        time.sleep(1.5)
        codes = load.stop()
        t.check(srv.proc.poll() is None, "the server survives rewrites and truncation", srv.log_tail())
        t.check(set(codes) == {200} and codes[200] > 20, "every request under the rewrites is answered 200", codes)
        t.check("keeps serving" in srv.log_tail(200), "a truncated artifact is refused with a log line",
                srv.log_tail())
        got = srv.post("/v1/models/mlp:predict", json=mlp_body())
        t.check(got.status_code == 200 and got.json() == want, "answers are unchanged after the rewrites")
        states = sl.version_states(srv, "mlp") or {}
        t.check(states.get("1") == "AVAILABLE", "version 1 stays AVAILABLE", states)


def section_huge(ctx):
    """Finding 2: a 1 TB sparse artifact, one with a valid header claiming that size."""
    t = ctx.t
    base = ctx.model_dir("huge", {1: "plus1"})
    with ctx.server(["--model_name", "huge", "--model_base_path", base, "--file_system_poll_wait_seconds", "1",
                     "--max_model_bytes", str(64 << 20)]) as srv:
        rss0 = rss_bytes(srv.proc.pid)
        for v, header in ((2, False), (3, True)):
            d = os.path.join(base, str(v))
            os.makedirs(d)
            path = os.path.join(d, "model.hlo")
            with open(path, "wb") as f:
                if header:  # the good artifact's header, its file_size field set to 1 TB
                    with open(ctx.artifact("plus1"), "rb") as g:
                        head = bytearray(g.read(80))
                    head[24:32] = (1 << 40).to_bytes(8, "little")
                    f.write(head)
            os.truncate(path, 1 << 40)
        start = time.monotonic()
        t.check(sl.wait_for(lambda: (sl.version_states(srv, "huge") or {}).get("3") == "END", 20),
                "a 1 TB artifact is refused", srv.log_tail())
        t.check(time.monotonic() - start < 10, "quickly", time.monotonic() - start)
        t.check(rss_bytes(srv.proc.pid) - rss0 < 64 << 20, "without touching its bulk (RSS)",
                (rss0, rss_bytes(srv.proc.pid)))
        r = srv.post("/v1/models/huge:predict", json={"instances": [[1.0, 2.0]]})
        t.check(r.status_code == 200, "the good version keeps serving", r.text[:200])
        status = srv.get("/v1/models/huge").text
        t.check("max_model_bytes" in status or "exceed" in status, "the status says why", status[:600])
        start = time.monotonic()
        rc = srv.stop()
        t.check(rc == 0 and time.monotonic() - start < 10, "SIGTERM finishes", (rc, time.monotonic() - start))


def section_slowloris(ctx):
    """Finding 3: connections from many addresses trickling one header line at a time."""
    t = ctx.t
    base = ctx.model_dir("slow_clients", {1: "plus1"})
    args = ["--model_name", "m", "--model_base_path", base, "--request_read_timeout_seconds", "3",
            "--max_connections", "60", "--max_connections_per_client", "20"]
    with ctx.server(args) as srv:
        stop = threading.Event()
        socks = []
        lock = threading.Lock()

        def attacker(source):
            held = []
            for _ in range(30):
                try:
                    s = socket.create_connection(("127.0.0.1", srv.port), timeout=2, source_address=(source, 0))
                    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                    held.append(s)
                except OSError:
                    pass
            with lock:
                socks.extend(held)
            while not stop.is_set():  # a header byte per connection every 0.5 s, forever
                for s in list(held):
                    try:
                        s.sendall(b"X")
                    except OSError:
                        held.remove(s)
                stop.wait(0.5)
            for s in held:
                s.close()

        attackers = [threading.Thread(target=attacker, args=(f"127.0.0.{10 + i}",), daemon=True) for i in range(6)]
        for a in attackers:
            a.start()
        time.sleep(1.0)
        # A legitimate client keeps trying; it must get through once the guard closes the trickling
        # connections (read timeout 3 s), not wait as long as the attackers like.
        start = time.monotonic()
        ok = False
        while not ok and time.monotonic() - start < 15:
            try:
                ok = requests.get(srv.url + "/healthz", timeout=2).status_code == 200
            except requests.RequestException:
                time.sleep(0.2)
        took = time.monotonic() - start
        stop.set()
        for a in attackers:
            a.join(timeout=10)
        t.check(ok and took < 8, "a client gets through within the read timeout during the attack", took)
        t.check(metric(srv, "hlorun_http_connection_timeouts_total") >= 20, "trickling connections are closed",
                metric(srv, "hlorun_http_connection_timeouts_total"))
        # One address cannot take more than its share.
        held = []
        for _ in range(30):
            try:
                s = socket.create_connection(("127.0.0.1", srv.port), timeout=2, source_address=("127.0.0.30", 0))
                held.append(s)
            except OSError:
                pass
        time.sleep(0.5)
        answered = 0
        for s in held:
            try:
                s.settimeout(2)
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                answered += s.recv(100).startswith(b"HTTP/1.1 200")
            except OSError:
                pass
            s.close()
        t.check(answered <= 20, "at most --max_connections_per_client connections from one address", answered)
        t.check(srv.get("/healthz").status_code == 200, "the server still answers")


def section_bodies(ctx):
    """Finding 4: many unfinished large bodies are bounded server-wide."""
    t = ctx.t
    base = ctx.model_dir("bodies", {1: "plus1"})
    args = ["--model_name", "m", "--model_base_path", base, "--max_request_bytes", str(4 << 20),
            "--max_buffered_request_bytes", str(8 << 20), "--request_read_timeout_seconds", "20"]
    with ctx.server(args) as srv:
        rss0 = rss_bytes(srv.proc.pid)
        socks, refused = [], 0
        chunk = b"[" + b"1.0," * (1 << 18)  # 1 MiB of a body that never ends
        for i in range(12):
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
            s.sendall(b"POST /v1/models/m:predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      + f"Content-Length: {3 << 20}\r\n\r\n".encode() + b'{"instances": ')
            try:
                for _ in range(3):
                    s.sendall(chunk[: (3 << 20) // 3 - 16])
            except OSError:
                pass
            socks.append(s)
        time.sleep(1.0)
        for s in socks:
            s.settimeout(0.5)
            try:
                refused += s.recv(200).startswith(b"HTTP/1.1 503")
            except OSError:
                pass
        grown = rss_bytes(srv.proc.pid) - rss0
        for s in socks:
            s.close()
        t.check(refused >= 6, "bodies beyond the buffer budget are answered 503", refused)
        t.check(grown < 40 << 20, "memory stays within the budget", grown)
        buffered = sl.wait_for(lambda: metric(srv, "hlorun_http_buffered_request_bytes") == 0, 10)
        t.check(buffered, "the budget is given back when the connections close")
        r = srv.post("/v1/models/m:predict", json={"instances": [[1.0, 2.0]]})
        t.check(r.status_code == 200, "predictions still work", r.text[:200])


def section_runs(ctx):
    """Finding 5: output bound before running, a deadline per request, clients that went away."""
    t = ctx.t
    for key in ("loop", "wide"):
        if key not in ctx.artifacts:
            out = ctx.path(f"{key}.hlo")
            sl.export(ctx.bin, os.path.join(sl.DATA, f"{key}.mlir"), out)
            ctx.artifacts[key] = out
    base_wide = ctx.model_dir("wide", {1: "wide"})
    base_loop = ctx.model_dir("loop", {1: "loop"})
    config = ctx.path("runs.config")
    rest_api.write_config(config, [{"name": "wide", "base_path": base_wide}, {"name": "loop", "base_path": base_loop}])
    args = ["--model_config_file", config, "--max_output_bytes", str(1 << 20), "--rest_api_timeout_in_ms", "1500",
            "--rest_api_num_threads", "1"]
    with ctx.server(args) as srv:
        rows = 63  # 63 x 4096 x 4 bytes = 1032192 < 1 MiB; 64 rows = 1 MiB + 0; 65 rows over
        r = srv.post("/v1/models/wide:predict", json={"instances": [[1.0]] * rows})
        t.check(r.status_code == 200, "outputs under --max_output_bytes are answered", r.status_code)
        start = time.monotonic()
        r = srv.post("/v1/models/wide:predict", json={"instances": [[1.0]] * 300})
        t.check(r.status_code == 429 and "over the limit of 1048576" in r.text, "larger outputs are refused before running",
                (r.status_code, r.text[:300]))
        t.check(time.monotonic() - start < 1, "at once")
        start = time.monotonic()
        r = srv.post("/v1/models/loop:predict", json={"instances": [[100000000000]]})
        took = time.monotonic() - start
        t.check(r.status_code == 504 and "deadline" in r.text.lower(), "a run past the deadline is answered 504",
                (r.status_code, r.text[:300]))
        t.check(took < 5, "within the deadline and a tick", took)
        r = srv.post("/v1/models/loop:predict", json={"instances": [[3]]})
        t.check(r.status_code == 200 and r.json() == {"predictions": [[3]]}, "the model runs again after it",
                r.text[:200])
        # A client that gives up: its run is cancelled, so the one worker is free for the next.
        gone0 = metric(srv, "hlorun_http_client_disconnects_total")
        body = b'{"instances": [[100000000000]]}'
        s = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
        s.sendall(b"POST /v1/models/loop:predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        time.sleep(0.3)
        s.close()
        start = time.monotonic()
        r = srv.post("/v1/models/loop:predict", json={"instances": [[2]]})
        took = time.monotonic() - start
        t.check(r.status_code == 200 and took < 1.2, "a gone client's run is cancelled", (r.status_code, took))
        t.check(metric(srv, "hlorun_http_client_disconnects_total") > gone0, "and counted")


def section_framing(ctx):
    """Finding 6: smuggling shapes, transfer codings, %00."""
    t = ctx.t
    base = ctx.model_dir("frame", {1: "plus1"})
    with ctx.server(["--model_name", "tiny", "--model_base_path", base]) as srv:
        body = b'{"instances": [[1.0, 2.0]]}'
        head = b"POST /v1/models/tiny:predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        cases = [
            ("two different Content-Length headers", b"Content-Length: %d\r\nContent-Length: 5\r\n\r\n" % len(body),
             400),
            ("two equal Content-Length headers", b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n" %
             (len(body), len(body)), 400),
            ("chunked and Content-Length", b"Transfer-Encoding: chunked\r\nContent-Length: %d\r\n\r\n" % len(body),
             400),
            ("Transfer-Encoding: gzip, chunked", b"Transfer-Encoding: gzip, chunked\r\n\r\n", 501),
            ("Transfer-Encoding: identity", b"Transfer-Encoding: identity\r\n\r\n", 501),
            ("a non-numeric Content-Length", b"Content-Length: 1e3\r\n\r\n", 400),
        ]
        for what, headers, want in cases:
            code, got, took = raw_exchange(srv.port, head + headers + body, timeout=10)
            t.check(code == want and took < 3, what, (code, took, got[:200]))
        code, got, _ = raw_exchange(srv.port, b"GET /v1/models/tiny%00x HTTP/1.1\r\nHost: x\r\n\r\n")
        t.check(code == 400, "%00 in the URL is refused", got[:300])
        code, got, _ = raw_exchange(srv.port, b"GET /v1/models/tiny%2500x HTTP/1.1\r\nHost: x\r\n\r\n")
        t.check(code == 404, "an encoded percent sign is just a character", got[:300])
        bad_utf8 = b'{"instances": [[1.0, 2.0]], "ignored\xff\xfe": 1}'
        r = srv.post("/v1/models/tiny:predict", data=bad_utf8, headers={"Content-Type": "application/json"})
        t.check(r.status_code == 400 and "UTF-8" in r.text, "invalid UTF-8 in an ignored key is refused", r.text)
        r = srv.post("/v1/models/tiny:predict", data=body)
        t.check(r.status_code == 200, "the server still answers", r.text[:200])


def section_repository(ctx):
    """Finding 6 (a corrupt newest version) and the model-repository classes: symlinks and hard
    links out of the model root, paths in error messages."""
    t = ctx.t
    base = ctx.model_dir("repo", {1: "plus1", 2: "plus2"})
    rest_api.sl.corrupt_copy(ctx.artifact("plus3"), ctx.path("corrupt3.hlo"))
    sl.install_version(base, 3, ctx.path("corrupt3.hlo"))
    outside = ctx.path("outside")
    os.makedirs(outside, exist_ok=True)
    with open(ctx.artifact("plus4"), "rb") as f, open(os.path.join(outside, "m.hlo"), "wb") as g:
        g.write(f.read())
    with ctx.server(["--model_name", "repo", "--model_base_path", base, "--file_system_poll_wait_seconds", "1"]) as srv:
        r = srv.post("/v1/models/repo:predict", json={"instances": [[1.0, 2.0]]})
        t.check(r.status_code == 200 and r.json() == {"predictions": [[3.0, 4.0]]},
                "a corrupt newest version leaves the next one serving", r.text[:300])
        states = sl.version_states(srv, "repo") or {}
        t.check(states.get("3") == "END" and states.get("2") == "AVAILABLE", "status shows both", states)
        status = srv.get("/v1/models/repo").text
        t.check(ctx.work not in status and "repo/3/model.hlo" in status, "status errors show no server paths",
                status[:600])
        # a symbolic link to a file outside the base path, then a hard link
        os.makedirs(os.path.join(base, "5"))
        os.symlink(os.path.join(outside, "m.hlo"), os.path.join(base, "5", "model.hlo"))
        t.check(sl.wait_for(lambda: (sl.version_states(srv, "repo") or {}).get("5") == "END", 10),
                "a symbolic link out of the base path is refused", srv.log_tail())
        t.check("outside the model's base path" in srv.get("/v1/models/repo/versions/5").text, "and says so")
        os.makedirs(os.path.join(base, "6"))
        os.link(os.path.join(outside, "m.hlo"), os.path.join(base, "6", "model.hlo"))
        t.check(sl.wait_for(lambda: (sl.version_states(srv, "repo") or {}).get("6") == "END", 10),
                "a hard link to a file elsewhere is refused", srv.log_tail())
        t.check("hard links" in srv.get("/v1/models/repo/versions/6").text, "and says so")
        # a link inside the base path is fine
        os.makedirs(os.path.join(base, "7"))
        os.symlink(os.path.join(base, "2", "model.hlo"), os.path.join(base, "7", "model.hlo"))
        t.check(sl.wait_available(srv, "repo", 7, 10), "a symbolic link within the base path is served",
                srv.log_tail())
        r = srv.post("/v1/models/repo/versions/7:predict", json={"instances": [[1.0]]})
        t.check(r.status_code == 400 and ctx.work not in r.text, "predict errors show no server paths", r.text[:300])


def section_requests(ctx):
    """Request classes: header floods, chunk sizes, numbers, traversal in the URL."""
    t = ctx.t
    base = ctx.model_dir("req", {1: "two_io"})
    with ctx.server(["--model_name", "req", "--model_base_path", base]) as srv:
        rss0 = rss_bytes(srv.proc.pid)
        flood = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-F%d: %s\r\n" % (i, b"a" * 200)
                                                                  for i in range(2000)) + b"\r\n"
        for _ in range(20):
            code, got, _ = raw_exchange(srv.port, flood, timeout=5)
        t.check(code is None or 400 <= code < 500, "a header flood gets a 4xx or a closed connection", got[:200])
        t.check(rss_bytes(srv.proc.pid) - rss0 < 16 << 20, "with flat memory")
        huge_chunk = (b"POST /v1/models/req:predict HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                      b"fffffffffffffffffff\r\nabc\r\n")
        code, got, _ = raw_exchange(srv.port, huge_chunk, timeout=5)
        t.check(code is None or 400 <= code < 500, "an overflowing chunk size is refused", got[:200])
        tiny_chunks = b"".join(b"1\r\n \r\n" for _ in range(500000))  # 3 MB of 6-byte chunks
        code, got, _ = raw_exchange(srv.port, b"POST /v1/models/req:predict HTTP/1.1\r\nHost: x\r\n"
                                    b"Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
                                    + tiny_chunks + b"0\r\n\r\n", timeout=20)
        t.check(code in (400, 413), "3 MB of 6-byte chunks get a clean answer", got[:200])
        for value in ("-1e30", "99999999999", "-99999999999", "1.5", "1e400", "-0"):
            body = '{"inputs": {"x": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "k": [[%s, 1, 1], [1, 1, 1]]}}' % value
            r = srv.post("/v1/models/req:predict", data=body)
            want = (200,) if value == "-0" else (400,)
            t.check(r.status_code in want, f"integer input {value}", (r.status_code, r.text[:200]))
        for path in ("/v1/models/../../etc/passwd", "/v1/models/%2e%2e%2f%2e%2e%2fetc", "/v1/models//etc/passwd",
                     "/v1/models/req/versions/-1", "/v1/models/req/versions/99999999999999999999999"):
            code, got, _ = raw_exchange(srv.port, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            t.check(code in (400, 404), f"GET {path}", got[:200])
        t.check(srv.proc.poll() is None and srv.get("/healthz").status_code == 200, "the server is fine after all")


SECTIONS = [
    ("rewrite", section_rewrite),
    ("huge", section_huge),
    ("slowloris", section_slowloris),
    ("bodies", section_bodies),
    ("runs", section_runs),
    ("framing", section_framing),
    ("repository", section_repository),
    ("requests", section_requests),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--pidfile", required=True)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    ctx = rest_api.Ctx(args)
    only = [x for x in args.only.split(",") if x]
    for name, fn in SECTIONS:
        if only and name not in only:
            continue
        ctx.t.begin(name)
        try:
            fn(ctx)
        except Exception as e:  # a section that breaks is one failure, the others still run
            ctx.t.check(False, f"section {name} raised", repr(e)[:400])
    return ctx.t.summary()


if __name__ == "__main__":
    sys.exit(main())
