"""HTTPS of `hlorun serve --ssl_config_file` (TensorFlow Serving's SSLConfig): a CA, a server
certificate for 127.0.0.1 and two client certificates (one the CA signed, one self-signed) are
made with openssl; then

  https        predict and status over HTTPS verified against the CA; plain HTTP to the port fails;
               gRPC health over TLS (grpcio, when installed); a plaintext gRPC channel fails
  client       with client_verify: no certificate and a foreign one get 403 (REST) or no gRPC
               answer, the CA's one is served
  config       bad SSL configs (a path instead of PEM, no key, client_verify without custom_ca,
               a key that is not the certificate's) stop the server with a clear message

Run by test_tls.sh; standard library, requests and serverlib."""
import argparse
import os
import subprocess
import sys

import requests

import serverlib as sl

try:
    import grpc
except ImportError:  # gRPC checks are skipped (python3-grpcio is in scripts/install-deps.sh)
    grpc = None

# grpc.health.v1.Health/Check: an empty HealthCheckRequest; SERVING is HealthCheckResponse {status: 1}
HEALTH = "/grpc.health.v1.Health/Check"
SERVING = b"\x08\x01"


def grpc_health(port, ca=None, cert=None, key=None):
    """Health/Check over TLS (ca given) or plaintext; returns the answer bytes, raising grpc.RpcError."""
    target = f"127.0.0.1:{port}"
    if ca:
        creds = grpc.ssl_channel_credentials(root_certificates=pem(ca).encode(),
                                             private_key=pem(key).encode() if key else None,
                                             certificate_chain=pem(cert).encode() if cert else None)
        channel = grpc.secure_channel(target, creds)
    else:
        channel = grpc.insecure_channel(target)
    with channel:
        return channel.unary_unary(HEALTH)(b"", timeout=10)


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)


