#!/usr/bin/env bash
# The edge TLS benchmark (issue 5): installs nginx, wrk and testssl.sh from Debian's packages
# when they are missing, then measures start-up with 10,000 stored certificates (SQLite and
# PostgreSQL), new TLS handshakes per second against nginx with the same ECDSA P-256
# certificate, and runs testssl.sh against the edge. Prints the figures and PASS/MISS.
#
#   bash benches/tls.sh            # 10 s per wrk run (TLS_LOAD_SECS to change)
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v wrk >/dev/null || missing+=(wrk)
command -v testssl >/dev/null || missing+=(testssl.sh)
if [ "${#missing[@]}" -gt 0 ]; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
export PATH="$PATH:/usr/sbin"
exec cargo bench -p vitrine-benches --bench tls
