"""Soak test of `hlorun serve`, loopback only and bounded: a stream of mixed requests (valid
predictions, malformed ones, slow clients, oversized bodies and outputs, requests past their
deadline, smuggling shapes, status and metrics reads) while the model is hot-reloaded over and
over, half the time by installing a new version directory and half by rewriting the served file in
place. Reports requests served, answers by class, and the server's RSS, open file descriptors and
threads at the start and the end, and fails when a valid request fails, the server dies, or the
resources do not come back to where they started.

The default (18,000 requests, 100 reloads) is 30 minutes of traffic at 10 requests a second,
sent as fast as the server answers them.

  soak.py --bin build/rel/hlorun --work DIR --pidfile F [--requests N] [--reloads N] [--clients N]
          [--no-rss-check]
"""
import argparse
import os
import random
import shutil
import socket
import sys
import threading
import time

import requests

import hardening
import rest_api
import serverlib as sl

PLUS_BODY = {"instances": [[1.0, 2.0], [3.0, 4.0]]}


def classify(kind, code):
    """The class an answer falls in: ok, refused (the 4xx/503/504 the request asked for) or bad."""
    if kind == "valid":
        return "ok" if code == 200 else "bad"
    if kind in ("status", "metrics"):
        return "ok" if code == 200 else "bad"
    if code is None:
        return "closed"  # the server closed the connection, as it does for some attacks
    return "refused" if 400 <= code < 600 and code not in (500,) else "bad"


class Soak:
    def __init__(self, ctx, srv, base, n_requests, n_reloads, n_clients, seed):
        self.ctx, self.srv, self.base = ctx, srv, base
        self.left = n_requests
        self.n_reloads = n_reloads
        self.n_clients = n_clients
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.counts = {}
        self.bad = []
        self.reloads = 0
        self.done = threading.Event()

    def take(self):
        with self.lock:
            if self.left <= 0:
                return False
            self.left -= 1
            return True

    def record(self, kind, code, detail=""):
        cls = classify(kind, code)
        with self.lock:
            key = (kind, cls)
            self.counts[key] = self.counts.get(key, 0) + 1
            if cls == "bad" and len(self.bad) < 20:
                self.bad.append((kind, code, detail[:200]))

    # ---- one request of each kind ----

    def valid(self, session):
        r = session.post(self.srv.url + "/v1/models/m:predict", json=PLUS_BODY, timeout=30)
        return r.status_code, r.text

    def invalid(self, session):
        body = self.rng.choice(['{"instances": [[1.0]]}', '{"instances": ', '{"inputs": {"nope": [1]}}',
                                '[1, 2]', '{"instances": [["a", "b"]]}', '{"instances": [[1e999, 1]]}'])
        path = self.rng.choice(["/v1/models/m:predict", "/v1/models/missing:predict", "/v1/models/m/versions/999:predict"])
        r = session.post(self.srv.url + path, data=body, timeout=30)
        return r.status_code, r.text

    def slow(self, session):
        """A client that trickles its headers and gives up after a while."""
        s = socket.create_connection(("127.0.0.1", self.srv.port), timeout=5)
        try:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            for _ in range(self.rng.randint(1, 4)):
                time.sleep(0.25)
                s.sendall(b"X")
        except OSError:
            pass
        s.close()
        return None, ""

    def huge(self, session):
        which = self.rng.randrange(6)
        if which < 3:  # a body over --max_request_bytes
            r = session.post(self.srv.url + "/v1/models/m:predict", data=b" " * (2 << 20), timeout=30)
        elif which < 5:  # outputs over --max_output_bytes
            r = session.post(self.srv.url + "/v1/models/wide:predict", json={"instances": [[1.0]] * 200}, timeout=30)
        else:  # a run past the deadline
            r = session.post(self.srv.url + "/v1/models/loop:predict", json={"instances": [[10 ** 12]]}, timeout=30)
        return r.status_code, r.text

    def framing(self, session):
        data = self.rng.choice([
            b"POST /v1/models/m:predict HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 9\r\n\r\nabc",
            b"POST /v1/models/m:predict HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            b"GET /v1/models/m%00x HTTP/1.1\r\nHost: x\r\n\r\n",
        ])
        code, got, _ = hardening.raw_exchange(self.srv.port, data, timeout=5)
        return code, got.decode("latin-1")

    def status(self, session):
        path = self.rng.choice(["/v1/models/m", "/v1/models/m/metadata", "/readyz", "/healthz"])
        r = session.get(self.srv.url + path, timeout=30)
        if path == "/readyz" and r.status_code == 503:
            return 200, ""  # between two versions a reload may briefly leave none AVAILABLE
        return r.status_code, r.text

    def metrics(self, session):
        r = session.get(self.srv.url + "/monitoring/prometheus/metrics", timeout=30)
        return r.status_code, ""

    KINDS = [("valid", 60), ("invalid", 12), ("slow", 3), ("huge", 8), ("framing", 7), ("status", 8), ("metrics", 2)]

    def client(self):
        session = requests.Session()
        names = [k for k, _ in self.KINDS]
        weights = [w for _, w in self.KINDS]
        while self.take():
            kind = self.rng.choices(names, weights)[0]
            try:
                code, text = getattr(self, kind)(session)
            except (requests.RequestException, OSError) as e:
                code, text = None, repr(e)
                session = requests.Session()
            self.record(kind, code, text)

    def reloader(self, artifacts):
        """Spreads the reloads over the run: even ones install a new version directory, odd ones
        rewrite the newest version's file in place (the same bytes or the next version's)."""
        version = 1
        total = max(1, self.left)
        while self.reloads < self.n_reloads and not self.done.is_set():
            with self.lock:
                sent = total - self.left
            if sent < (self.reloads + 1) * total / (self.n_reloads + 1):
                time.sleep(0.05)
                continue
            art = artifacts[self.reloads % len(artifacts)]
            if self.reloads % 2 == 0:
                version += 1
                sl.install_version(self.base, version, art)
            else:
                with open(art, "rb") as f, open(os.path.join(self.base, str(version), "model.hlo"), "wb") as g:
                    g.write(f.read())
            self.reloads += 1
            for old in os.listdir(self.base):  # keep the directory small: the policy serves the latest only
                if old.isdigit() and int(old) < version - 1:
                    shutil.rmtree(os.path.join(self.base, old), ignore_errors=True)


