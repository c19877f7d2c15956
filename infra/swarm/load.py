#!/usr/bin/env python3
"""Load for infra/swarm/run.sh's drills, from outside the fleet (the host, through the nginx
load balancer), with the standard library only.

  load.py get  HOST URL STOPFILE OUT.json [THREADS]
      GET URL with Host: HOST from THREADS threads until STOPFILE exists; every request is
      counted, and one that is not a 200 (or gets no answer within 30 s) is a failure.
  load.py form HOST URL STOPFILE OUT.json [THREADS] [TAG]
      POST a form submission, each with a unique `ref` (TAG-n), until STOPFILE exists; one
      that fails is sent again (a visitor retrying) until it is answered 200, so every
      submission ends acknowledged; the attempts that failed are counted.

Writes {requests, failed, codes, p50_ms, p99_ms, max_ms, refs?, retried?} to OUT.json.
"""
import http.client
import json
import os
import sys
import threading
import time
import urllib.parse

mode, host, url, stopfile, out = sys.argv[1:6]
threads = int(sys.argv[6]) if len(sys.argv) > 6 else 4
tag = sys.argv[7] if len(sys.argv) > 7 else "ref"
u = urllib.parse.urlsplit(url)
lock = threading.Lock()
lat, codes, refs = [], {}, []
failed = retried = 0
counter = iter(range(10**9))


def once(method, path, body=None):
    """One request on a new connection: (status or error name, seconds)."""
    t0 = time.monotonic()
    conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=30)
    try:
        headers = {"Host": host, "Connection": "close"}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Accept"] = "application/json"
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        r.read()
        status = r.status
    except Exception as e:  # noqa: BLE001 -- every failure is counted, by its kind
        status = type(e).__name__
    finally:
        conn.close()
    return status, time.monotonic() - t0


def record(status, secs):
    global failed
    with lock:
        lat.append(secs)
        codes[str(status)] = codes.get(str(status), 0) + 1
        if status != 200:
            failed += 1


def worker():
    global retried
    while not os.path.exists(stopfile):
        if mode == "get":
            record(*once("GET", u.path or "/"))
            continue
        ref = f"{tag}-{next(counter)}"
        body = urllib.parse.urlencode({"nome": "Visitante", "mensagem": "ola", "ref": ref})
        deadline = time.monotonic() + 120
        while True:
            status, secs = once("POST", "/_forms", body)
            record(status, secs)
            if status == 200:
                with lock:
                    refs.append(ref)
                break
            with lock:
                retried += 1
            if time.monotonic() > deadline:
                break
            time.sleep(0.2)


ts = [threading.Thread(target=worker) for _ in range(threads)]
for t in ts:
    t.start()
for t in ts:
    t.join()
lat.sort()


def pct(p):
    return round(lat[min(len(lat) - 1, int(len(lat) * p))] * 1000, 1) if lat else None


result = {"requests": len(lat), "failed": failed, "codes": codes,
          "p50_ms": pct(0.50), "p99_ms": pct(0.99), "max_ms": pct(1.0)}
if mode == "form":
    result.update(refs=refs, retried=retried)
json.dump(result, open(out, "w"))
