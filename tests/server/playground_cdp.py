"""Drives the playground page (GET /, src/server/playground.html) in a headless Chromium over the
Chrome DevTools Protocol, for tests/server/test_playground.sh, which starts the server and the
browser and kills both.

  playground_cdp.py --devtools DEVTOOLS_DIR --url http://127.0.0.1:PORT [--model tiny]
                    [--max-tokens 150] [--timeout 60] [--screenshot OUT.png]

DEVTOOLS_DIR is the browser's --user-data-dir: Chromium started with --remote-debugging-port=0
writes the port it picked into DEVTOOLS_DIR/DevToolsActivePort. Checks, in order:
  - the models panel lists the model, without an error;
  - a greedy generation typed into the form and started with a mouse click on Generate streams
    into #output in more than one step (a MutationObserver records #output's length at each
    change) and ends with #stats showing finish_reason, the time to first token and tokens/s;
  - its text equals the text of a non-streaming POST :generate with the same parameters;
  - (then the screenshot, when asked: the finished generation is on it)
  - Stop during a longer generation leaves the page ready for the next one;
  - the predict form is prefilled with a JSON body; Predict shows an answer or an error, and a
    malformed body shows the server's error.
Standard library and python3-websocket (websocket-client) only; every wait is bounded. Exits 0 when
every check passes, 1 otherwise.
"""
import argparse
import base64
import json
import os
import sys
import time
import urllib.request

import websocket

PROMPT = "The quick brown fox"


class Failed(Exception):
    pass


