#!/usr/bin/env bash
# The edge load comparison (issue 4): installs nginx and wrk from Debian's packages when they
# are missing, builds the release edge binary, then runs the benchmark, which seeds and
# publishes 1,000 sites, serves them from the edge (its own process) and from nginx on this
# machine and prints both figures and their ratios.
#
#   bash benches/edge-load.sh            # 10 s per measurement (EDGE_LOAD_SECS to change)
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
if ! command -v nginx >/dev/null || ! command -v wrk >/dev/null; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light wrk >/dev/null
fi
# nginx-light lives in /usr/sbin, which is not on every user's PATH.
export PATH="$PATH:/usr/sbin"
cargo build --release -p vitrine-edge
exec cargo bench -p vitrine-benches --bench edge_load
