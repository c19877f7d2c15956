"""Fuzzes the control plane's API from its OpenAPI document with schemathesis.

Run it through scripts/schemathesis.sh, which installs schemathesis in a virtualenv, builds
vitrine-control and runs this file with the virtualenv's Python.

For each database (SQLite, then a fresh PostgreSQL database) it starts a real vitrine-control
(port 0, a temporary data directory) with its outside services pointed at local stand-ins, so
that every call runs its real code and nothing leaves the machine:

- the card provider's API (Stripe's): the small HTTP server `CardProvider` below;
- DNS (domain verification): dnsmasq, answering NXDOMAIN for every name.

It seeds it (an owner whose site is made from a template, an administrator, the templates and
the block library), signs both in, and runs schemathesis against /api/openapi.json: as the
owner on every operation, then as the administrator on every operation. The checks: no 5xx
(`not_a_server_error`) and every answer as documented: its status code, content type and body
schema. Settings shared by the runs (examples per operation, deterministic generation) are in
scripts/schemathesis.toml. Any failure, or anything that cannot run, exits non-zero.
"""

import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTROL = ROOT / "target" / "debug" / "vitrine-control"
ST = Path(sys.executable).with_name("st")
CONFIG = ROOT / "scripts" / "schemathesis.toml"
PG_URL = os.environ.get(
    "VITRINE_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
OWNER = ("owner@fuzz.example", "fuzz-owner-password")
ADMIN = ("admin@fuzz.example", "fuzz-admin-password")
CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
    ]
)
# Calls that would end or switch the fuzzer's own session, so that every later call would
# test the sign-in screen instead; the Rust suite covers them (session.rs, account.rs).
SESSION_CHANGING = ["/api/logout", "/api/loginWith/{id}", "/api/loginBack"]


class Failure(Exception):
    """Something the run needs could not be done."""