def resources(pid):
    return {"rss_mb": hardening.rss_bytes(pid) / 2 ** 20, "fds": hardening.fd_count(pid),
            "threads": hardening.thread_count(pid)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--pidfile", required=True)
    ap.add_argument("--requests", type=int, default=18000)
    ap.add_argument("--reloads", type=int, default=100)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-rss-check", action="store_true",
                    help="under AddressSanitizer, whose quarantine keeps freed memory (LeakSanitizer checks leaks)")
    args = ap.parse_args()
    ctx = rest_api.Ctx(args)
    t = ctx.t
    t.begin("soak")
    for key in ("loop", "wide"):
        out = ctx.path(f"{key}.hlo")
        sl.export(ctx.bin, os.path.join(sl.DATA, f"{key}.mlir"), out)
        ctx.artifacts[key] = out
    base = ctx.model_dir("m", {1: "plus1"})
    config = rest_api.write_config(ctx.path("soak.config"), [
        {"name": "m", "base_path": base},
        {"name": "wide", "base_path": ctx.model_dir("wide", {1: "wide"})},
        {"name": "loop", "base_path": ctx.model_dir("loop", {1: "loop"})}])
    artifacts = [ctx.artifact(f"plus{v}") for v in (1, 2, 3)]
    srv = ctx.server(["--model_config_file", config, "--file_system_poll_wait_seconds", "1",
                      "--max_request_bytes", str(1 << 20), "--max_output_bytes", str(1 << 20),
                      "--rest_api_timeout_in_ms", "500", "--request_read_timeout_seconds", "2"])
    with srv:
        for _ in range(20):  # warm up the allocator and every code path once
            srv.post("/v1/models/m:predict", json=PLUS_BODY)
        time.sleep(1)
        before = resources(srv.proc.pid)
        soak = Soak(ctx, srv, base, args.requests, args.reloads, args.clients, args.seed)
        start = time.monotonic()
        reloader = threading.Thread(target=soak.reloader, args=(artifacts,), daemon=True)
        reloader.start()
        clients = [threading.Thread(target=soak.client, daemon=True) for _ in range(args.clients)]
        for c in clients:
            c.start()
        for c in clients:
            c.join(timeout=3600)
        soak.done.set()
        reloader.join(timeout=60)
        took = time.monotonic() - start
        time.sleep(3)  # trickling connections are closed (read timeout 2 s), the last reload settles
        after = resources(srv.proc.pid)
        alive = srv.proc.poll() is None
        served = sum(v for (k, c), v in soak.counts.items())
        print(f"requests: {served} in {took:.1f} s ({served / took:.0f}/s), reloads: {soak.reloads}")
        for (kind, cls), v in sorted(soak.counts.items()):
            print(f"  {kind:8s} {cls:8s} {v}")
        print(f"start: RSS {before['rss_mb']:.1f} MiB, {before['fds']} fds, {before['threads']} threads")
        print(f"end:   RSS {after['rss_mb']:.1f} MiB, {after['fds']} fds, {after['threads']} threads")
        t.check(alive, "the server is alive at the end", srv.log_tail())
        t.check(not soak.bad, "no valid request failed and no attack got a 500", soak.bad)
        t.check(soak.reloads == args.reloads, "every reload happened", soak.reloads)
        t.check(args.no_rss_check or after["rss_mb"] <= before["rss_mb"] * 1.25 + 16, "RSS comes back (flat)",
                (before, after))
        t.check(abs(after["fds"] - before["fds"]) <= 2, "file descriptors come back", (before, after))
        t.check(after["threads"] == before["threads"], "threads come back", (before, after))
        t.check(srv.stop() == 0, "SIGTERM ends it cleanly")
    return t.summary()


if __name__ == "__main__":
    sys.exit(main())
