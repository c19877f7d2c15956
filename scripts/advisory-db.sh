#!/usr/bin/env bash
# Lays out the RustSec advisory database where `cargo deny --offline check advisories` reads it
# (deny.toml's db-path), from the copy committed in the repository.
#
# cargo-deny fetches the database with git from GitHub, which these machines (developers' and
# CI's) cannot reach. So the repository carries a copy, `deny/advisory-db.tar.xz` (about
# 300 KB; the advisories are CC0 data), holding
#   crates/   the database's `crates/` folder as it is at one commit of rustsec/advisory-db
#   COMMIT    one line: that commit's hash and its committer date (`git log -1 --format='%H %cI'`)
# VITRINE_ADVISORY_DB names a folder with the same two entries instead (a newer copy).
# Refreshing the archive: in a clone of rustsec/advisory-db,
#   git log -1 --format='%H %cI' > COMMIT && tar -cJf advisory-db.tar.xz COMMIT crates
#
# The folder is made anew on every run. Its `.git/FETCH_HEAD` carries the copy's commit date,
# which cargo-deny takes as the time of the last fetch: deny.toml's `maximum-db-staleness` then
# fails the check once the copy is older than that, instead of trusting a stale database.
#
# Exit status: 0 when the database is in place, anything else on an error (no copy is one).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${VITRINE_ADVISORY_DB:-}" ]; then
  src="$VITRINE_ADVISORY_DB"
else
  src=target/advisory-db-copy
  rm -rf "$src"
  mkdir -p "$src"
  tar -xJf deny/advisory-db.tar.xz -C "$src"
fi
if [ ! -d "$src/crates" ] || [ ! -s "$src/COMMIT" ]; then
  echo "no advisory database copy at $src (crates/ and COMMIT)" >&2
  exit 1
fi
read -r commit date <"$src/COMMIT"
if [ -z "${date:-}" ] || ! date -d "$date" >/dev/null 2>&1; then
  echo "$src/COMMIT: expected '<hash> <ISO-8601 date>', got '$commit ${date:-}'" >&2
  exit 1
fi

# cargo-deny names each database's folder after its URL: `advisory-db-` and the xxHash64 of
# the default URL, https://github.com/rustsec/advisory-db (lower-cased).
dest=target/advisory-dbs/advisory-db-3157b0e258782691
rm -rf "$dest"
mkdir -p "$dest/.git"
cp -R "$src/crates" "$dest/crates"
echo "$commit" >"$dest/.git/FETCH_HEAD"
touch -d "$date" "$dest/.git/FETCH_HEAD"
count=$(find "$dest/crates" -name '*.md' | wc -l)
echo "advisory database: $count advisories, rustsec/advisory-db at ${commit:0:12} ($date)"
