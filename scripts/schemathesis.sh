#!/usr/bin/env bash
# Fuzzes the control plane's API from its OpenAPI document (/api/openapi.json) with schemathesis
# (PyPI, pinned, in a virtualenv cached like moto's), on SQLite and on a fresh PostgreSQL
# database: no 5xx, and every answer as documented (status code, content type, body schema).
# Fails if anything fails or cannot run. What it starts and checks: scripts/schemathesis.py.
#
# Needs PostgreSQL (VITRINE_TEST_POSTGRES_URL, as the Rust tests), dnsmasq and python3 with venv.
set -euo pipefail
cd "$(dirname "$0")/.."

version=4.32.5
venv="${XDG_CACHE_HOME:-$HOME/.cache}/vitrine/schemathesis-$version"
if [ ! -x "$venv/bin/st" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "schemathesis==$version"
fi
# scripts/test.sh has built the binaries already (with the tests) and says so.
if [ -z "${VITRINE_BINARIES_BUILT:-}" ]; then
  cargo build --quiet -p vitrine-control-plane --bin vitrine-control -p vitrine-edge --bin vitrine-edge
fi
PATH="$PATH:/usr/sbin" exec "$venv/bin/python" scripts/schemathesis.py "$@"
