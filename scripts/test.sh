#!/usr/bin/env bash
# Runs every test: formatting and lints (rustfmt, clippy; the dashboard's ESLint, Prettier and
# tsc), the Rust suites on SQLite and on PostgreSQL (with the
# property tests that mirror the fuzz targets), each cargo-fuzz target briefly, the checks of
# the deployment files in infra/, the API fuzzed from its OpenAPI document (schemathesis), the
# dashboard's unit tests, and the browser end-to-end tests against a real control plane and edge.
#
# Needs PostgreSQL on 127.0.0.1:5432 with trust auth (VITRINE_TEST_POSTGRES_URL overrides);
# it fails, never skips, when PostgreSQL is unreachable. Installs what is missing from Debian
# (needs root or sudo): chromium for the browser tests, dnsmasq (a real DNS server for domain
# verification), pebble (a real ACME server) and nginx-light (the reference server of the edge's
# request-smuggling suite), moto's S3 server from PyPI (the multi-node test's object store),
# schemathesis from PyPI (scripts/schemathesis.sh), and the dashboard's npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s [%s]\n' "$*" "$(date +%T)"; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

step "prerequisites"
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/sbin/dnsmasq ] || missing+=(dnsmasq-base)
[ -x /usr/bin/pebble ] || missing+=(pebble)
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
if [ "${#missing[@]}" -gt 0 ]; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
export PATH="$PATH:/usr/sbin"
# moto's S3 server (PyPI) is the S3-compatible store of the multi-node test, in a virtualenv.
moto_dir="${XDG_CACHE_HOME:-$HOME/.cache}/vitrine/moto"
if [ ! -x "$moto_dir/bin/moto_server" ]; then
  if ! python3 -m venv --help >/dev/null 2>&1; then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
  fi
  python3 -m venv "$moto_dir"
  "$moto_dir/bin/pip" install --quiet 'moto[server]==5.2.5'
fi
export VITRINE_TEST_MOTO_SERVER="$moto_dir/bin/moto_server"
pg_url="${VITRINE_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
if command -v pg_isready >/dev/null && ! pg_isready -q -d "$pg_url"; then
  echo "PostgreSQL is not reachable at $pg_url; the PostgreSQL suite cannot run." >&2
  exit 1
fi

# A run from a clean clone builds everything once: incremental compilation would only write
# caches nobody reads (and costs time and disk), so it is off, as cargo's docs advise for CI.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

step "rustfmt and clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings

step "Rust tests (every store and API test runs on SQLite and on PostgreSQL)"
# cargo-nextest, when installed, runs every test binary at once instead of one after another
# (the same tests; there are no doctests). The fuzz targets' invariants also run here as
# property tests; the next step runs the targets themselves under libFuzzer.
if command -v cargo-nextest >/dev/null; then
  cargo nextest run --workspace --no-fail-fast --status-level fail --final-status-level slow
else
  cargo test --workspace
fi

step "cargo-fuzz targets (redirect origin, host, template), 10 s each from their seeds"
FUZZ_SECONDS="${FUZZ_SECONDS:-10}" bash scripts/fuzz.sh

step "deployment files (infra/check.sh: YAML, Kubernetes schemas, promtool, systemd, nginx -t, names)"
bash infra/check.sh

step "the API fuzzed from its OpenAPI document (schemathesis, SQLite and PostgreSQL): no 5xx, answers as documented"
bash scripts/schemathesis.sh

# `npm install` against the committed lock file: this npm writes locks that `npm ci` rejects
# (only this platform's optional rollup packages are recorded).
step "dashboard: install, lint (ESLint, --max-warnings 0), format check (Prettier), typecheck, unit tests, build"
cd dashboard
npm install --no-audit --no-fund
npm run lint
npm run format:check
npm run typecheck
npm test
npm run build

step "the editor canvas in chromium (sandbox, postMessage, drag and drop, edit latency)"
npx vitest run --config vitest.canvas.config.ts

step "end-to-end tests in chromium against a real control plane and edge"
cargo build --quiet -p vitrine-control-plane --bin vitrine-control -p vitrine-edge --bin vitrine-edge
npx vitest run --config vitest.e2e.config.ts
step "all tests passed"
