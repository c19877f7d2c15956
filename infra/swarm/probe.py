#!/usr/bin/env python3
"""Run by infra/swarm/run.sh inside a probe container on the stack's overlay network, where
Docker's DNS names every task of a dnsrr service.

  probe.py tasks SERVICE                  the task addresses of SERVICE, one a line
  probe.py watch HOST MARKER SECONDS      polls every edge task's http://IP:8080/ (Host: HOST)
      every 20 ms until its page holds MARKER; prints one JSON object {ip: epoch ms first seen,
      or null}. Started before the publish call, so the first sighting is timed by the task.
"""
import json
import socket
import sys
import time
import urllib.request


def tasks(service):
    try:
        infos = socket.getaddrinfo(service, None, socket.AF_INET, socket.SOCK_STREAM)
    except socket.gaierror:
        return []
    return sorted({i[4][0] for i in infos})


def serves(ip, host, marker):
    req = urllib.request.Request(f"http://{ip}:8080/", headers={"Host": host})
    try:
        with urllib.request.urlopen(req, timeout=1) as r:
            return marker in r.read().decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 -- 404 before the publish, or not reachable: not yet
        return False


if sys.argv[1] == "tasks":
    print("\n".join(tasks(sys.argv[2])))
elif sys.argv[1] == "watch":
    host, marker, secs = sys.argv[2], sys.argv[3], float(sys.argv[4])
    ips = tasks("edge")
    seen = {ip: None for ip in ips}
    end = time.time() + secs
    while time.time() < end and any(v is None for v in seen.values()):
        for ip in ips:
            if seen[ip] is None and serves(ip, host, marker):
                seen[ip] = int(time.time() * 1000)
        time.sleep(0.02)
    print(json.dumps(seen))
