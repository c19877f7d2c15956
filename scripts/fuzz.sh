#!/usr/bin/env bash
# The fuzzing campaign: each cargo-fuzz target runs for FUZZ_SECONDS (default 60) from its
# committed seeds. The test script checks the same invariants as property tests on every
# run; this goes further, guided by coverage. A crash fails the run and leaves the input
# under fuzz/artifacts/.
#
# cargo-fuzz on the stable toolchain: `--sanitizer none` needs no nightly flags; `--dev`
# builds without optimisation, which halves the build. The seeds are copied, so the run never
# writes into the repo.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(redirect_origin host template)
command -v cargo-fuzz >/dev/null || cargo install --quiet --locked cargo-fuzz
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
# `cargo fuzz build` would rewrite a stale fuzz/Cargo.lock in place (it takes no --locked), and
# the test command must leave the tree as it found it: a lock that needs updating fails here.
(cd fuzz && cargo metadata --locked --format-version 1 >/dev/null)
(cd fuzz && cargo fuzz build --dev --sanitizer none)
for target in "${targets[@]}"; do
  cp -r "fuzz/seeds/$target" "$corpus/$target"
  (cd fuzz && cargo fuzz run --dev --sanitizer none "$target" "$corpus/$target" -- \
    -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 2>&1 | tail -n 4)
done
