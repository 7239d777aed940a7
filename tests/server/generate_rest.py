#!/usr/bin/python3
"""End-to-end tests of text generation in `hlorun serve` (docs/generation.md), run by
test_generate.sh, which kills every server listed in --pidfile when it exits.

  generate_rest.py --bin HLORUN --work DIR --pidfile FILE [--only SECTION,...] [--clients N]
                   [--rounds N] [--tokens N]

One server serves the TinyTransformer's generation module (examples/tiny_transformer/
generate.mlir exported with weights from tools/tiny_transformer) as model "tiny", 64 slots.
Sections:
  generate    greedy text equals the float64 numpy reference (tools/tiny_transformer/
              tiny_transformer.py generate) byte for byte, 3 prompts x 200 tokens sent at once:
              through :generate as JSON and as Server-Sent Events, and through OpenAI's
              /v1/completions (stream true and false, same text); a seed gives the same sampled
              tokens twice and the same as `hlorun generate --seed`; stop strings and end_byte cut
              the text; bad requests are 400/404; GET /hlorun/models and GET / (the playground);
              the generation metrics count what was generated
  disconnect  a client that closes its stream mid-way frees its slot (active slots back to 0, the
              request counted "cancelled")
  load        --clients streaming clients at once (default 64), every fourth closing its stream
              after a few events, for --rounds rounds: no failed or stuck stream, every finished
              one has its --tokens tokens, no slot left held after a round, and the server's
              resident memory flat from the second round to the last
"""
import argparse
import http.client
import json
import os
import subprocess
import sys
import threading
import time

import rest_api as ra
import serverlib as sl
from serverlib import short

PROMPTS = ["Hello, world", "The quick brown fox jumps over the lazy dog",
           "JAX exports StableHLO; hlorun runs it."]
TOKENS = 200


def tiny_tools(ctx):
    """(python, tiny_transformer.py path, generate.mlir path) of the source tree."""
    src = os.path.dirname(os.path.dirname(sl.HERE))
    return ("/usr/bin/python3", os.path.join(src, "tools", "tiny_transformer", "tiny_transformer.py"),
            os.path.join(src, "examples", "tiny_transformer", "generate.mlir"))


def start_server(ctx):
    """Weights, the exported generation model and a server for it (64 slots, no gRPC)."""
    py, tt, mlir = tiny_tools(ctx)
    weights = ctx.path("w.safetensors")
    subprocess.run([py, tt, "weights", weights], check=True, capture_output=True)
    base = ctx.path("models", "tiny")
    os.makedirs(os.path.join(base, "1"))
    sl.hlorun(ctx.bin, "export", mlir, "--weights", weights, "-o", os.path.join(base, "1", "model.hlo"))
    srv = ctx.server(["--port", "-1", "--model_name", "tiny", "--model_base_path", base, "--generate_slots", "64"])
    ctx.t.check(sl.wait_available(srv, "tiny", 1, timeout=120), "tiny becomes AVAILABLE", srv.log_tail())
    return srv, weights


def reference(ctx, weights, prompt, n):
    """The numpy reference's greedy tokens (float64, incremental: checked against the full forward
    by tiny_transformer.py's own tests)."""
    py, tt, _ = tiny_tools(ctx)
    out = ctx.path(f"ref-{abs(hash(prompt))}.json")
    subprocess.run([py, tt, "generate", weights, "--prompt", prompt, "--max-tokens", str(n), "--incremental",
                    "--json", out], check=True, capture_output=True)
    with open(out) as f:
        return json.load(f)["tokens"]


class Stream:
    """One streaming POST read event by event over http.client (so that it can be closed midway)."""

    def __init__(self, srv, path, body, timeout=120):
        self.conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=timeout)
        self.conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.content_type = self.resp.getheader("Content-Type", "")

    def events(self):
        """Yields each event's data (the text after "data: "), until the stream ends."""
        while True:
            line = self.resp.fp.readline()
            if not line:
                return
            line = line.rstrip(b"\r\n")
            if line.startswith(b"data: "):
                yield line[6:].decode()

    def close(self):
        self.conn.close()


def read_native_stream(srv, body):
    """(tokens, text, number of token events, last event) of a streamed :generate."""
    s = Stream(srv, "/v1/models/tiny:generate", dict(body, stream=True))
    tokens, text, n, last = [], "", 0, None
    for data in s.events():
        ev = json.loads(data)
        if ev.get("done"):
            last = ev
            break
        tokens += ev["tokens"]
        text += ev["text"]
        n += 1
    s.close()
    return tokens, text, n, last


