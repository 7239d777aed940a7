#!/usr/bin/python3
"""End-to-end tests of hlorun.GenerationService/Generate, the server-streaming generation call
(proto/hlorun/generation.proto), driven by grpcio stubs generated from proto/ (grpc_tools.protoc,
into the work directory); run by test_grpc_generate.sh through run_python.sh, which kills every
server it started.

  grpc_generate.py --bin HLORUN --work DIR --pidfile FILE --root SOURCE_DIR

One server on 127.0.0.1 serves the TinyTransformer's generation module as "tiny" and an affine
model that does not generate as "plus"; the checks:
  - greedy, 60 tokens, two prompts: the tokens streamed (more than one message, then one with
    done = true and the counts) equal a non-streaming REST :generate with the same parameters,
    and so do prompt_tokens given as ids, and 16 calls at once on one channel; a stop string
    ends it as REST's does; max_tokens absent is 16;
  - a sampled request with a seed gives the same tokens twice, and REST's with the same seed;
  - errors: unknown model or version NOT_FOUND, a model without @prefill/@decode, no prompt,
    both prompt kinds, too many stop strings, a bad top_p: INVALID_ARGUMENT (trailers-only);
  - a client cancelling mid-stream or closing its channel: the server stays healthy, and
    hlorun_generate_active_slots returns to 0 within a few seconds; a grpc-timeout ends a long
    stream DEADLINE_EXCEEDED; 8 clients at once ending their calls in all these ways; request
    and generation metrics count the calls;
  - SIGTERM with a stream in progress: the server exits 0 promptly, the stream ends;
  - the same over a bare HTTP/2 connection (a second server): the first GOAWAY refuses no stream,
    and a call opened before the client acknowledges the PING that follows it is answered (with
    trailers, no generation) and named by the last GOAWAY.
"""
import argparse
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

import grpc

import serverlib as sl
from grpc_client import generate_stubs

TIMEOUT = 30  # seconds for one call
PROMPTS = [b"The quick brown fox ", b"Once upon a time"]


class Ctx:
    """The binary, the work directory, the server, the tally and the generated modules."""

    def __init__(self, args):
        self.bin = args.bin
        self.work = args.work
        self.pidfile = args.pidfile
        self.root = args.root
        self.t = sl.Tally()
        generate_stubs(os.path.join(self.work, "stubs"))
        from hlorun import generation_pb2, generation_pb2_grpc
        self.pb = generation_pb2
        self.pb_grpc = generation_pb2_grpc

    def serve(self):
        """Exports the models and starts a server with both; returns it once they are available."""
        weights = os.path.join(self.work, "W.safetensors")
        subprocess.run(["/usr/bin/python3", os.path.join(self.root, "tools/tiny_transformer/tiny_transformer.py"),
                        "weights", weights], check=True, capture_output=True, timeout=120)
        tiny = os.path.join(self.work, "models", "tiny")
        os.makedirs(os.path.join(tiny, "1"))
        sl.export(self.bin, os.path.join(self.root, "examples/tiny_transformer/generate.mlir"),
                  os.path.join(tiny, "1", "model.hlo"), weights)
        plus = os.path.join(self.work, "models", "plus")
        sl.install_version(plus, 1, sl.export(self.bin, sl.versioned_mlir(self.work, 1), os.path.join(self.work, "p.hlo")))
        self.conf = os.path.join(self.work, "models.config")
        with open(self.conf, "w") as f:
            f.write(f'model_config_list {{ config {{ name: "tiny" base_path: "{tiny}" }}\n'
                    f'  config {{ name: "plus" base_path: "{plus}" }} }}\n')
        return self.start("server.log")

    def start(self, log):
        """Starts a server with the exported models (serve); returns it once they are available."""
        srv = sl.Server(self.bin, ["--model_config_file", self.conf], self.pidfile, os.path.join(self.work, log))
        for name in ("tiny", "plus"):
            if not sl.wait_available(srv, name, 1):
                raise RuntimeError(f"model {name} did not load:\n{srv.log_tail()}")
        return srv

    def request(self, model="tiny", prompt=None, tokens=None, max_tokens=None, temperature=0.0, top_k=0,
                top_p=0.0, seed=None, stop=(), version=None):
        """A GenerateRequest."""
        r = self.pb.GenerateRequest(temperature=temperature, top_k=top_k, top_p=top_p, stop=list(stop))
        r.model_spec.name = model
        if version is not None:
            r.model_spec.version.value = version
        if prompt is not None:
            r.prompt = prompt
        if tokens is not None:
            r.prompt_tokens.extend(tokens)
        if max_tokens is not None:
            r.max_tokens.value = max_tokens
        if seed is not None:
            r.seed.value = seed
        return r


