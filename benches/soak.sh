#!/usr/bin/env bash
# The soak (issue 8): installs wrk from Debian's packages when missing, builds the release edge
# binary, then runs the benchmark: 1,000 published sites, the edge's capacity measured with wrk,
# then SOAK_SECS of load at half that rate with a publish every 10 s. PASS only with no errors and
# the edge's resident memory growing less than 10 %; exits non-zero on a miss.
#
#   bash benches/soak.sh                 # 600 s of load
#   SOAK_SECS=60 bash benches/soak.sh    # a short verification run
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
if ! command -v wrk >/dev/null; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
cargo build --release -p vitrine-edge
# The edge runs as its own process so that its resident memory is measured alone.
export SOAK_EDGE_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/vitrine-edge"
exec cargo bench -p vitrine-benches --bench soak