def metric(srv, name, **labels):
    samples, _ = sl.parse_prometheus(srv.get("/monitoring/prometheus/metrics").text)
    return samples.get((name, frozenset(labels.items())), 0.0)


# ---- generate ----

def section_generate(ctx, srv, weights):
    t = ctx.t
    refs = [reference(ctx, weights, p, TOKENS) for p in PROMPTS]
    # three at once, as JSON answers
    answers = [None] * len(PROMPTS)

    def ask(i):
        answers[i] = srv.post("/v1/models/tiny:generate", json={"prompt": PROMPTS[i], "max_tokens": TOKENS}, timeout=120)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(PROMPTS))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    texts = []
    for i, r in enumerate(answers):
        t.check(r.status_code == 200, f"prompt {i}: HTTP {r.status_code}", short(r.text))
        a = r.json() if r.status_code == 200 else {}
        t.check(a.get("tokens") == refs[i], f"prompt {i}: greedy tokens equal the numpy reference",
                short((a.get("tokens", [])[:20], refs[i][:20])))
        t.check(a.get("finish_reason") == "length", f"prompt {i}: finish_reason length", short(a))
        t.check(a.get("usage") == {"prompt_tokens": len(PROMPTS[i]), "completion_tokens": TOKENS},
                f"prompt {i}: usage", short(a.get("usage")))
        texts.append(a.get("text", ""))
    # the same as Server-Sent Events
    for i, p in enumerate(PROMPTS):
        tokens, text, n, last = read_native_stream(srv, {"prompt": p, "max_tokens": TOKENS})
        t.check(tokens == refs[i], f"stream {i}: tokens equal the reference", short(tokens[:20]))
        t.check(text == texts[i], f"stream {i}: text equals the JSON answer's")
        t.check(n >= TOKENS // 2, f"stream {i}: tokens arrive as events ({n})")
        t.check(last and last.get("finish_reason") == "length" and last["usage"]["completion_tokens"] == TOKENS,
                f"stream {i}: the last event says done", short(last))
    # OpenAI's completions, whole and streamed
    body = {"model": "tiny", "prompt": PROMPTS[0], "max_tokens": TOKENS, "temperature": 0}
    r = srv.post("/v1/completions", json=body, timeout=120)
    a = r.json() if r.status_code == 200 else {}
    choice = (a.get("choices") or [{}])[0]
    t.check(r.status_code == 200 and a.get("object") == "text_completion" and a.get("model") == "tiny",
            "completions: an OpenAI text_completion", short(r.text))
    t.check(choice.get("text") == texts[0] and choice.get("finish_reason") == "length", "completions: the same text")
    t.check(a.get("usage", {}).get("total_tokens") == len(PROMPTS[0]) + TOKENS, "completions: usage", short(a.get("usage")))
    s = Stream(srv, "/v1/completions", dict(body, stream=True))
    t.check(s.status == 200 and s.content_type.startswith("text/event-stream"), "completions stream: SSE",
            f"{s.status} {s.content_type}")
    pieces, finish, done = "", None, False
    for data in s.events():
        if data == "[DONE]":
            done = True
            break
        c = json.loads(data)["choices"][0]
        pieces += c["text"]
        finish = c["finish_reason"] or finish
    s.close()
    t.check(pieces == texts[0] and finish == "length" and done, "completions stream: the same text, then [DONE]",
            short((len(pieces), finish, done)))
    section_sampling(ctx, srv, refs[0])
    section_errors(ctx, srv)
    r = srv.get("/hlorun/models")
    t.check(srv.get("/v1/models").status_code == 400, "GET /v1/models: TF Serving's 400")
    models = r.json().get("models", []) if r.status_code == 200 else []
    t.check(any(m.get("name") == "tiny" and m.get("generate") is True for m in models), "GET /hlorun/models lists tiny",
            short(r.text))
    r = srv.get("/")
    t.check(r.status_code == 200 and r.headers.get("Content-Type", "").startswith("text/html") and "<html" in r.text.lower(),
            "GET / is the playground page", short(r.text[:200]))
    t.check(metric(srv, "hlorun_generate_tokens_total", model="tiny") >= 8 * TOKENS, "metrics: generated tokens counted")
    t.check(metric(srv, "hlorun_generate_requests_total", model="tiny", finish_reason="length") >= 8,
            "metrics: requests counted by finish reason")
    t.check(metric(srv, "hlorun_generate_time_to_first_token_seconds_count", model="tiny") >= 8,
            "metrics: time to first token observed")


def section_sampling(ctx, srv, ref):
    t = ctx.t
    sampled = {"prompt": PROMPTS[1], "max_tokens": 64, "temperature": 0.9, "top_k": 50, "top_p": 0.95, "seed": 11}
    one = srv.post("/v1/models/tiny:generate", json=sampled, timeout=60).json()
    two = srv.post("/v1/models/tiny:generate", json=sampled, timeout=60).json()
    other = srv.post("/v1/models/tiny:generate", json=dict(sampled, seed=12), timeout=60).json()
    t.check(one.get("tokens") and one.get("tokens") == two.get("tokens"), "seed 11 twice: the same tokens")
    t.check(one.get("tokens") != other.get("tokens"), "seed 12: other tokens")
    t.check(one.get("seed") == 11, "the answer names its seed", short(one.get("seed")))
    py, _, mlir = tiny_tools(ctx)
    cli = subprocess.run([ctx.bin, "generate", mlir, "--weights", ctx.path("w.safetensors"), "--prompt", PROMPTS[1],
                          "--max-tokens", "64", "--temperature", "0.9", "--top-k", "50", "--top-p", "0.95", "--seed",
                          "11"], capture_output=True, timeout=120)
    t.check(list(cli.stdout) == one.get("tokens"), "hlorun generate --seed 11 gives the server's tokens",
            short(cli.stderr.decode(errors="replace")))
    # a stop string of two ASCII tokens of the reference: the text ends before its first occurrence
    i = next(k for k in range(1, len(ref) - 1) if ref[k] < 0x80 and ref[k + 1] < 0x80)
    stop = [ref[i], ref[i + 1]]
    cut = next(k for k in range(len(ref) - 1) if ref[k:k + 2] == stop)
    a = srv.post("/v1/models/tiny:generate", json={"prompt": PROMPTS[0], "max_tokens": TOKENS,
                                                    "stop": ["\u0001never", chr(stop[0]) + chr(stop[1])]}).json()
    t.check(a.get("tokens") == ref[:cut] and a.get("finish_reason") == "stop", "a stop string cuts the text",
            short((a.get("tokens"), cut, stop)))
    end = ref[5]
    first = ref.index(end)
    a = srv.post("/v1/models/tiny:generate", json={"prompt": PROMPTS[0], "max_tokens": TOKENS, "end_byte": end}).json()
    t.check(a.get("tokens") == ref[:first] and a.get("finish_reason") == "stop", "end_byte ends the text",
            short((a.get("tokens"), first)))


def section_errors(ctx, srv):
    t = ctx.t
    cases = [
        ("/v1/models/tiny:generate", {"max_tokens": 4}, 400, r'no \"prompt\"'),
        ("/v1/models/tiny:generate", {"prompt": "x", "top_p": 2}, 400, "top_p"),
        ("/v1/models/tiny:generate", {"prompt": "x" * 300}, 400, "the model takes 1 to 256"),
        ("/v1/models/tiny:generate", {"prompt": "x", "stop": ["a", "b", "c", "d", "e"]}, 400, "more than 4"),
        ("/v1/models/tiny:generate", {"prompt": "x", "max_tokens": -1}, 400, "max_tokens"),
        ("/v1/models/nope:generate", {"prompt": "x"}, 404, "nope"),
        ("/v1/completions", {"prompt": "x"}, 400, r'no \"model\"'),
        ("/v1/completions", {"model": "tiny", "prompt": "x", "n": 2}, 400, r'\"n\" must be'),
    ]
    for path, body, code, text in cases:
        r = srv.post(path, json=body)
        t.check(r.status_code == code and text in r.text, f"{path} {short(body, 60)}: {code} naming {text}",
                f"{r.status_code} {short(r.text)}")
    r = srv.post("/v1/models/tiny:generate", data="{\"prompt\": ")
    t.check(r.status_code == 400 and "JSON" in r.text, "truncated JSON: 400", short(r.text))
    r = srv.get("/v1/models/tiny:generate")
    t.check(r.status_code == 400 and "Malformed request" in r.text, "GET :generate: 400 Malformed request", short(r.text))


# ---- disconnect ----

def section_disconnect(ctx, srv, weights):
    t = ctx.t
    before = metric(srv, "hlorun_generate_requests_total", model="tiny", finish_reason="cancelled")
    # other streams keep the engine busy, so that the closed one is still generating when the
    # server next writes to it (alone, 250 tokens take a few tens of milliseconds)
    busy = [threading.Thread(target=read_native_stream, args=(srv, {"prompt": f"busy {i}", "max_tokens": 240}))
            for i in range(24)]
    for th in busy:
        th.start()
    s = Stream(srv, "/v1/models/tiny:generate", {"prompt": "x", "max_tokens": 250, "stream": True})
    events = s.events()
    for _ in range(3):
        next(events)
    s.close()
    counted = sl.wait_for(lambda: metric(srv, "hlorun_generate_requests_total", model="tiny",
                                         finish_reason="cancelled") == before + 1, 10)
    t.check(counted, "a closed stream is cancelled while the others run")
    for th in busy:
        th.join(timeout=120)
    freed = sl.wait_for(lambda: metric(srv, "hlorun_generate_active_slots", model="tiny") == 0, 10)
    t.check(freed, "every slot is free afterwards")
    r = srv.post("/v1/models/tiny:generate", json={"prompt": "x", "max_tokens": 4})
    t.check(r.status_code == 200 and len(r.json().get("tokens", [])) == 4, "the server generates on", short(r.text))


# ---- load ----

def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def load_round(srv, clients, tokens, seed):
    """One round of `clients` streams at once; returns (failures, tokens received, seconds)."""
    failures, received = [], [0] * clients

    def client(i):
        leave = i % 4 == 3  # every fourth leaves after a few events
        try:
            s = Stream(srv, "/v1/models/tiny:generate",
                       {"prompt": f"client {i} round {seed}", "max_tokens": tokens, "stream": True,
                        "temperature": 0.8, "seed": seed * 1000 + i}, timeout=300)
            if s.status != 200:
                failures.append(f"client {i}: HTTP {s.status}")
                return
            done = None
            for data in s.events():
                ev = json.loads(data)
                if ev.get("done"):
                    done = ev
                    break
                received[i] += len(ev["tokens"])
                if leave and received[i] >= 3:
                    break
            s.close()
            if not leave and (not done or done.get("finish_reason") != "length" or received[i] != tokens):
                failures.append(f"client {i}: {received[i]} tokens, end {short(done)}")
        except Exception as e:  # noqa: BLE001 (any failure of a client is a failed stream)
            failures.append(f"client {i}: {type(e).__name__}: {e}")

    start = time.monotonic()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=600)
    stuck = sum(th.is_alive() for th in threads)
    if stuck:
        failures.append(f"{stuck} clients stuck")
    return failures, sum(received), time.monotonic() - start


