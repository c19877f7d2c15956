#!/usr/bin/env bash
# The edge's load benchmarks against nginx (issues 4 and 23), one command with a flag per part.
# Installs nginx-light, wrk and h2load (nghttp2-client) from Debian's packages when they are
# missing, builds the release edge binary and the bare hyper + rustls reference, then runs the
# parts asked for (all of them without a flag):
#
#   --plain        edge_load: 1,000 sites on plaintext HTTP/1.1, wrk (issue 4's run)
#   --https        edge_https: h2 and HTTP/1.1 over TLS, keep-alive, h2load
#   --handshakes   edge_https: new TLS connections per second, full and resumed
#   --shapes       edge_https: plaintext HTTP/1.1 across load shapes (threads, connections,
#                  sites, page sizes, Accept-Encoding)
#   --templates    edge_https: a template as published (the bakery shop made through the API:
#                  its live home page, catalogue and a product page; h2, HTTP/1.1 over TLS and
#                  plain HTTP/1.1, with and without Accept-Encoding: gzip)
#   --analytics    edge_https: what counting visitors costs: the template's home and product
#                  pages on a shop the edge counts and on a copy it does not, same edge, same
#                  rounds, beside nginx (h2, HTTP/1.1 over TLS, plain HTTP/1.1)
#   --scale        sites_scale: 100,000 generated sites on one edge (start-up, a cold site's
#                  first request from the local object store and from S3 (moto), memory,
#                  the hot path against 1,000 sites)
#
#   bash benches/edge-load.sh --https --handshakes
#
# EDGE_LOAD_SECS sets each measurement's length, EDGE_LOAD_ROUNDS the interleaved rounds,
# EDGE_LOAD_ONLY (comma-separated) keeps edge_https's measures whose names hold one of its parts
# (EDGE_LOAD_ONLY=template: the template's); sites_scale reads SCALE_SITES, SCALE_ROUNDS,
# SCALE_SECS, SCALE_COLD and SCALE_S3_SITES.
set -euo pipefail
cd "$(dirname "$0")/.."

plain=0 https=() scale=0 any=0
for arg in "$@"; do
  case "$arg" in
    --plain) plain=1 ;;
    --https | --handshakes | --shapes | --templates | --analytics) https+=("$arg") ;;
    --scale) scale=1 ;;
    -h | --help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "unknown flag: $arg (see --help)" >&2; exit 2 ;;
  esac
  any=1
done
if [ "$any" -eq 0 ]; then
  plain=1 https=(--https --handshakes --shapes --templates --analytics) scale=1
fi

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
if ! command -v nginx >/dev/null || ! command -v wrk >/dev/null || ! command -v h2load >/dev/null; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light wrk nghttp2-client >/dev/null
fi
# nginx-light lives in /usr/sbin, which is not on every user's PATH.
export PATH="$PATH:/usr/sbin"
if [ "$scale" -eq 1 ]; then
  # moto's S3 server (PyPI), in the virtualenv scripts/test.sh uses too.
  moto_dir="${XDG_CACHE_HOME:-$HOME/.cache}/vitrine/moto"
  if [ ! -x "$moto_dir/bin/moto_server" ]; then
    python3 -m venv --help >/dev/null 2>&1 ||
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$moto_dir"
    "$moto_dir/bin/pip" install --quiet 'moto[server]==5.2.5'
  fi
  export VITRINE_TEST_MOTO_SERVER="${VITRINE_TEST_MOTO_SERVER:-$moto_dir/bin/moto_server}"
fi
cargo build --release -p vitrine-edge -p vitrine-benches --bins
# Every part runs; the script fails when any part missed a target.
status=0
if [ "$plain" -eq 1 ]; then
  cargo bench -p vitrine-benches --bench edge_load || status=1
fi
if [ "${#https[@]}" -gt 0 ]; then
  cargo bench -p vitrine-benches --bench edge_https -- "${https[@]}" || status=1
fi
if [ "$scale" -eq 1 ]; then
  cargo bench -p vitrine-benches --bench sites_scale || status=1
fi
exit "$status"
