#!/usr/bin/env bash
# Runs every test: formatting and lints (rustfmt, clippy; the dashboard's ESLint, Prettier and
# tsc), the dependency policy (cargo-deny: advisories, licences, duplicate versions, sources),
# the Rust suites on SQLite and on PostgreSQL (with the property tests that mirror the fuzz
# targets), each cargo-fuzz target briefly, the checks of the deployment files in infra/, the
# API fuzzed from its OpenAPI document (schemathesis), the committed OpenAPI document
# (api/openapi.json) against the server's and the dashboard's API types generated from it, the
# dashboard's unit tests, and the browser end-to-end tests against a real control plane and edge.
#
# Needs PostgreSQL on 127.0.0.1:5432 with trust auth (VITRINE_TEST_POSTGRES_URL overrides);
# it fails, never skips, when PostgreSQL is unreachable. Installs what is missing from Debian
# (needs root or sudo): chromium for the browser tests, dnsmasq (a real DNS server for domain
# verification), pebble (a real ACME server) and nginx-light (the reference server of the edge's
# request-smuggling suite), moto's S3 server from PyPI (the multi-node test's object store),
# schemathesis from PyPI (scripts/schemathesis.sh), cargo-deny from crates.io, and the
# dashboard's npm packages (exactly as package-lock.json records them).
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
# xz unpacks the committed RustSec database (deny/advisory-db.tar.xz).
command -v xz >/dev/null || missing+=(xz-utils)
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

# The build cache, as CI services keep one between runs (GitHub's rust-cache, GitLab's cache:):
# a clone without a target directory of its own builds into one kept per machine under
# ~/.cache/vitrine, shared by every clone. Cargo's fingerprints decide what is fresh, so nothing
# stale is ever used: the crates.io dependencies (most of the build) compile once per machine
# and lock file, and each clone's own crates compile in every run (their fingerprints name the
# clone's path). A cold cache is a full build. VITRINE_BUILD_CACHE=0 turns it off.
if [ "${VITRINE_BUILD_CACHE:-1}" != 0 ] && [ -z "${CARGO_TARGET_DIR:-}" ]; then
  build_cache="${XDG_CACHE_HOME:-$HOME/.cache}/vitrine/build"
  for dir in target fuzz/target; do
    if [ ! -e "$dir" ]; then
      mkdir -p "$build_cache/$dir"
      ln -s "$build_cache/$dir" "$dir"
    fi
  done
fi

step "rustfmt"
cargo fmt --all -- --check

step "dependency policy (cargo-deny, deny.toml: advisories, licences, duplicate versions, crates.io only)"
# The install builds cargo-deny once per machine (about 5 CPU-minutes). cargo-deny runs offline:
# the RustSec database comes from the copy in the repository (deny/advisory-db.tar.xz, laid out
# by scripts/advisory-db.sh), and cargo's metadata needs every package of the lock downloaded
# first (`cargo fetch`, from crates.io).
# The release profile of cargo-deny's own manifest (fat LTO, one codegen unit) is for its
# published binaries; a tool built here to run once a run builds in half the time without it.
tool_profile=(env CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16)
command -v cargo-deny >/dev/null || "${tool_profile[@]}" cargo install --quiet --locked cargo-deny
cargo fetch --locked --quiet
bash scripts/advisory-db.sh
cargo deny --color never --offline check advisories bans licenses sources

step "Rust: every target built once with clippy's lints (-D warnings), then the tests (every store and API test runs on SQLite and on PostgreSQL)"
# clippy-driver compiles the workspace's own crates: it is rustc with clippy's lints, and cargo
# runs it through RUSTC_WORKSPACE_WRAPPER with the lint levels in CLIPPY_ARGS, as `cargo clippy
# -- -D warnings` does, but in the real build instead of a separate check. The dependencies are
# compiled once, not once for clippy and again for the tests (that separate check was 12 of
# CI's 44 minutes). The lints cover what `cargo clippy --all-targets` covered: libraries,
# binaries and tests (built by nextest), and the benchmarks (built after them, reusing the rest).
# Only these two commands get the wrapper: `cargo install` and the fuzz build below must not.
clippy=(env RUSTC_WORKSPACE_WRAPPER="$(rustup which clippy-driver)"
  CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__")
# cargo-nextest, when installed, runs every test binary at once instead of one after another
# (the same tests; there are no doctests). The fuzz targets' invariants also run here as
# property tests; the next step runs the targets themselves under libFuzzer.
if command -v cargo-nextest >/dev/null; then
  tests=(cargo nextest run --workspace)
  run_flags=(--no-fail-fast --status-level fail --final-status-level slow)
else
  tests=(cargo test --workspace)
  run_flags=()
fi
"${clippy[@]}" "${tests[@]}" --no-run
"${clippy[@]}" cargo build --workspace --benches --quiet
"${clippy[@]}" "${tests[@]}" "${run_flags[@]}"
# The same build left the servers' binaries in target/debug (the integration tests run them):
# schemathesis and the browser tests below use those, rather than building them again with the
# dependencies' features as a build without the tests resolves them (5½ minutes).
export VITRINE_BINARIES_BUILT=1

step "cargo-fuzz targets (redirect origin, host, template), 10 s each from their seeds"
FUZZ_SECONDS="${FUZZ_SECONDS:-10}" "${tool_profile[@]}" bash scripts/fuzz.sh

step "deployment files (infra/check.sh: YAML, Kubernetes schemas, promtool, systemd, nginx -t, names)"
bash infra/check.sh

step "the API fuzzed from its OpenAPI document (schemathesis, SQLite and PostgreSQL): no 5xx, answers as documented"
bash scripts/schemathesis.sh

# `npm ci` installs exactly what package-lock.json records (every platform's optional packages
# are in it) and never rewrites it, so the run leaves the work tree as it found it.
step "dashboard: install, the API's types against its document, lint (ESLint, --max-warnings 0), format check (Prettier), typecheck, unit tests, build, JavaScript budgets"
cd dashboard
npm ci --no-audit --no-fund
# src/lib/api/schema.d.ts is what openapi-typescript generates from api/openapi.json, which the
# Rust suite above holds equal to the document the server serves.
npm run api:check
npm run lint
npm run format:check
npm test
# The build type-checks first (tsc --noEmit), so the typecheck is not run twice.
npm run build
# The JavaScript budgets of the sign-in page and the project list (gzip, README.md).
npm run size

step "the editor canvas in chromium (sandbox, postMessage, drag and drop, edit latency)"
npx vitest run --config vitest.canvas.config.ts

step "end-to-end tests in chromium against a real control plane and edge"
npx vitest run --config vitest.e2e.config.ts
step "all tests passed"