def stub(srv, options=()):
    """A channel to the server's gRPC port (grpcio channel options) and a GenerationService stub on it."""
    from hlorun import generation_pb2_grpc
    channel = grpc.insecure_channel(f"127.0.0.1:{srv.grpc_port}", options=list(options))
    return channel, generation_pb2_grpc.GenerationServiceStub(channel)


def stream(gen, req, timeout=TIMEOUT):
    """Calls Generate; returns (code, messages, details): code None when it ended OK."""
    msgs = []
    try:
        for m in gen.Generate(req, timeout=timeout):
            msgs.append(m)
        return None, msgs, ""
    except grpc.RpcError as e:
        return e.code(), msgs, e.details()


def tokens_of(msgs):
    return [t for m in msgs for t in m.tokens]


def rest_generate(srv, **body):
    r = srv.post("/v1/models/tiny:generate", json=body)
    return r.status_code, r.json()


def metrics(srv):
    samples, _ = sl.parse_prometheus(srv.get("/monitoring/prometheus/metrics").text)
    return samples


def metric(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())), 0.0)


def active_slots(srv):
    return metric(metrics(srv), "hlorun_generate_active_slots", model="tiny")


def check_stream(t, what, code, msgs, details):
    """Checks an OK stream: tokens in every message but the last, which is done and counts them."""
    if not t.check(code is None, f"{what}: OK", (code, details)):
        return False
    last = msgs[-1] if msgs else None
    t.check(len(msgs) > 1, f"{what}: more than one message", len(msgs))
    t.check(last is not None and last.done and not any(m.done for m in msgs[:-1]), f"{what}: done last only")
    t.check(last is not None and last.completion_tokens == len(tokens_of(msgs)), f"{what}: completion_tokens",
            (last, len(tokens_of(msgs))))
    t.check(all(m.text == bytes(m.tokens) for m in msgs), f"{what}: text is the tokens' bytes")
    return True