def section_load(ctx, srv, weights):
    t, a = ctx.t, ctx.args
    rss = []
    for round_ in range(a.rounds):
        failures, received, seconds = load_round(srv, a.clients, a.tokens, round_ + 1)
        t.check(not failures, f"round {round_ + 1}: no failed or stuck stream", short(failures))
        freed = sl.wait_for(lambda: metric(srv, "hlorun_generate_active_slots", model="tiny") == 0, 15)
        t.check(freed, f"round {round_ + 1}: every slot freed")
        rss.append(rss_kib(srv.proc.pid))
        print(f"round {round_ + 1}: {a.clients} clients, {received} tokens in {seconds:.2f} s "
              f"({received / seconds:.0f} tokens/s), server RSS {rss[-1] / 1024:.1f} MiB", flush=True)
    if len(rss) >= 3:
        t.check(rss[-1] <= rss[1] * 1.10 + 4096, "resident memory flat from round 2 on", short(rss))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--pidfile", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tokens", type=int, default=48)
    args = ap.parse_args()
    ctx = ra.Ctx(args)
    ctx.args = args
    ctx.t.begin("server")
    srv, weights = start_server(ctx)
    sections = args.only.split(",") if args.only else ["generate", "disconnect", "load"]
    for name in sections:
        ctx.t.begin(name)
        try:
            globals()[f"section_{name}"](ctx, srv, weights)
        except Exception as e:  # noqa: BLE001 (a section that raises is a failure, the others still run)
            ctx.t.check(False, f"section {name} raised", f"{type(e).__name__}: {e}")
    ctx.t.begin("stop")
    ctx.t.check(srv.stop() == 0, "the server stops cleanly", srv.log_tail())
    return ctx.t.summary()


if __name__ == "__main__":
    sys.exit(main())
