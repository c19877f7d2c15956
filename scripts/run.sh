#!/usr/bin/env bash
# Builds and runs the whole product on the embedded defaults (SQLite file and a local object
# store under ./data): builds the dashboard and both binaries, migrates, seeds the demo account,
# the administrator and the templates, then starts the edge and the control plane.
# Stop with Ctrl-C (both processes shut down gracefully).
set -euo pipefail
cd "$(dirname "$0")/.."

export VITRINE_DATA_DIR="${VITRINE_DATA_DIR:-$PWD/data}"
export VITRINE_DASHBOARD_DIR="${VITRINE_DASHBOARD_DIR:-$PWD/dashboard/dist}"
export VITRINE_DEMO_EMAIL="${VITRINE_DEMO_EMAIL:-demo@vitrine.local}"
export VITRINE_DEMO_PASSWORD="${VITRINE_DEMO_PASSWORD:-vitrine-demo}"

echo "==> building the dashboard"
(cd dashboard && npm ci --no-audit --no-fund && npm run build)

echo "==> building vitrine-control and vitrine-edge"
cargo build --release --bins

echo "==> migrating and seeding ($VITRINE_DATA_DIR)"
mkdir -p "$VITRINE_DATA_DIR"
./target/release/vitrine-control seed

./target/release/vitrine-edge serve &
edge_pid=$!
trap 'kill -TERM "$edge_pid" 2>/dev/null || true; wait "$edge_pid" 2>/dev/null || true' EXIT

cat <<INFO

  Dashboard:  ${VITRINE_PUBLIC_URL:-http://localhost:8000}
  API docs:   ${VITRINE_PUBLIC_URL:-http://localhost:8000}/api/docs
  Edge:       http://${VITRINE_EDGE_HTTP_LISTEN:-127.0.0.1:8080} (sites at http://{slug}.localhost:8080)
  Demo login: $VITRINE_DEMO_EMAIL / $VITRINE_DEMO_PASSWORD

INFO
./target/release/vitrine-control serve