def section_generate(ctx, srv, gen):
    t = ctx.t
    t.begin("generate")
    for i, prompt in enumerate(PROMPTS):
        code, msgs, details = stream(gen, ctx.request(prompt=prompt, max_tokens=60))
        if not check_stream(t, f"greedy prompt {i}", code, msgs, details):
            continue
        last = msgs[-1]
        t.check(last.finish_reason == "length" and last.prompt_tokens == len(prompt), f"greedy prompt {i}: counts",
                last)
        t.check(last.time_to_first_token_ms > 0 and last.tokens_per_second > 0, f"greedy prompt {i}: timings", last)
        status, rest = rest_generate(srv, prompt=prompt.decode(), max_tokens=60, temperature=0)
        t.check(status == 200 and rest.get("tokens") == tokens_of(msgs), f"greedy prompt {i}: equals REST",
                (tokens_of(msgs), sl.short(rest)))
        code, by_id, details = stream(gen, ctx.request(tokens=list(prompt), max_tokens=60))
        t.check(code is None and tokens_of(by_id) == tokens_of(msgs), f"greedy prompt {i}: prompt_tokens", details)
    # 16 calls at once on one channel (interleaved on one connection, batched in the engine)
    want = {p: tokens_of(stream(gen, ctx.request(prompt=p, max_tokens=60))[1]) for p in PROMPTS}
    got = [None] * 16

    def one(i):
        got[i] = stream(gen, ctx.request(prompt=PROMPTS[i % 2], max_tokens=60))

    threads = [threading.Thread(target=one, args=(i,)) for i in range(16)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(TIMEOUT)
    t.check(all(r and r[0] is None and tokens_of(r[1]) == want[PROMPTS[i % 2]] for i, r in enumerate(got)),
            "16 calls at once equal the same calls one by one", [r and (r[0], r[2]) for r in got])
    # a stop string taken from the greedy text: REST stops at the same place
    code, msgs, _ = stream(gen, ctx.request(prompt=PROMPTS[0], max_tokens=60))
    text = b"".join(m.text for m in msgs)
    stop = text[20:23]
    code, msgs, details = stream(gen, ctx.request(prompt=PROMPTS[0], max_tokens=60, stop=[stop.decode("latin-1")]))
    want = rest_generate(srv, prompt=PROMPTS[0].decode(), max_tokens=60, temperature=0, stop=[stop.decode("latin-1")])[1]
    t.check(code is None and msgs and msgs[-1].finish_reason == want.get("finish_reason") == "stop" and
            tokens_of(msgs) == want.get("tokens"), "a stop string ends it as REST's does", (details, sl.short(want)))
    # the default max_tokens is 16
    code, msgs, details = stream(gen, ctx.request(prompt=PROMPTS[1]))
    t.check(code is None and len(tokens_of(msgs)) == 16, "max_tokens absent: 16 tokens", (details, len(msgs)))
    # sampling: a seed gives the same tokens every time, and REST's (values exact in float32)
    params = dict(max_tokens=60, temperature=0.75, top_k=40, top_p=0.875, seed=1234)
    runs = [stream(gen, ctx.request(prompt=PROMPTS[1], **params)) for _ in range(2)]
    for k, (code, msgs, details) in enumerate(runs):
        check_stream(t, f"sampled run {k}", code, msgs, details)
    a, b = tokens_of(runs[0][1]), tokens_of(runs[1][1])
    t.check(a and a == b, "a seed gives the same tokens twice", (a, b))
    t.check(runs[0][1] and runs[0][1][-1].seed == 1234, "the last message carries the seed")
    status, rest = rest_generate(srv, prompt=PROMPTS[1].decode(), **params)
    t.check(status == 200 and rest.get("tokens") == a, "sampled tokens equal REST's", sl.short(rest))


def section_errors(ctx, srv, gen):
    t = ctx.t
    t.begin("errors")
    cases = [
        ("unknown model", ctx.request(model="nope", prompt=b"x"), grpc.StatusCode.NOT_FOUND, "nope"),
        ("unknown version", ctx.request(prompt=b"x", version=7), grpc.StatusCode.NOT_FOUND, ""),
        ("a model that does not generate", ctx.request(model="plus", prompt=b"x"),
         grpc.StatusCode.INVALID_ARGUMENT, "does not generate"),
        ("no prompt", ctx.request(), grpc.StatusCode.INVALID_ARGUMENT, "no prompt"),
        ("both prompts", ctx.request(prompt=b"x", tokens=[1]), grpc.StatusCode.INVALID_ARGUMENT, "both"),
        ("five stop strings", ctx.request(prompt=b"x", stop=["a"] * 5), grpc.StatusCode.INVALID_ARGUMENT, "stop"),
        ("top_p above 1", ctx.request(prompt=b"x", top_p=2.0), grpc.StatusCode.INVALID_ARGUMENT, "top_p"),
        ("a token outside the vocabulary", ctx.request(tokens=[300]), grpc.StatusCode.INVALID_ARGUMENT, "300"),
        ("a prompt longer than the context", ctx.request(prompt=b"x" * 1000), grpc.StatusCode.INVALID_ARGUMENT,
         "1000"),
    ]
    for what, req, want, text in cases:
        code, msgs, details = stream(gen, req)
        t.check(code == want and not msgs and text in (details or ""), f"{what}: {want.name}", (code, details))
    code, _, details = stream(gen, ctx.pb.GenerateRequest(prompt=b"x"))
    t.check(code == grpc.StatusCode.INVALID_ARGUMENT and "ModelSpec" in details, "no model_spec", (code, details))
    raw = grpc.insecure_channel(f"127.0.0.1:{srv.grpc_port}")
    call = raw.unary_stream("/hlorun.GenerationService/Generate", request_serializer=None, response_deserializer=None)
    try:
        list(call(b"\x0a\x05\x0a\x04tiny\x12\xff", timeout=TIMEOUT))
        code = None
    except grpc.RpcError as e:
        code = e.code()
    t.check(code == grpc.StatusCode.INVALID_ARGUMENT, "malformed protobuf: INVALID_ARGUMENT", code)
    raw.close()


def cancel_round(ctx, srv, gen):
    """Cancels one stream after its first message and closes another's channel mid-stream; returns how
    many generations ended cancelled and how many ran to their length, or None when slots stay busy."""
    before = metrics(srv)
    call = gen.Generate(ctx.request(prompt=PROMPTS[0], max_tokens=240), timeout=TIMEOUT)
    first = next(call)
    call.cancel()
    ctx.t.check(len(first.tokens) > 0, "the first message came before the cancel")
    channel, other = stub(srv)
    call2 = other.Generate(ctx.request(prompt=PROMPTS[1], max_tokens=240), timeout=TIMEOUT)
    next(call2)
    channel.close()
    if not sl.wait_for(lambda: active_slots(srv) == 0, 5):
        return None
    after = metrics(srv)
    return {why: metric(after, "hlorun_generate_requests_total", model="tiny", finish_reason=why) -
            metric(before, "hlorun_generate_requests_total", model="tiny", finish_reason=why)
            for why in ("cancelled", "length")}


def section_cancel(ctx, srv, gen):
    t = ctx.t
    t.begin("cancel")
    before = metrics(srv)
    # a generation takes some 0.2 s and is cancelled some 20 ms in; a loaded machine (ctest -j2 on 2 cores)
    # may stall this client long enough for both to end first, so the pair is tried up to 3 times
    rounds = []
    for _ in range(3):
        ended = cancel_round(ctx, srv, gen)
        rounds.append(ended)
        if ended is None or ended["cancelled"] >= 1:
            break
    t.check(ended is not None, "active slots return to 0 after the cancels", active_slots(srv))
    t.check(all(e is not None and e["cancelled"] + e["length"] == 2 for e in rounds) and
            ended is not None and ended["cancelled"] >= 1, "the requests ended cancelled", rounds)
    code, msgs, details = stream(gen, ctx.request(prompt=PROMPTS[0], max_tokens=20))
    t.check(code is None and len(tokens_of(msgs)) == 20, "the server still generates", details)
    t.check(srv.get("/v1/models/tiny").status_code == 200, "REST still answers")
    # a deadline (grpc-timeout) ends a long stream (or, on a machine fast enough, it ends first)
    code, msgs, details = stream(gen, ctx.request(prompt=PROMPTS[0], max_tokens=240), timeout=0.05)
    t.check(code == grpc.StatusCode.DEADLINE_EXCEEDED or (code is None and len(tokens_of(msgs)) == 240),
            "grpc-timeout: DEADLINE_EXCEEDED", (code, details, len(msgs)))
    t.check(sl.wait_for(lambda: active_slots(srv) == 0, 5), "active slots return to 0 after the deadline")
    # 8 clients at once, each with 6 calls that end one way or another: read to the end, cancelled,
    # channel closed, past a short deadline
    outcomes = []

    def client(seed):
        rnd = random.Random(seed)
        for _ in range(6):
            mode = rnd.choice(["read", "cancel", "close", "deadline"])
            channel, g = stub(srv)
            req = ctx.request(prompt=b"abc" * rnd.randint(1, 20), max_tokens=rnd.randint(1, 200), temperature=0.9)
            try:
                call = g.Generate(req, timeout=0.03 if mode == "deadline" else TIMEOUT)
                for n, _ in enumerate(call):
                    if mode == "cancel" and n == 2:
                        call.cancel()
                    if mode == "close" and n == 1:
                        channel.close()
                outcomes.append("ok")
            except grpc.RpcError as e:
                outcomes.append("ok" if mode != "read" else f"read: {e.code()} {e.details()}")
            channel.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(TIMEOUT)
    t.check(outcomes == ["ok"] * 48, "calls read, cancelled, closed and expired at once", outcomes)
    t.check(sl.wait_for(lambda: active_slots(srv) == 0, 5), "active slots return to 0 after them")
    code, msgs, details = stream(gen, ctx.request(prompt=PROMPTS[1], max_tokens=20))
    t.check(code is None and len(tokens_of(msgs)) == 20, "the server still generates after them", details)
    samples = metrics(srv)
    t.check(metric(samples, ":tensorflow:serving:request_count", model_name="tiny", status="OK") > 0,
            "request_count counts Generate calls")
    t.check(metric(samples, "hlorun_generate_tokens_total", model="tiny") >
            metric(before, "hlorun_generate_tokens_total", model="tiny"), "hlorun_generate_tokens_total grows")


def section_stop(ctx, srv, _gen):
    t = ctx.t
    t.begin("stop")
    # The calls go on a channel of their own without transparent retries. grpcio (1.51) retries a
    # call whose stream a GOAWAY came before it wrote (the call was routed to the connection just
    # before the client read the GOAWAY); when that retry finds the listener closed, the call can
    # be left waiting forever: its status known, its pending receive never completed, its deadline
    # no longer armed. The server refuses no stream the client opened before it read the shutdown
    # notice (grpc.c, quiesce_now), so a call ends here as it would with retries, minus that hang.
    channel, gen = stub(srv, [("grpc.enable_retries", 0)])
    got = {}
    started = threading.Event()

    def run(i):
        msgs = []
        try:
            for m in gen.Generate(ctx.request(prompt=PROMPTS[i], max_tokens=240), timeout=TIMEOUT):
                msgs.append(m)
                started.set()
            got[i] = (None, msgs)
        except grpc.RpcError as e:
            got[i] = (e.code(), msgs)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(2)]
    for th in threads:
        th.start()
    t.check(started.wait(TIMEOUT), "a stream is in progress")
    t0 = time.monotonic()
    rc = srv.stop(signal.SIGTERM, timeout=30)
    took = time.monotonic() - t0
    t.check(rc == 0, "SIGTERM with a stream in progress: exit 0", (rc, srv.log_tail()))
    t.check(took < 15, "the server stops promptly", took)
    for th in threads:
        th.join(10)
    # each ends whole: cancelled by the stop (or done before it), or refused once the server went away
    for i in range(2):
        code, msgs = got.get(i, ("hung", []))
        last = msgs[-1] if msgs else None
        t.check((code is None and last.done and last.finish_reason in ("cancelled", "length")) or
                code == grpc.StatusCode.UNAVAILABLE, f"stream {i} ends cancelled", (code, last))
    channel.close()