def make_certificates(d):
    """CA, server (127.0.0.1) and clients (signed, foreign) as PEM files in d; returns their paths."""
    p = {k: os.path.join(d, k) for k in ("ca.key", "ca.pem", "srv.key", "srv.csr", "srv.pem", "cli.key", "cli.csr",
                                         "cli.pem", "other.key", "other.pem", "ext")}
    with open(p["ext"], "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl("req", "-x509", *ec, "-keyout", p["ca.key"], "-out", p["ca.pem"], "-days", "2", "-subj", "/CN=hlorun test CA")
    for who, cn in (("srv", "127.0.0.1"), ("cli", "client")):
        openssl("req", *ec, "-keyout", p[f"{who}.key"], "-out", p[f"{who}.csr"], "-subj", f"/CN={cn}")
        extra = ["-extfile", p["ext"]] if who == "srv" else []
        openssl("x509", "-req", "-in", p[f"{who}.csr"], "-CA", p["ca.pem"], "-CAkey", p["ca.key"], "-CAcreateserial",
                "-out", p[f"{who}.pem"], "-days", "2", *extra)
    openssl("req", "-x509", *ec, "-keyout", p["other.key"], "-out", p["other.pem"], "-days", "2", "-subj", "/CN=other")
    return p


def pem(path):
    with open(path) as f:
        return f.read()


def text_string(s):
    """A protobuf text-format string literal."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write_config(path, **fields):
    with open(path, "w") as f:
        for k, v in fields.items():
            f.write(f"{k}: {v if isinstance(v, str) and v in ('true', 'false') else text_string(v)}\n")
    return path


def serve(args, work, cfg, tag):
    return sl.Server(args.bin, ["--model_name", "m", "--model_base_path", os.path.join(work, "m"),
                                "--ssl_config_file", cfg], args.pidfile, os.path.join(work, f"{tag}.log"))


BODY = {"instances": [[1.0, 2.0]]}


def test_https(t, args, work, p):
    t.begin("https")
    cfg = write_config(os.path.join(work, "ssl.txt"), server_key=pem(p["srv.key"]), server_cert=pem(p["srv.pem"]))
    with serve(args, work, cfg, "https") as srv:
        url = f"https://127.0.0.1:{srv.port}"
        r = requests.post(url + "/v1/models/m:predict", json=BODY, verify=p["ca.pem"], timeout=30)
        t.check(r.status_code == 200 and r.json() == {"predictions": [[8.0, 9.0]]}, "predict over HTTPS", r.text)
        r = requests.get(url + "/v1/models/m", verify=p["ca.pem"], timeout=30)
        t.check(r.status_code == 200 and r.json()["model_version_status"][0]["state"] == "AVAILABLE",
                "status over HTTPS", r.text)
        try:
            plain = requests.get(f"http://127.0.0.1:{srv.port}/v1/models/m", timeout=10)
            t.check(plain.status_code != 200, "plain HTTP to the HTTPS port is not served", plain.text)
        except requests.RequestException:
            t.check(True, "plain HTTP to the HTTPS port is not served")
        try:
            requests.get(url + "/v1/models/m", verify=p["other.pem"], timeout=10)
            t.check(False, "a client trusting another CA refuses the server")
        except requests.exceptions.SSLError:
            t.check(True, "a client trusting another CA refuses the server")
        if grpc:
            t.check(grpc_health(srv.grpc_port, p["ca.pem"]) == SERVING, "gRPC health over TLS")
            try:
                grpc_health(srv.grpc_port)
                t.check(False, "a plaintext gRPC channel to the TLS port gets no answer")
            except grpc.RpcError as e:
                t.check(e.code() == grpc.StatusCode.UNAVAILABLE, "a plaintext gRPC channel to the TLS port gets no answer",
                        str(e.code()))


def test_client(t, args, work, p):
    t.begin("client")
    cfg = write_config(os.path.join(work, "mtls.txt"), server_key=pem(p["srv.key"]), server_cert=pem(p["srv.pem"]),
                       custom_ca=pem(p["ca.pem"]), client_verify="true")
    with serve(args, work, cfg, "client") as srv:
        url = f"https://127.0.0.1:{srv.port}/v1/models/m:predict"
        for what, cert in (("no client certificate", None), ("a certificate the CA did not sign", (p["other.pem"], p["other.key"]))):
            try:
                r = requests.post(url, json=BODY, verify=p["ca.pem"], cert=cert, timeout=30)
                t.check(r.status_code == 403 and "client certificate" in r.json().get("error", ""), f"{what}: 403",
                        f"{r.status_code} {r.text}")
            except requests.exceptions.SSLError as e:  # refused in the handshake is as good
                t.check(True, f"{what}: refused ({e})")
        r = requests.post(url, json=BODY, verify=p["ca.pem"], cert=(p["cli.pem"], p["cli.key"]), timeout=30)
        t.check(r.status_code == 200 and r.json() == {"predictions": [[8.0, 9.0]]}, "the CA's client is served", r.text)
        if grpc:
            t.check(grpc_health(srv.grpc_port, p["ca.pem"], p["cli.pem"], p["cli.key"]) == SERVING,
                    "gRPC: the CA's client is answered")
            for what, cert, key in (("no client certificate", None, None), ("a foreign certificate", p["other.pem"], p["other.key"])):
                try:
                    grpc_health(srv.grpc_port, p["ca.pem"], cert, key)
                    t.check(False, f"gRPC: {what} gets no answer")
                except grpc.RpcError as e:
                    t.check(e.code() == grpc.StatusCode.UNAVAILABLE, f"gRPC: {what} gets no answer", str(e.code()))


def test_config(t, args, work, p):
    t.begin("config")
    key, cert = pem(p["srv.key"]), pem(p["srv.pem"])
    cases = [
        ("a path instead of PEM", {"server_key": p["srv.key"], "server_cert": cert}, "not PEM text"),
        ("no server_key", {"server_cert": cert}, "needs server_key"),
        ("client_verify without custom_ca", {"server_key": key, "server_cert": cert, "client_verify": "true"},
         "client_verify needs custom_ca"),
        ("an unknown field", {"server_key": key, "server_cert": cert, "server_keys": key}, "unknown field 'server_keys'"),
        ("a key that is not the certificate's", {"server_key": pem(p["cli.key"]), "server_cert": cert},
         "cannot start the HTTP server"),
    ]
    for i, (what, fields, want) in enumerate(cases):
        cfg = write_config(os.path.join(work, f"bad{i}.txt"), **fields)
        done = subprocess.run([args.bin, "serve", "--port", "0", "--rest_api_port", "0", "--model_name", "m", "--model_base_path",
                               os.path.join(work, "m"), "--ssl_config_file", cfg], capture_output=True, text=True,
                              timeout=60)
        t.check(done.returncode != 0 and want in done.stderr, f"{what}: refused naming it", done.stderr.strip())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--pidfile", required=True)
    args = ap.parse_args()
    t = sl.Tally()
    work = args.work
    p = make_certificates(work)
    artifact = sl.export(args.bin, sl.versioned_mlir(work, 7), os.path.join(work, "plus7.hlo"))
    sl.install_version(os.path.join(work, "m"), 1, artifact)
    test_https(t, args, work, p)
    test_client(t, args, work, p)
    test_config(t, args, work, p)
    return t.summary()


if __name__ == "__main__":
    sys.exit(main())