class CardProvider(http.server.BaseHTTPRequestHandler):
    """The card provider's API (Stripe's): as much of it as the control plane calls."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length") or 0))
        parts = self.path.split("?")[0].strip("/").split("/")
        if parts == ["v1", "setup_intents"]:
            status, body = 200, {"id": "seti_1", "client_secret": "seti_1_secret"}
        elif parts[:2] == ["v1", "customers"]:
            status, body = 200, {"id": parts[2] if len(parts) > 2 else "cus_1"}
        elif parts[:2] == ["v1", "payment_methods"] and parts[-1] == "attach":
            status, body = 200, {"id": parts[2]}
        else:
            status, body = 404, {"error": {"message": "Unrecognized request URL"}}
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_dns(tmp):
    """dnsmasq on a free loopback port, authoritative for every name (NXDOMAIN), no upstream."""
    for _ in range(20):
        port = free_udp_port()
        proc = subprocess.Popen(
            [
                "dnsmasq",
                "--keep-in-foreground",
                "--no-resolv",
                "--no-hosts",
                "--no-poll",
                "--local=/#/",
                "--bind-interfaces",
                "--listen-address=127.0.0.1",
                f"--port={port}",
                f"--pid-file={tmp / 'dnsmasq.pid'}",
                "--user=root",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # dnsmasq exits at once when it cannot bind the port; another is tried then.
        time.sleep(0.3)
        if proc.poll() is None:
            return proc, port
    raise Failure("dnsmasq did not start (apt-get install dnsmasq-base)")


def run(cmd, env=None):
    result = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise Failure(f"{' '.join(map(str, cmd))} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def start_control(env, log_path):
    """vitrine-control serve; returns the process and its base URL once it listens."""
    log = open(log_path, "w")
    proc = subprocess.Popen([CONTROL, "serve"], env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for line in log_path.read_text().splitlines():
            if "listening on http://" in line:
                return proc, line.split("listening on ")[1].strip()
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    raise Failure(f"vitrine-control did not start:\n{log_path.read_text()[-4000:]}")


def sign_in(base, email, password):
    """Signs in; returns the session cookie (`name=value`) the server set."""
    request = urllib.request.Request(
        f"{base}/api/login",
        data=json.dumps({"email": email, "password": password}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        cookies = response.headers.get_all("set-cookie") or []
    if not cookies:
        raise Failure(f"signing in as {email} set no cookie")
    return cookies[0].split(";")[0]


def fuzz(base, cookie, who, report_dir):
    """One schemathesis run; returns whether every check passed."""
    cmd = [ST, "--config-file", CONFIG, "run", f"{base}/api/openapi.json"]
    cmd += ["--url", base, "-H", f"Cookie: {cookie}", "--checks", CHECKS]
    for path in SESSION_CHANGING:
        cmd += ["--exclude-path", path]
    cmd += ["--report", "junit", "--report-dir", str(report_dir / who), "--no-color"]
    print(f"--- schemathesis as the {who}", flush=True)
    started = time.monotonic()
    code = subprocess.run(cmd).returncode
    print(f"--- as the {who}: exit {code} in {time.monotonic() - started:.0f} s", flush=True)
    return code == 0


def one_database(name, database_url, provider_url, tmp):
    data = tmp / name
    data.mkdir()
    dns, dns_port = start_dns(data)
    env = dict(
        os.environ,
        VITRINE_DATA_DIR=str(data),
        VITRINE_DATABASE_URL=database_url,
        VITRINE_CONTROL_LISTEN="127.0.0.1:0",
        VITRINE_CONTROL_ADMIN_LISTEN="",
        VITRINE_DASHBOARD_DIR=str(data / "no-dashboard"),
        VITRINE_DEMO_EMAIL=OWNER[0],
        VITRINE_DEMO_PASSWORD=OWNER[1],
        VITRINE_ADMIN_EMAIL=ADMIN[0],
        VITRINE_ADMIN_PASSWORD=ADMIN[1],
        VITRINE_DNS_NAMESERVERS=f"127.0.0.1:{dns_port}",
        VITRINE_STRIPE_PUBLIC_KEY="pk_test_fuzz",
        VITRINE_STRIPE_SECRET_KEY="sk_test_fuzz",
        VITRINE_STRIPE_API_URL=provider_url,
        VITRINE_LOG_FORMAT="json",
    )
    control = None
    try:
        run([CONTROL, "seed"], env)
        control, base = start_control(env, data / "control.log")
        print(f"=== {name}: {base}", flush=True)
        owner = sign_in(base, *OWNER)
        admin = sign_in(base, *ADMIN)
        passed = fuzz(base, owner, "owner", data)
        passed = fuzz(base, admin, "administrator", data) and passed
        if not passed:
            errors = [
                line
                for line in (data / "control.log").read_text().splitlines()
                if "ERROR" in line
            ]
            print(f"=== {name}: the server's errors:", *errors[-20:], sep="\n")
        return passed
    finally:
        if control is not None:
            control.terminate()
            control.wait(timeout=60)
        dns.terminate()
        dns.wait()


def main():
    if not CONTROL.exists():
        raise Failure(f"{CONTROL} is missing: run scripts/schemathesis.sh")
    provider = http.server.ThreadingHTTPServer(("127.0.0.1", 0), CardProvider)
    threading.Thread(target=provider.serve_forever, daemon=True).start()
    provider_url = f"http://127.0.0.1:{provider.server_address[1]}"
    database = f"vitrine_fuzz_{os.getpid()}"
    admin_url = PG_URL
    postgres_url = PG_URL.rsplit("/", 1)[0] + "/" + database
    results = {}
    with tempfile.TemporaryDirectory(prefix="vitrine-fuzz-") as tmp:
        tmp = Path(tmp)
        results["SQLite"] = one_database(
            "sqlite", f"sqlite://{tmp / 'sqlite' / 'vitrine.db'}?mode=rwc", provider_url, tmp
        )
        run(["psql", "-q", admin_url, "-c", f'CREATE DATABASE "{database}"'])
        try:
            results["PostgreSQL"] = one_database("postgres", postgres_url, provider_url, tmp)
        finally:
            run(["psql", "-q", admin_url, "-c", f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'])
    provider.shutdown()
    for name, passed in results.items():
        print(f"schemathesis on {name}: {'passed' if passed else 'FAILED'}")
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as e:
        print(f"schemathesis could not run: {e}", file=sys.stderr)
        sys.exit(1)