class RawH2:
    """A bare HTTP/2 client connection (h2c, prior knowledge) that sends what a gRPC client's
    transport would, frame by frame, and reads the server's frames one at a time: what grpcio's
    channel hides (GOAWAY's last-stream-id, PING, which stream got which frame)."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + self.frame(H2_SETTINGS, 0, 0, b""))

    @staticmethod
    def frame(kind, flags, stream, payload):
        return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload

    def call(self, stream, path, message):
        """Opens a call: HEADERS (HPACK literals, never indexed) and its one length-prefixed message."""
        block = b""
        for name, value in ((":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "h"),
                            ("content-type", "application/grpc"), ("te", "trailers")):
            block += b"\x00" + bytes([len(name)]) + name.encode() + bytes([len(value)]) + value.encode()
        data = b"\x00" + len(message).to_bytes(4, "big") + message
        self.sock.sendall(self.frame(H2_HEADERS, H2_END_HEADERS, stream, block) +
                          self.frame(H2_DATA, H2_END_STREAM, stream, data))

    def read(self):
        """The next frame as (type, flags, stream, payload); SETTINGS are acknowledged on the way."""
        while True:
            head = self.read_exactly(9)
            kind, flags, stream = head[3], head[4], int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
            payload = self.read_exactly(int.from_bytes(head[:3], "big"))
            if kind == H2_SETTINGS and not flags & H2_ACK:
                self.sock.sendall(self.frame(H2_SETTINGS, H2_ACK, 0, b""))
                continue
            return kind, flags, stream, payload

    def read_exactly(self, n):
        b = b""
        while len(b) < n:
            chunk = self.sock.recv(n - len(b))
            if not chunk:
                raise EOFError("the server closed the connection")
            b += chunk
        return b


H2_DATA, H2_HEADERS, H2_RST_STREAM, H2_SETTINGS, H2_PING, H2_GOAWAY = 0, 1, 3, 4, 6, 7
H2_END_STREAM, H2_ACK, H2_END_HEADERS = 1, 1, 4
H2_ANY_STREAM = 2**31 - 1  # a GOAWAY that refuses no stream (the shutdown notice)
GENERATE = "/hlorun.GenerationService/Generate"


def section_stop_h2(ctx, _srv, _gen):
    """A graceful stop over a bare HTTP/2 connection: a first GOAWAY that refuses no stream, then a
    PING; a call opened before the client acknowledges that PING (one a client sent before it read
    the GOAWAY) is answered, not refused: a gRPC client would retry a refused one elsewhere."""
    t = ctx.t
    t.begin("stop over HTTP/2")
    srv = ctx.start("server_h2.log")
    h2 = RawH2(srv.grpc_port)
    request = ctx.request(prompt=PROMPTS[0], max_tokens=240).SerializeToString()
    h2.call(1, GENERATE, request)
    frames = []
    try:
        while not any(f[0] == H2_DATA and f[2] == 1 for f in frames):
            frames.append(h2.read())
        srv.proc.send_signal(signal.SIGTERM)
        while not any(f[0] == H2_GOAWAY for f in frames):
            frames.append(h2.read())
        goaway = [f for f in frames if f[0] == H2_GOAWAY][0]
        t.check(int.from_bytes(goaway[3][:4], "big") == H2_ANY_STREAM, "the first GOAWAY refuses no stream",
                int.from_bytes(goaway[3][:4], "big"))
        while not any(f[0] == H2_PING and not f[1] & H2_ACK for f in frames):
            frames.append(h2.read())
        ping = [f for f in frames if f[0] == H2_PING and not f[1] & H2_ACK][0]
        h2.call(3, GENERATE, request)
        h2.sock.sendall(h2.frame(H2_PING, H2_ACK, 0, ping[3]))
        while True:
            frames.append(h2.read())
    except (EOFError, OSError) as e:
        frames.append(("closed", 0, 0, type(e).__name__))
    rc = srv.stop(signal.SIGTERM, timeout=30)
    t.check(rc == 0, "SIGTERM with bare HTTP/2 calls: exit 0", (rc, srv.log_tail()))
    last = [int.from_bytes(f[3][:4], "big") for f in frames if f[0] == H2_GOAWAY][-1:]
    t.check(last == [3], "the last GOAWAY names the call opened before the PING's ACK", last)
    for stream, what in ((1, "the generation in progress"), (3, "the call opened during the stop")):
        ended = [f for f in frames if f[2] == stream and f[0] in (H2_HEADERS, H2_RST_STREAM) and
                 (f[0] == H2_RST_STREAM or f[1] & H2_END_STREAM)]
        t.check(ended and ended[0][0] == H2_HEADERS, f"{what} is answered with trailers", ended)
    t.check(not any(f[0] == H2_DATA and f[2] == 3 for f in frames),
            "the call opened during the stop starts no generation")
    h2.sock.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--pidfile", required=True)
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    ctx = Ctx(args)
    srv = ctx.serve()
    channel, gen = stub(srv)
    for section in (section_generate, section_errors, section_cancel, section_stop_h2, section_stop):
        try:
            section(ctx, srv, gen)
        except Exception as e:  # noqa: BLE001 - one section's crash is one failure
            ctx.t.check(False, f"section {section.__name__} raised", f"{type(e).__name__}: {e}")
    channel.close()
    srv.stop()
    return ctx.t.summary()


if __name__ == "__main__":
    sys.exit(main())