class Page:
    """One page target, driven by CDP commands over its WebSocket."""

    def __init__(self, ws_url, timeout):
        # Chromium refuses DevTools WebSockets whose handshake has an Origin it was not told to allow
        self.ws = websocket.create_connection(ws_url, timeout=timeout, suppress_origin=True)
        self.next_id = 0
        self.events = []   # console messages and exceptions, shown when a check fails

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise Failed(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if msg.get("method") == "Runtime.consoleAPICalled":
                self.events.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in msg["params"]["args"]))
            elif msg.get("method") == "Runtime.exceptionThrown":
                self.events.append("exception: " + json.dumps(msg["params"]["exceptionDetails"])[:500])

    def eval(self, expr):
        """The value of a JavaScript expression (awaited when it is a promise)."""
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise Failed(f"evaluating {expr!r}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait(self, expr, what, timeout):
        """Polls expr until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            v = self.eval(expr)
            if v:
                return v
            if time.monotonic() > deadline:
                raise Failed(f"timed out after {timeout} s waiting for {what}")
            time.sleep(0.05)

    def text(self, element_id):
        return self.eval(f"document.getElementById({json.dumps(element_id)}).textContent")

    def set_value(self, element_id, value):
        self.eval(f"(() => {{ const e = document.getElementById({json.dumps(element_id)}); "
                  f"e.value = {json.dumps(value)}; e.dispatchEvent(new Event('input')); }})()")

    def click(self, element_id, if_enabled=False):
        """A real mouse click at the middle of the element (it must be visible). A disabled element
        fails the test, or with if_enabled is left unclicked; returns whether it was clicked."""
        box = self.eval(f"(() => {{ const e = document.getElementById({json.dumps(element_id)}); e.scrollIntoView(); "
                        "const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, e.disabled]; })()")
        if box[2]:
            if if_enabled:
                return False
            raise Failed(f"#{element_id} is disabled")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)
        return True


def devtools_page(user_data_dir, timeout):
    """The WebSocket URL of the browser's page target."""
    port_file = os.path.join(user_data_dir, "DevToolsActivePort")
    deadline = time.monotonic() + timeout
    while not (os.path.exists(port_file) and open(port_file).read().count("\n") >= 1):
        if time.monotonic() > deadline:
            raise Failed(f"no {port_file} after {timeout} s: did Chromium start?")
        time.sleep(0.1)
    port = int(open(port_file).read().split("\n")[0])
    while True:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
            pages = [t for t in json.load(r) if t.get("type") == "page"]
        if pages:
            return pages[0]["webSocketDebuggerUrl"]
        if time.monotonic() > deadline:
            raise Failed("the browser has no page target")
        time.sleep(0.1)


def post_json(url, body, timeout):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.load(r)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devtools", required=True, help="Chromium's --user-data-dir")
    ap.add_argument("--url", required=True, help="the server, http://127.0.0.1:PORT")
    ap.add_argument("--model", default="tiny")
    ap.add_argument("--max-tokens", type=int, default=150)
    ap.add_argument("--timeout", type=float, default=60, help="bound of each wait, seconds")
    ap.add_argument("--screenshot", help="write a PNG of the page after the generation")
    args = ap.parse_args()

    failures = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what, flush=True)
        if not cond:
            failures.append(what)

    page = Page(devtools_page(args.devtools, args.timeout), args.timeout)
    try:
        page.call("Runtime.enable")
        page.call("Page.enable")
        page.call("Emulation.setDeviceMetricsOverride", width=1100, height=760, deviceScaleFactor=1, mobile=False)
        page.call("Page.navigate", url=args.url + "/")
        page.wait("document.readyState === 'complete'", "the page to load", args.timeout)
        title = page.eval("document.title")
        if title != "hlorun playground":
            raise Failed(f"GET / is not the playground (title {title!r}, body {page.eval('document.body.innerText')[:200]!r})")

        # the models panel
        page.wait(f"document.getElementById('models').textContent.includes({json.dumps(args.model)})",
                  f"the models panel to list {args.model}", args.timeout)
        check(page.text("models-error") == "", "the models panel shows no error")
        check(page.eval(f"document.querySelector('input[name=model]:checked').value") == args.model,
              f"{args.model} is selected")
        check("AVAILABLE" in page.text("models"), "the models panel shows the version's state")

        # a greedy generation, streamed
        params = {"max_tokens": args.max_tokens, "temperature": 0, "top_k": 0, "top_p": 1, "seed": 1}
        page.set_value("prompt", PROMPT)
        for key, value in params.items():
            page.set_value(key, str(value))
        # the stream slowed to 16 KiB/s (its ~10 KiB then take most of a second), so that the
        # browser reads it in several pieces even when a loaded machine delays its reads
        page.call("Network.enable")
        page.call("Network.emulateNetworkConditions", offline=False, latency=0, downloadThroughput=16384,
                  uploadThroughput=-1)
        # record #output's length at each change: each network read that adds text is one step
        page.eval("window.lengths = []; new MutationObserver(() => window.lengths.push("
                  "document.getElementById('output').textContent.length)).observe("
                  "document.getElementById('output'), {childList: true, characterData: true, subtree: true}); 0")
        page.click("generate")
        page.wait("document.getElementById('stats').textContent.startsWith('finish_reason') || "
                  "document.getElementById('gen-error').textContent !== ''", "the generation to finish", args.timeout)
        error = page.text("gen-error")
        check(error == "", f"the generation shows no error ({error!r})")
        output = page.text("output")
        stats = page.text("stats")
        print(f"     output {output!r}\n     stats  {stats!r}", flush=True)
        check("finish_reason length" in stats and f"{args.max_tokens} tokens" in stats and "ms" in stats
              and "tokens/s" in stats, "#stats shows finish_reason, tokens, time to first token and tokens/s")
        steps = [n for n in page.eval("window.lengths") if 0 < n < len(output)]
        page.call("Network.emulateNetworkConditions", offline=False, latency=0, downloadThroughput=-1,
                  uploadThroughput=-1)
        check(len(steps) >= 1, f"the output grew in more than one step ({len(steps) + 1} steps)")
        check(page.eval("!document.getElementById('generate').disabled && document.getElementById('stop').disabled"),
              "Generate is enabled again, Stop disabled")
        whole = post_json(f"{args.url}/v1/models/{args.model}:generate", dict(params, prompt=PROMPT), args.timeout)
        check(output == whole.get("text"), f"the streamed text equals the non-streaming one ({whole.get('text')!r})")

        if args.screenshot:
            png = page.call("Page.captureScreenshot", format="png")["data"]
            with open(args.screenshot, "wb") as f:
                f.write(base64.b64decode(png))
            print(f"     screenshot {args.screenshot}", flush=True)

        # Stop: a long generation, read slowly, stopped once text has come (on a loaded machine it may
        # still finish between the look at Stop and the click: then Stop is disabled and left alone)
        page.set_value("max_tokens", "1000")
        page.call("Network.emulateNetworkConditions", offline=False, latency=0, downloadThroughput=16384,
                  uploadThroughput=-1)
        page.click("generate")
        page.wait("document.getElementById('output').textContent.length > 0 || "
                  "document.getElementById('stats').textContent.startsWith('finish_reason')", "text to come", args.timeout)
        page.click("stop", if_enabled=True)
        page.wait("!document.getElementById('generate').disabled", "the page to be ready again", args.timeout)
        page.call("Network.emulateNetworkConditions", offline=False, latency=0, downloadThroughput=-1,
                  uploadThroughput=-1)
        stats = page.text("stats")
        check(stats.startswith("stopped after") or stats.startswith("finish_reason"),
              f"Stop ends the generation ({stats!r})")
        check(page.text("gen-error") == "", "Stop shows no error")

        # predict: the prefilled body, then a malformed one
        body = page.eval("document.getElementById('predict-body').value")
        check(json.loads(body) is not None, "the predict body is JSON")
        page.click("predict")
        page.wait("document.getElementById('predict-output').textContent !== '' || "
                  "document.getElementById('pred-error').textContent !== ''", "the predict answer", args.timeout)
        answer = page.text("predict-output") or page.text("pred-error")
        print(f"     predict {answer[:120]!r}", flush=True)
        page.set_value("predict-body", '{"instances": ')
        page.click("predict")
        page.wait("document.getElementById('pred-error').textContent !== ''", "the predict error", args.timeout)
        check(page.text("pred-error").startswith("400"), f"a malformed body shows the server's error ({page.text('pred-error')!r})")
    except Exception as e:  # a failed wait, a refused connection (the server died), a bad answer
        failures.append(str(e))
        print(f"FAIL {type(e).__name__}: {e}", flush=True)
    finally:
        for event in page.events:
            print(f"     browser {event}", flush=True)
        page.ws.close()
    print(f"{len(failures)} failed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
